//! Shoal as a dependency: the packaged crates, a crate outside the workspace that uses them, and
//! every example.
//!
//! Both builds share the workspace's target directory and profile settings, so wgpu and naga
//! built for the test suites are reused: each adds the compile of `shoal` and `shoal-kernels`,
//! not a second build of the dependencies (docs/architecture.md, "Packaging").

use std::path::Path;
use std::process::Command;

use crate::limits;
use crate::stage::{Stages, cargo, cargo_output, command};

/// The workspace's `[profile]` settings as `--config` flags. `cargo package` verifies each crate
/// as a workspace of its own, where the workspace's profiles do not apply; without these the
/// dependencies would be rebuilt at opt-level 0.
const PROFILE: [&str; 5] = [
    "profile.dev.debug=\"line-tables-only\"",
    "profile.dev.package.\"*\".opt-level=2",
    "profile.dev.package.\"*\".debug=false",
    "profile.dev.package.shoal.opt-level=2",
    "profile.dev.package.shoal-kernels.opt-level=2",
];

/// The crate outside the workspace, relative to the workspace's root.
const OUTSIDE: &str = "tests/outside";

/// The examples `cargo xtask test` runs: (package, example, arguments relative to the
/// workspace's root). Each checks its own result against the CPU and exits non-zero on a mismatch.
/// (`adapters`, which prints the adapter and its limits, runs first of all as the stage "adapter
/// for BACKEND".)
pub(crate) const EXAMPLES: &[(&str, &str, &[&str])] = &[
    ("shoal", "vecadd", &[]),
    ("shoal", "multiply", &[]),
    ("shoal", "multiply_glsl", &[]),
    ("shoal", "vector_lengths", &[]),
    ("shoal", "prefix_sum", &[]),
    ("shoal", "grid", &[]),
    ("shoal", "invert", &["docs/images/demo-blur.png"]),
    ("shoal", "indirect", &[]),
    ("shoal", "printf", &[]),
    ("shoal", "recover", &[]),
    ("shoal", "push_constants", &[]),
    ("shoal-kernels", "sort", &[]),
    ("shoal-kernels", "scan", &[]),
    ("shoal-kernels", "histogram", &["docs/images/demo-blur.png"]),
    ("shoal-kernels", "blur", &["docs/images/demo-blur.png"]),
    ("shoal-kernels", "blur_hlsl", &[]),
];

/// The most lines of Rust an example may have: lines that are neither blank nor comments, after
/// rustfmt (its kernel file is not counted).
pub(crate) const EXAMPLE_LINES: usize = 25;

/// The lines of Rust in `text` as [`EXAMPLE_LINES`] counts them: neither blank nor comments,
/// nor the logger's start (`env_logger::init();`), which every program has.
fn rust_lines(text: &str) -> usize {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.starts_with("env_logger::init();"))
        .count()
}

/// Every example in [`EXAMPLES`] exists and has at most [`EXAMPLE_LINES`] lines of Rust.
pub(crate) fn example_lengths(root: &Path) -> bool {
    let mut ok = true;
    for (package, example, _) in EXAMPLES {
        let path = root.join(format!("crates/{package}/examples/{example}.rs"));
        match std::fs::read_to_string(&path) {
            Ok(text) if rust_lines(&text) <= EXAMPLE_LINES => {}
            Ok(text) => {
                let n = rust_lines(&text);
                eprintln!(
                    "{}: {n} lines of Rust (at most {EXAMPLE_LINES})",
                    path.display()
                );
                ok = false;
            }
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                ok = false;
            }
        }
    }
    ok
}

