//! Shoal as a dependency: the packaged crates, a crate outside the workspace that uses them, and
//! every example.
//!
//! Both builds share the workspace's target directory and profile settings, so wgpu and naga
//! built for the test suites are reused: each adds the compile of `shoal` and `shoal-kernels`,
//! not a second build of the dependencies (docs/architecture.md, "Packaging").

use std::path::Path;

use crate::stage::{Stages, cargo};

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

/// The examples `cargo xtask test` runs: (package, example name).
pub(crate) const EXAMPLES: &[(&str, &str)] = &[("shoal", "vecadd")];

/// `cargo package` of both published crates, with verification (each builds from its `.crate`).
pub(crate) fn package() -> bool {
    let mut args = vec!["package", "-p", "shoal", "-p", "shoal-kernels"];
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
    cargo(
        &["run", "-q", "--manifest-path", &manifest],
        &[("CARGO_TARGET_DIR", &target), ("SHOAL_BACKEND", backend)],
    )
}

/// Runs every example in [`EXAMPLES`] on `backend`; each checks its own result against the CPU
/// and exits non-zero on a mismatch. All run, so one failure does not hide the next.
pub(crate) fn examples(backend: &str) -> bool {
    let mut ok = true;
    for (package, example) in EXAMPLES {
        eprintln!("-- example {package}/{example} on {backend}");
        // Files an example writes (pictures) land in the target directory, not the source tree.
        let passed = cargo(
            &["run", "-q", "-p", package, "--example", example],
            &[("SHOAL_BACKEND", backend)],
        );
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
        "package shoal and shoal-kernels (cargo package, verified)",
        package,
    );
    for backend in backends {
        stages.run(&format!("outside crate ({OUTSIDE}) on {backend}"), || {
            outside(root, target, backend)
        });
    }
    for backend in backends {
        stages.run(&format!("examples on {backend}"), || examples(backend));
    }
}
