//! `cargo xtask run | test | bench | web | fuzz | soak | check-wgsl | wgsl | lines`: the project's
//! commands.
//!
//! Each command first makes sure the software adapters it needs exist (and `test` and `web` the
//! browser and the wasm tools), installing them on Debian as root, or says exactly what to
//! install.
//!
//! The arguments are matched by hand: a command word, and two options for `web`. An argument
//! parser (clap, or even lexopt) would be more to build and read than the `match` below, and the
//! help it would generate is the one [`USAGE`] text.

mod bench_page;
mod bench_stamp;
mod dependency;
mod fuzz;
mod limits;
mod lines;
mod links;
mod mpi;
mod page_lines;
mod pages;
mod repeats;
mod setup;
mod site;
mod soak;
mod stage;
mod web;
mod webdriver;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use stage::{Stages, cargo, cargo_output};

/// `cargo xtask help`: every command.
const USAGE: &str = "usage: cargo xtask <command>

commands:
  test          the whole test suite on Vulkan, on GL and in headless Chromium (WebGPU), then
                `cargo check` for Windows (DX12) and macOS (Metal); first of all, `lines` and
                `links`, and `check-wgsl` after the build; the doc-tests run every Rust block
                of README.md and docs/; the properties run again with the commit's seed; each
                stage has a time limit
  test-browser  only the browser part of `test`: the suites and the web site's pages in
                headless Chromium (WebGPU)
  test-dependency  only the dependency part of `test`: package shoal and shoal-kernels, build
                and run the crate outside the workspace (tests/outside), run every example
  test-web      only the web site's pages in headless Chromium (WebDriver)
  run           the showcase: every program checked against its CPU reference and every demo
                rendered to target/shoal/<demo>.png, on Vulkan and GL
  bench         the benchmarks, built with --release (GPU timestamps; milliseconds and ratios
                to a copy kernel, the CPU and lampshade)
                  [--browser: the primitives in headless Chromium on WebGPU, the bench page]
                  [--swiftshader: Chromium's SwiftShader natively (Vulkan), subgroups withheld:
                  the browser's paths]
                written to docs/bench/<backend>-<adapter>.{md,json,svg}, stamped with the
                commit, adapter, CPU and date (a filtered run says so on its page)
  web           build the web site (the demos and the kernel checks on WebGPU, wasm32) into
                target/shoal/site/ and serve it on http://localhost:8000
                  [--port N] [--no-serve: only build]
  fuzz          the property tests (sizes, mutated WGSL) with random seeds on Vulkan and GL
                for N minutes in all, then how many inputs they tried  [--minutes N: default 5]
  soak          100,000 dispatches and 10,000 readbacks on Vulkan and on GL (release): wgpu's
                resource counts back at their baseline, resident memory within its bound
  check-wgsl    parse and validate with naga (no device needed) every .wgsl file under wgsl/,
                then every variant the kernels crate composes: each family's value and key
                types, built-in operations and the tilings planned for lavapipe, llvmpipe, the
                browser and a GPU, with and without subgroups
  wgsl FAMILY   print a family's composed WGSL (imports resolved, blocks replaced) under a
                header naming the configuration (an unknown FAMILY or option lists the valid ones)
                  [--key T] [--order asc|desc] [--op sum|min|max]
                  [--limits lavapipe|llvmpipe|webgpu|gpu: the device profile; lavapipe]
  lines         fail when a *.rs file under crates/, demos/, tests/ or xtask/ has more than 600
                lines, a page under docs/ more than 800, or a run of more than 12 identical
                lines stands in two places of crates/, wgsl/ or demos/
  links         fail when a relative link in README.md, CHANGELOG.md or docs/ names no file";

/// Runs the command the first argument names.
fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    // Not for people: cargo's runner for wasm32 test binaries during `cargo xtask test`. Its
    // arguments are a path (any bytes on Unix) and the harness's, handed on as they are.
    if args.first().is_some_and(|a| a == "wasm-runner") {
        return web::wasm_runner(&args[1..]);
    }
    // The commands' arguments are words and numbers: std::env::args would panic on one that is
    // not UTF-8, so say which instead.
    let args: Vec<String> = match args.into_iter().map(OsString::into_string).collect() {
        Ok(args) => args,
        Err(arg) => {
            eprintln!("argument {arg:?} is not valid UTF-8\n\n{USAGE}");
            return ExitCode::FAILURE;
        }
    };
    let Some(command) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::FAILURE;
    };
    let rest = &args[1..];
    let ok = match command.as_str() {
        "test" => test(rest),
        "test-browser" => test_browser(rest),
        "test-web" => test_web(),
        "test-dependency" => test_dependency(),
        "run" => run(rest),
        "bench" => bench(rest),
        "web" => web(rest),
        "check-wgsl" => check_wgsl(),
        "wgsl" => print_wgsl(rest),
        "fuzz" => fuzz::run(rest),
        "soak" => soak::run(rest),
        "lines" => lines(),
        "links" => links(),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            true
        }
        other => {
            eprintln!("unknown command `{other}`\n\n{USAGE}");
            false
        }
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The features that add the GLSL and HLSL kernels' tests (and with them shoal's `glsl` and
/// `hlsl`).
pub(crate) const GLSL: &str = "shoal-kernels/glsl,shoal-kernels/hlsl";