/// `text` without its `//!` header lines, as the pages show a file.
fn without_header(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("//!"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// The first ```rust block of `page` (```rust,ignore and the like too: a page that shows a
/// file the examples run need not run it again as a doctest).
fn first_rust_block(page: &str) -> &str {
    page.split("```rust")
        .skip(1)
        .find_map(|rest| {
            let (info, body) = rest.split_once('\n')?;
            info.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == ',' || c == '_')
                .then(|| body.split("```").next().unwrap_or_default())
        })
        .unwrap_or_default()
}

/// The README's first Rust block is `crates/shoal/examples/vecadd.rs` without its `//!` header,
/// so the example the README shows is the one `cargo xtask test` runs.
pub(crate) fn readme_example(root: &Path) -> bool {
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap_or_default();
    let example = without_header(&read(VECADD));
    let same = !example.is_empty() && first_rust_block(&read("README.md")) == example;
    if !same {
        eprintln!("README.md's first ```rust block differs from {VECADD}");
    }
    same
}

/// Shoal's VecAdd: the README's example.
const VECADD: &str = "crates/shoal/examples/vecadd.rs";

/// The same VecAdd in wgpu alone, (package, example), run with the examples.
const RAW_WGPU: (&str, &str) = ("shoal-conformance", "vecadd_raw_wgpu");

/// The page that shows [`RAW_WGPU`] beside Shoal's VecAdd.
const RAW_WGPU_PAGE: &str = "docs/raw-wgpu.md";

/// [`RAW_WGPU_PAGE`]'s first Rust block is the raw-wgpu example without its header, and the page
/// states both programs' lines of Rust as [`EXAMPLE_LINES`] counts them.
pub(crate) fn raw_wgpu_page(root: &Path) -> bool {
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap_or_default();
    let raw = read("tests/examples/vecadd_raw_wgpu.rs");
    let page = read(RAW_WGPU_PAGE);
    let mut ok = !raw.is_empty() && first_rust_block(&page) == without_header(&raw);
    if !ok {
        eprintln!(
            "{RAW_WGPU_PAGE}'s first ```rust block differs from tests/examples/vecadd_raw_wgpu.rs"
        );
    }
    let counts = format!(
        "{} lines of Rust against {}",
        rust_lines(&read(VECADD)),
        rust_lines(&raw)
    );
    if !page.contains(&counts) {
        eprintln!("{RAW_WGPU_PAGE} does not say \"{counts}\" (the counts today)");
        ok = false;
    }
    ok
}

/// The page whose code blocks are the crate in [`OUTSIDE`].
const GETTING_STARTED: &str = "docs/getting-started.md";

/// A fenced block of [`GETTING_STARTED`] with the comment line before it: `<!-- file: PATH -->`
/// (the block is the file), `<!-- lines of: PATH -->` (each of its lines is a line of the file)
/// or `<!-- output: tests/outside -->` (each of its lines is a line the outside crate prints).
struct Block {
    kind: String,
    path: String,
    text: String,
}

/// Every annotated fenced block of `page`.
fn blocks(page: &str) -> Vec<Block> {
    let lines: Vec<&str> = page.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(note) = line
            .strip_prefix("<!-- ")
            .and_then(|l| l.strip_suffix(" -->"))
        else {
            continue;
        };
        let Some((kind, path)) = note.split_once(": ") else {
            continue;
        };
        if !lines.get(i + 1).is_some_and(|l| l.starts_with("```")) {
            continue;
        }
        let body = lines[i + 2..].iter().take_while(|l| !l.starts_with("```"));
        out.push(Block {
            kind: kind.to_string(),
            path: path.to_string(),
            text: body.map(|l| format!("{l}\n")).collect(),
        });
    }
    out
}

/// Each line of `block` is a line of `text` (trailing spaces aside); the missing ones are printed.
fn lines_in(what: &str, block: &str, text: &str) -> bool {
    let have: Vec<&str> = text.lines().map(str::trim_end).collect();
    let missing: Vec<&str> = block
        .lines()
        .map(str::trim_end)
        .filter(|l| !have.contains(l))
        .collect();
    for line in &missing {
        eprintln!("{GETTING_STARTED}: `{line}` is not a line of {what}");
    }
    missing.is_empty()
}

/// [`GETTING_STARTED`]'s `file:` and `lines of:` blocks match the files they name, and it has an
/// `output:` block; the output is checked when the crate runs ([`outside`]).
pub(crate) fn getting_started(root: &Path) -> bool {
    let Ok(page) = std::fs::read_to_string(root.join(GETTING_STARTED)) else {
        eprintln!("{GETTING_STARTED} is missing");
        return false;
    };
    let blocks = blocks(&page);
    let mut ok = blocks.iter().any(|b| b.kind == "output");
    for b in blocks.iter().filter(|b| b.kind != "output") {
        let file = std::fs::read_to_string(root.join(&b.path)).unwrap_or_default();
        ok &= match b.kind.as_str() {
            "file" if file == b.text => true,
            "file" => {
                eprintln!(
                    "{GETTING_STARTED}: the block marked {} differs from the file",
                    b.path
                );
                false
            }
            "lines of" => lines_in(&b.path, &b.text, &file),
            other => {
                eprintln!("{GETTING_STARTED}: unknown block note `{other}`");
                false
            }
        };
    }
    ok
}

