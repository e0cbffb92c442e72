//! `cargo xtask run | test | bench | check-wgsl`: the project's commands.
//!
//! Each command first makes sure the software adapters it needs exist, installing them on Debian
//! as root, or says exactly what to install.

mod setup;
mod stage;

use std::process::ExitCode;

use stage::{Stages, cargo};

const USAGE: &str = "usage: cargo xtask <command>

commands:
  test        the whole test suite on Vulkan and on GL, then the wasm32 check
  run         the showcase: every program checked against its CPU reference, on Vulkan and GL
  bench       the benchmarks (GPU timestamps; ratios to a copy kernel and to the CPU)
  check-wgsl  parse and validate every .wgsl file under wgsl/ with naga (no device needed)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(command) = args.first() else {
        eprintln!("{USAGE}");
        return ExitCode::FAILURE;
    };
    let rest = &args[1..];
    let ok = match command.as_str() {
        "test" => test(rest),
        "run" => run(rest),
        "bench" => bench(rest),
        "check-wgsl" => check_wgsl(),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            true
        }
        other => {
            eprintln!("unknown command `{other}`\n\n{USAGE}");
            false
        }
    };
    if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// The native backends every run covers.
const BACKENDS: [&str; 2] = ["vulkan", "gl"];

fn test(extra: &[String]) -> bool {
    let mut stages = Stages::new("cargo xtask test");
    if !stages.run("software adapters (lavapipe, llvmpipe)", setup::ensure_adapters) {
        return stages.finish();
    }
    stages.run("build the test suites", || cargo(&["test", "--workspace", "--no-run"], &[]));
    for backend in BACKENDS {
        stages.run(&format!("adapter for {backend}"), || {
            cargo(&["run", "-q", "-p", "shoal-demos", "--bin", "adapters"], &[("SHOAL_BACKEND", backend)])
        });
        let mut args = vec!["test", "--workspace"];
        args.extend(extra.iter().map(String::as_str));
        stages.run(&format!("tests on {backend}"), || cargo(&args, &[("SHOAL_BACKEND", backend)]));
    }
    stages.run("wasm32 check of shoal", || {
        setup::ensure_rust_target("wasm32-unknown-unknown")
            && cargo(&["check", "--target", "wasm32-unknown-unknown", "-p", "shoal"], &[])
    });
    stages.finish()
}

fn run(extra: &[String]) -> bool {
    let mut stages = Stages::new("cargo xtask run");
    if !stages.run("software adapters (lavapipe, llvmpipe)", setup::ensure_adapters) {
        return stages.finish();
    }
    for backend in BACKENDS {
        let mut args = vec!["run", "-q", "-p", "shoal-demos", "--bin", "showcase", "--"];
        args.extend(extra.iter().map(String::as_str));
        stages.run(&format!("showcase on {backend}"), || cargo(&args, &[("SHOAL_BACKEND", backend)]));
    }
    for demo in DEMOS {
        let out = format!("target/shoal/{demo}.png");
        stages.run(&format!("demo {demo}, headless -> {out}"), || {
            cargo(&["run", "-q", "-p", "shoal-demos", "--bin", demo, "--", "--headless", "--out", &out], &[("SHOAL_BACKEND", "vulkan")])
        });
    }
    stages.finish()
}

/// The demo binaries `run` renders headless.
const DEMOS: [&str; 2] = ["grid", "raytrace"];

fn bench(extra: &[String]) -> bool {
    let mut stages = Stages::new("cargo xtask bench");
    if !stages.run("software adapters (lavapipe, llvmpipe)", setup::ensure_adapters) {
        return stages.finish();
    }
    let backend = std::env::var("SHOAL_BACKEND").unwrap_or_else(|_| "vulkan".into());
    let mut args = vec!["run", "-q", "-p", "shoal-bench", "--"];
    args.extend(extra.iter().map(String::as_str));
    stages.run(&format!("benchmarks on {backend}"), || cargo(&args, &[("SHOAL_BACKEND", &backend)]));
    stages.finish()
}

fn check_wgsl() -> bool {
    let mut stages = Stages::new("cargo xtask check-wgsl");
    stages.run("validate wgsl/**/*.wgsl", || cargo(&["run", "-q", "-p", "shoal-demos", "--bin", "check-wgsl"], &[]));
    stages.finish()
}