/// The native backends every run covers.
const BACKENDS: [&str; 2] = ["vulkan", "gl"];

/// `cargo xtask test [ARGS]`: every stage; `ARGS` go to each `cargo test`.
fn test(extra: &[String]) -> bool {
    let mut stages = Stages::new("cargo xtask test");
    // Before anything is built: a second to read, and its failure shows at once. The stages
    // after it still run, so that one run reports everything.
    stages.run(&lines_stage(), || lengths(&workspace_root()));
    stages.run(LINKS_STAGE, || links::check(&workspace_root()));
    if !stages.run_within(ADAPTERS_STAGE, limits::INSTALL, setup::ensure_adapters) {
        return stages.finish();
    }
    stages.run_within("build the test suites", limits::BUILD, || {
        cargo(
            &["test", "--workspace", "--features", GLSL, "--no-run"],
            &[],
        )
    });
    // The checker built with the suites' features (a build of its own would rebuild shoal and
    // shoal-kernels without `glsl`): a link and well under a second of validation.
    stages.run_within(CHECK_WGSL_STAGE, limits::SHORT, || {
        let built = cargo(
            &[&BUILD_EXAMPLES[..], &["--bin", "check-wgsl"]].concat(),
            &[],
        );
        let checker = target_dir(&workspace_root())
            .join("debug")
            .join("check-wgsl");
        built && stage::command(&mut std::process::Command::new(checker))
    });
    for backend in BACKENDS {
        stages.run_within(&format!("adapter for {backend}"), limits::SHORT, || {
            adapter(backend)
        });
        // Every test binary's result, not only the first failing one's.
        let mut args = vec!["test", "--workspace", "--features", GLSL, "--no-fail-fast"];
        args.extend(extra.iter().map(String::as_str));
        stages.run_within(&format!("tests on {backend}"), limits::NATIVE_TESTS, || {
            cargo(&args, &[("SHOAL_BACKEND", backend)])
        });
        fuzz::commit_stage(&mut stages, &workspace_root(), backend);
    }
    let root = workspace_root();
    dependency::stages(&mut stages, &root, &target_dir(&root), &BACKENDS);
    mpi::stages(&mut stages, &target_dir(&root));
    browser_tests(&mut stages, extra);
    for (target, what) in OTHER_TARGETS {
        let name = format!("cargo check for {target} ({what})");
        stages.run_within(&name, limits::OTHER_TARGET, || {
            let mut args = vec!["check", "--target", target];
            args.extend(CHECKED_ELSEWHERE.iter().flat_map(|p| ["-p", p]));
            setup::ensure_rust_target(target) && cargo(&args, &[])
        });
    }
    stages.finish()
}

/// The name of the stage that finds or installs the software adapters and shaderc.
pub(crate) const ADAPTERS_STAGE: &str =
    "software adapters (lavapipe, llvmpipe), GLSL compiler (shaderc)";

/// The name of the WGSL check's stage.
const CHECK_WGSL_STAGE: &str = "validate wgsl/**/*.wgsl and every kernel variant";

/// Every example, built with the test suites' features: after the suites' build, fresh.
pub(crate) const BUILD_EXAMPLES: [&str; 6] = [
    "build",
    "-q",
    "--workspace",
    "--features",
    GLSL,
    "--examples",
];

/// `cargo xtask test-browser [ARGS]`.
fn test_browser(extra: &[String]) -> bool {
    let mut stages = Stages::new("cargo xtask test-browser");
    browser_tests(&mut stages, extra);
    stages.finish()
}

/// The crates whose test suites run in the browser too (docs/web.md has their times on
/// SwiftShader: the kernel suites take minutes, the others seconds).
const BROWSER_SUITES: [&str; 3] = ["shoal", "shoal-conformance", "shoal-kernels"];