/// The crates `cargo package` packs and verifies.
/// shoal-derive, shoal-glsl and its macro come first: shoal depends on them, so verifying
/// shoal resolves them from the packages just made.
const PACKAGED: [&str; 5] = [
    "shoal-derive",
    "shoal-glsl",
    "shoal-glsl-macro",
    "shoal",
    "shoal-kernels",
];

/// Removes the sources Cargo unpacked from earlier runs' packages of [`PACKAGED`]; true if there
/// were any.
///
/// Verification builds `shoal-kernels` against the `shoal` just packed, served from a temporary
/// local registry; Cargo unpacks a registry crate into `$CARGO_HOME/registry/src/…/NAME-VERSION`
/// once and never again for the same version (and keeps what it compiled from it), so a second
/// run would verify against the first run's `shoal`. Only directories whose manifest carries the
/// workspace crate's own description are removed (Shoal is not on crates.io, so nothing else
/// has them).
fn forget_unpacked_packages(root: &Path) -> bool {
    let mut found = false;
    let home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")));
    let Some(sources) = home.map(|h| h.join("registry").join("src")) else {
        return false;
    };
    let registries = std::fs::read_dir(&sources).into_iter().flatten().flatten();
    for registry in registries {
        for name in PACKAGED {
            let ours = std::fs::read_to_string(root.join("crates").join(name).join("Cargo.toml"));
            let description = ours.ok().and_then(|m| {
                m.lines()
                    .find(|l| l.starts_with("description"))
                    .map(str::to_string)
            });
            let version = env!("CARGO_PKG_VERSION");
            let unpacked = registry.path().join(format!("{name}-{version}"));
            let manifest = std::fs::read_to_string(unpacked.join("Cargo.toml")).unwrap_or_default();
            if description.is_some_and(|d| manifest.contains(&d)) {
                found = true;
                if let Err(e) = std::fs::remove_dir_all(&unpacked) {
                    eprintln!("cannot remove {}: {e}", unpacked.display());
                }
            }
        }
    }
    found
}

/// `cargo package` of both published crates, with verification (each builds from its `.crate`).
pub(crate) fn package(root: &Path) -> bool {
    // A run after an earlier one: what was compiled from the old packages goes too (a fresh
    // clone, as in CI, has none and skips this).
    if forget_unpacked_packages(root) {
        let mut clean = vec!["clean"];
        clean.extend(PACKAGED.iter().flat_map(|p| ["-p", p]));
        if !cargo(&clean, &[]) {
            return false;
        }
    }
    let mut args = vec!["package"];
    args.extend(PACKAGED.iter().flat_map(|p| ["-p", p]));
    // What is checked is what the crates carry, committed or not.
    args.push("--allow-dirty");
    args.extend(PROFILE.iter().flat_map(|p| ["--config", p]));
    cargo(&args, &[])
}

/// Builds and runs the crate in [`OUTSIDE`] on `backend` against the workspace's `Cargo.lock`
/// (copied beside it, so it resolves the same versions) and target directory.
pub(crate) fn outside(root: &Path, target: &Path, backend: &str) -> bool {
    let dir = root.join(OUTSIDE);
    if let Err(e) = std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")) {
        eprintln!("cannot copy Cargo.lock into {}: {e}", dir.display());
        return false;
    }
    let manifest = dir.join("Cargo.toml");
    let manifest = manifest.to_string_lossy();
    let target = target.to_string_lossy();
    let Some(output) = cargo_output(
        &["run", "-q", "--manifest-path", &manifest],
        &[("CARGO_TARGET_DIR", &target), ("SHOAL_BACKEND", backend)],
    ) else {
        return false;
    };
    // What the getting-started page says it prints.
    let page = std::fs::read_to_string(root.join(GETTING_STARTED)).unwrap_or_default();
    blocks(&page)
        .iter()
        .filter(|b| b.kind == "output")
        .all(|b| lines_in(&format!("what {OUTSIDE} printed"), &b.text, &output))
}

