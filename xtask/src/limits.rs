//! How long each stage of `cargo xtask test` may take before its processes are killed and it
//! fails, naming the stage and the limit ([`crate::stage::Stages::run_within`]). Each is at least
//! three times what the stage took in a whole run on a two-core machine (the figures in
//! parentheses, from `cargo xtask test`'s own summary), and none is so long that a hang in one
//! stage would outlast CI's 90 minutes (the whole run takes about 21).
//!
//! The browser suites also have the runner's own limit per test binary
//! (`WASM_BINDGEN_TEST_TIMEOUT`, `web.rs`), and each web page its own (`pages.rs`).

use std::time::Duration;

use crate::stage::minutes;

/// Installing what is missing: apt-get (Mesa, shaderc, Chromium), rustup targets, and
/// `cargo install wasm-bindgen-cli` (a few minutes on a fresh machine; seconds once there).
pub(crate) const INSTALL: Duration = minutes(30);
/// The test suites' native build from a cold target (5 min).
pub(crate) const BUILD: Duration = minutes(45);
/// The whole native suite on one backend (Vulkan 2.9 min, GL 1.6 min).
pub(crate) const NATIVE_TESTS: Duration = minutes(20);
/// A short step after the build: an adapter's report, `check-wgsl`, the crate outside the
/// workspace, the examples (each under 40 s).
pub(crate) const SHORT: Duration = minutes(10);
/// `cargo package` of the published crates, each verified by a build (1.7 min).
pub(crate) const PACKAGE: Duration = minutes(20);
/// The browser suites' wasm32 build (2.2 min).
pub(crate) const WASM_BUILD: Duration = minutes(30);
/// The three browser suites in headless Chromium (5.3 min, nearly all of it the kernels').
pub(crate) const BROWSER_TESTS: Duration = minutes(30);
/// The web site's dev build (21 s after the suites' build).
pub(crate) const SITE: Duration = minutes(20);
/// The web pages checked through WebDriver (14 s).
pub(crate) const PAGES: Duration = minutes(15);
/// `cargo check` for another target, its rustup target added when missing (35 s).
pub(crate) const OTHER_TARGET: Duration = minutes(20);
/// The MPI example under `mpirun`, one run of 2 or 4 ranks on lavapipe or llvmpipe (0.5 and 1.0 min, each
/// run alone on a two-core machine shared with other builds).
pub(crate) const MPI: Duration = minutes(10);