/// Targets the suite cannot run on here, checked to compile: their wgpu backends are real code.
const OTHER_TARGETS: [(&str, &str); 2] = [
    ("x86_64-pc-windows-msvc", "DX12"),
    ("aarch64-apple-darwin", "Metal"),
];

/// The crates checked for [`OTHER_TARGETS`]: the libraries and the demos.
const CHECKED_ELSEWHERE: [&str; 4] = ["shoal", "shoal-kernels", "shoal-conformance", "shoal-demos"];

/// `cargo xtask test-dependency`.
fn test_dependency() -> bool {
    let mut stages = Stages::new("cargo xtask test-dependency");
    let root = workspace_root();
    dependency::stages(&mut stages, &root, &target_dir(&root), &BACKENDS);
    stages.finish()
}

/// `cargo xtask test-web`.
fn test_web() -> bool {
    let mut stages = Stages::new("cargo xtask test-web");
    if let Some(tools) = browser_tools(&mut stages) {
        web_pages(&mut stages, &tools);
    }
    stages.finish()
}

/// The stage that finds or installs the browser tools.
fn browser_tools(stages: &mut Stages) -> Option<web::BrowserTools> {
    let root = workspace_root();
    let mut tools = None;
    let found = stages.run_within(
        "browser tools (chromium, chromedriver, wasm32 target, wasm-bindgen-cli)",
        limits::INSTALL,
        || {
            tools = web::BrowserTools::ensure(&root);
            tools.is_some()
        },
    );
    tools.filter(|_| found)
}

/// The test suites in headless Chromium on WebGPU (tools, build, the adapter, the run), then
/// the web site's pages.
fn browser_tests(stages: &mut Stages, extra: &[String]) {
    let Some(tools) = browser_tools(stages) else {
        return;
    };
    browser_suites(stages, &tools, extra);
    web_pages(stages, &tools);
}

/// The wasm-bindgen-test suites of [`BROWSER_SUITES`] in headless Chromium.
fn browser_suites(stages: &mut Stages, tools: &web::BrowserTools, extra: &[String]) {
    let root = workspace_root();
    let (runner, env) = match tools.cargo_env(&target_dir(&root).join("shoal").join("web")) {
        Ok(setup) => setup,
        Err(e) => {
            stages.run("tests in headless Chromium (WebGPU)", || {
                eprintln!("{e}");
                false
            });
            return;
        }
    };
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut suites = vec![
        "test",
        "--config",
        &runner,
        "--target",
        web::WASM_TARGET,
        "--tests",
    ];
    suites.extend(BROWSER_SUITES.iter().flat_map(|p| ["-p", p]));
    // The GLSL and HLSL kernels' tests: `glsl!` and `hlsl!` translated them at compile time,
    // so they run here too.
    suites.extend(["--features", GLSL]);
    let mut build = suites.clone();
    build.push("--no-run");
    if !stages.run_within(
        "build the test suites for wasm32",
        limits::WASM_BUILD,
        || cargo(&build, &env),
    ) {
        return;
    }
    // One test of the conformance suite with the console shown: the adapter and its limits.
    stages.run_within("adapter for webgpu (headless Chromium)", limits::SHORT, || {
        let args = ["test", "--config", &runner, "--target", web::WASM_TARGET, "-p", "shoal-conformance", "--lib", "--", "limits_meet", "--nocapture"];
        let shown = cargo_output(&args, &env).is_some_and(|out| out.contains("shoal tests on"));
        if !shown {
            eprintln!("the browser did not report its adapter (was the conformance test `limits_meet…` renamed?)");
        }
        shown
    });
    // Every suite's result, not only the first failing one's.
    suites.push("--no-fail-fast");
    suites.extend(extra.iter().map(String::as_str));
    stages.run_within(
        "tests on webgpu (headless Chromium, SwiftShader)",
        limits::BROWSER_TESTS,
        || cargo(&suites, &env),
    );
}

/// The web site built, then its pages checked in headless Chromium through WebDriver.
fn web_pages(stages: &mut Stages, tools: &web::BrowserTools) {
    let root = workspace_root();
    let target = target_dir(&root);
    let mut site = None;
    // The dev profile: its dependencies are the browser suites' (opt-level 2, as natively), so
    // this compiles the demos and a few wasm32 crates instead of everything again in release.
    stages.run_within(
        "build the web site (wasm32, dev profile)",
        limits::SITE,
        || {
            site = site::build(
                &root,
                &target,
                &tools.wasm.wasm_bindgen,
                false,
                &[site::DEMOS],
            )
            .map_err(|e| eprintln!("{e}"))
            .ok();
            site.is_some()
        },
    );
    if let Some(site) = site {
        let shots = target.join("shoal").join("web");
        stages.run_within(
            "web pages in headless Chromium (WebDriver: index, demo, kernels)",
            limits::PAGES,
            || pages::check(tools, &site, &shots),
        );
    }
}