/// Runs every example in [`EXAMPLES`] on `backend`, in `target/shoal/examples/` (where the
/// pictures they write land); all run, so one failure does not hide the next.
pub(crate) fn examples(root: &Path, target: &Path, backend: &str) -> bool {
    let dir = target.join("shoal").join("examples");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("cannot create {}: {e}", dir.display());
        return false;
    }
    // One build of every example with the features the test suites were built with: the test
    // build compiled them already, so this is fresh. `cargo run -p PACKAGE` per example would
    // unify features per package instead and rebuild naga and wgpu for some (minutes).
    let manifest = root.join("Cargo.toml");
    let manifest = manifest.to_string_lossy();
    let build = ["build", "-q", "--manifest-path", &manifest, "--workspace"];
    if !cargo(
        &[&build[..], &["--features", crate::GLSL, "--examples"]].concat(),
        &[],
    ) {
        return false;
    }
    let mut ok = true;
    let raw: (&str, &str, &[&str]) = (RAW_WGPU.0, RAW_WGPU.1, &[]);
    for &(package, example, args) in EXAMPLES.iter().chain([&raw]) {
        eprintln!("-- example {package}/{example} on {backend}");
        let mut cmd = Command::new(target.join("debug").join("examples").join(example));
        cmd.args(args.iter().map(|a| root.join(a)))
            .env("SHOAL_BACKEND", backend)
            .current_dir(&dir);
        let passed = command(&mut cmd);
        if !passed {
            eprintln!("example {package}/{example} FAILED on {backend}");
        }
        ok &= passed;
    }
    ok
}

/// The stages above, in the order `cargo xtask test` runs them.
pub(crate) fn stages(stages: &mut Stages, root: &Path, target: &Path, backends: &[&str]) {
    stages.run(
        &format!("examples: at most {EXAMPLE_LINES} lines of Rust each"),
        || example_lengths(root),
    );
    stages.run("the README's example is examples/vecadd.rs", || {
        readme_example(root)
    });
    stages.run(
        &format!("{RAW_WGPU_PAGE} shows the raw-wgpu VecAdd and both line counts"),
        || raw_wgpu_page(root),
    );
    stages.run(
        &format!("{GETTING_STARTED}'s code is the crate {OUTSIDE}"),
        || getting_started(root),
    );
    stages.run_within(
        "package shoal-derive, shoal-glsl, shoal-glsl-macro, shoal and shoal-kernels (cargo package, verified)",
        limits::PACKAGE,
        || package(root),
    );
    for backend in backends {
        let name = format!("outside crate ({OUTSIDE}) on {backend}");
        stages.run_within(&name, limits::SHORT, || outside(root, target, backend));
    }
    for backend in backends {
        let name = format!("examples on {backend}");
        stages.run_within(&name, limits::SHORT, || examples(root, target, backend));
    }
}

#[cfg(test)]
mod tests {
    use super::{blocks, first_rust_block, lines_in, rust_lines};

    /// The first block whose info string is `rust` with or without attributes (`rust,ignore`,
    /// which a page showing a file that runs elsewhere uses), not `rustc` text or another language.
    #[test]
    fn the_first_rust_block_may_carry_attributes() {
        let page = "```sh
x
```
```rust,ignore
fn a() {}
```
```rust
fn b() {}
```
";
        assert_eq!(
            first_rust_block(page),
            "fn a() {}
"
        );
        assert_eq!(
            first_rust_block(
                "```rust
fn b() {}
```
"
            ),
            "fn b() {}
"
        );
        assert_eq!(
            first_rust_block(
                "```rust (not code)
x
```
"
            ),
            ""
        );
    }

    #[test]
    fn annotated_blocks_are_found_and_checked_line_by_line() {
        let page = "text\n<!-- file: a.rs -->\n```rust\nfn a() {}\n```\n\n```sh\nnot noted\n```\n";
        let found = blocks(page);
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].kind.as_str(), found[0].path.as_str()),
            ("file", "a.rs")
        );
        assert_eq!(found[0].text, "fn a() {}\n");
        assert!(lines_in("out", "b\na\n", "a\nb  \nc\n"));
        assert!(!lines_in("out", "d\n", "a\n"));
    }

    #[test]
    fn counts_code_not_comments_or_blank_lines() {
        assert_eq!(
            rust_lines(
                "//! doc\n\nfn main() {\n    env_logger::init(); // logs\n    // why\n    run();\n}\n"
            ),
            3
        );
    }
}
