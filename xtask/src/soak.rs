//! `cargo xtask soak`: the soak binary (`crates/shoal-bench/src/bin/soak.rs`, built with
//! `--release`, the build `cargo xtask bench` shares) on Vulkan and on GL. It runs 100,000 dispatches and 10,000 readbacks and fails
//! when wgpu's live resources do not return to their baseline or resident memory grows past its
//! bound; docs/robustness.md has the figures.

use crate::BACKENDS;
use crate::stage::{Stages, cargo};

/// Runs the command; true when the soak held on every backend.
pub(crate) fn run(args: &[String]) -> bool {
    if !args.is_empty() {
        eprintln!("usage: cargo xtask soak");
        return false;
    }
    let mut stages = Stages::new("cargo xtask soak");
    if !stages.run(
        "software adapters (lavapipe, llvmpipe)",
        crate::setup::ensure_adapters,
    ) {
        return stages.finish();
    }
    let soak = [
        "run",
        "--release",
        "-q",
        "-p",
        "shoal-bench",
        "--bin",
        "soak",
    ];
    for backend in BACKENDS {
        stages.run(&format!("soak on {backend}"), || {
            cargo(&soak, &[("SHOAL_BACKEND", backend)])
        });
    }
    stages.finish()
}