/// `cargo xtask web [--port N] [--no-serve]`.
fn web(args: &[String]) -> bool {
    let mut port = 8000u16;
    let mut serve = true;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--no-serve" => serve = false,
            "--port" => match args.next().and_then(|p| p.parse().ok()) {
                Some(p) => port = p,
                None => {
                    eprintln!("--port takes a port number");
                    return false;
                }
            },
            other => {
                eprintln!("unknown option `{other}` (cargo xtask web [--port N] [--no-serve])");
                return false;
            }
        }
    }
    let root = workspace_root();
    let mut stages = Stages::new("cargo xtask web");
    let mut tools = None;
    if !stages.run("wasm tools (wasm32 target, wasm-bindgen-cli)", || {
        tools = web::WasmTools::ensure(&root);
        tools.is_some()
    }) {
        return stages.finish();
    }
    let Some(tools) = tools else {
        return stages.finish();
    };
    let mut site = None;
    stages.run("build the web site (wasm32, release)", || {
        site = site::build(
            &root,
            &target_dir(&root),
            &tools.wasm_bindgen,
            true,
            &[site::DEMOS, site::BENCH],
        )
        .map_err(|e| eprintln!("{e}"))
        .ok();
        site.is_some()
    });
    let built = stages.finish();
    match site {
        Some(site) if built && serve => site::serve_forever(&site, &format!("127.0.0.1:{port}")),
        _ => built,
    }
}

/// The workspace's root: xtask's manifest directory's parent.
fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// Cargo's target directory for this workspace, as `cargo metadata --no-deps` reports it (it
/// knows `build.target-dir` in a config file too; no dependency is resolved), asked once; if
/// that fails, `CARGO_TARGET_DIR` or `target/`.
fn target_dir(root: &Path) -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        stage::metadata_target_dir(root).unwrap_or_else(|| {
            std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| root.join("target"))
        })
    })
    .clone()
}

/// `cargo xtask run [ARGS]`: the showcase on each backend; `ARGS` go to the showcase.
fn run(extra: &[String]) -> bool {
    let mut stages = Stages::new("cargo xtask run");
    if !stages.run(ADAPTERS_STAGE, setup::ensure_adapters) {
        return stages.finish();
    }
    for backend in BACKENDS {
        let mut args = vec!["run", "-q", "-p", "shoal-demos", "--bin", "showcase", "--"];
        args.extend(extra.iter().map(String::as_str));
        stages.run(&format!("showcase on {backend}"), || {
            cargo(&args, &[("SHOAL_BACKEND", backend)])
        });
    }
    stages.finish()
}

/// Prints `backend`'s adapter and limits (the `adapters` example). The test build compiled the
/// examples with the suites' features, so this build is fresh; `cargo run -p shoal` would unify
/// features for `shoal` alone and rebuild naga and wgpu (two minutes on a cold target).
fn adapter(backend: &str) -> bool {
    let root = workspace_root();
    let built = cargo(&BUILD_EXAMPLES, &[]);
    let example = target_dir(&root)
        .join("debug")
        .join("examples")
        .join("adapters");
    built && stage::command(std::process::Command::new(example).env("SHOAL_BACKEND", backend))
}

/// `cargo xtask bench [ARGS]`: `ARGS` go to shoal-bench, built with `--release`: the bench
/// crate's own code (its CPU baselines, the raw-wgpu side of the overhead benchmark) runs
/// optimised, and the build is the one `cargo xtask soak` already makes (the dev profile would
/// leave the bench crate at opt-level 0; a profile of its own would build every dependency a
/// third time).
fn bench(extra: &[String]) -> bool {
    // `cargo xtask bench -- scan` hands xtask the `--` too (cargo's alias passes everything after
    // its own `--`); the bench would take it as a filter word that matches nothing.
    let extra: Vec<String> = extra.iter().filter(|a| *a != "--").cloned().collect();
    let extra = extra.as_slice();
    let mut stages = Stages::new("cargo xtask bench");
    if !stages.run(ADAPTERS_STAGE, setup::ensure_adapters) {
        return stages.finish();
    }
    let stamp = bench_stamp::Stamp::new(&workspace_root());
    if extra.first().map(String::as_str) == Some("--browser") {
        if let Some(tools) = browser_tools(&mut stages) {
            let root = workspace_root();
            stages.run("benchmarks on webgpu (headless Chromium, release)", || {
                bench_page::run(&tools, &root, &target_dir(&root), &extra[1..], &stamp)
                    .map_err(|e| eprintln!("{e}"))
                    .is_ok()
            });
        }
        return stages.finish();
    }
    if extra.first().map(String::as_str) == Some("--swiftshader") {
        // Chromium's own SwiftShader, natively through Vulkan, subgroups withheld: the
        // browser's kernels and tiles in seconds instead of a page load per change.
        let Some(tools) = browser_tools(&mut stages) else {
            return stages.finish();
        };
        let icd = tools
            .chromium
            .parent()
            .map(|dir| dir.join("vk_swiftshader_icd.json"))
            .filter(|p| p.exists())
            .unwrap_or_else(|| PathBuf::from("/usr/lib/chromium/vk_swiftshader_icd.json"));
        let mut args = vec!["run", "--release", "-q", "-p", "shoal-bench", "--"];
        args.extend(extra[1..].iter().map(String::as_str));
        let icd = icd.display().to_string();
        stages.run(
            "benchmarks on SwiftShader (Chromium's, Vulkan, no subgroups, release)",
            || {
                if !Path::new(&icd).exists() {
                    eprintln!("{icd} not found: Debian's chromium package ships it");
                    return false;
                }
                let mut env = vec![
                    ("SHOAL_BACKEND", "vulkan"),
                    ("VK_ICD_FILENAMES", icd.as_str()),
                    ("SHOAL_BENCH_WITHOUT_SUBGROUPS", "1"),
                ];
                env.extend(stamp.env());
                cargo(&args, &env)
            },
        );
        return stages.finish();
    }
    let backend = std::env::var("SHOAL_BACKEND").unwrap_or_else(|_| "vulkan".into());
    let mut args = vec!["run", "--release", "-q", "-p", "shoal-bench", "--"];
    args.extend(extra.iter().map(String::as_str));
    stages.run(&format!("benchmarks on {backend} (release)"), || {
        let mut env = vec![("SHOAL_BACKEND", backend.as_str())];
        env.extend(stamp.env());
        cargo(&args, &env)
    });
    mpi::bench(&mut stages, &target_dir(&workspace_root()), &backend, extra);
    stages.finish()
}

/// The name of the file-length stage.
fn lines_stage() -> String {
    format!(
        "file lengths (*.rs at most {} lines, docs/ pages at most {}) and repeated code (no run \
         of more than {} identical lines in two places)",
        lines::MAX_LINES,
        page_lines::MAX_PAGE_LINES,
        repeats::MAX_REPEAT
    )
}

/// The file-length check, the page-length check and the repeated-code check, all reported.
fn lengths(root: &Path) -> bool {
    lines::check(root) & page_lines::check(root) & repeats::check(root)
}

/// `cargo xtask lines`: only the file-length and repeated-code checks.
fn lines() -> bool {
    let mut stages = Stages::new("cargo xtask lines");
    stages.run(&lines_stage(), || lengths(&workspace_root()));
    stages.finish()
}

/// The name of the link check's stage.
const LINKS_STAGE: &str = "relative links in README.md, CHANGELOG.md and docs/";

/// `cargo xtask links`: only the link check.
fn links() -> bool {
    let mut stages = Stages::new("cargo xtask links");
    stages.run(LINKS_STAGE, || links::check(&workspace_root()));
    stages.finish()
}

/// `cargo xtask check-wgsl`.
/// `cargo xtask wgsl FAMILY [OPTIONS]`: the checker's `print` mode, built as `check-wgsl` is.
fn print_wgsl(args: &[String]) -> bool {
    let mut command = vec![
        "run",
        "-q",
        "-p",
        "shoal-demos",
        "--bin",
        "check-wgsl",
        "--",
        "print",
    ];
    command.extend(args.iter().map(String::as_str));
    cargo(&command, &[])
}

fn check_wgsl() -> bool {
    let mut stages = Stages::new("cargo xtask check-wgsl");
    // Its own build, without `glsl`: this needs no shaderc (`test` builds it as the suites are).
    stages.run(CHECK_WGSL_STAGE, || {
        cargo(
            &["run", "-q", "-p", "shoal-demos", "--bin", "check-wgsl"],
            &[],
        )
    });
    stages.finish()
}
