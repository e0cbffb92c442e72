//! Shoal's primitive benchmarks, shared by the native binary (`cargo xtask bench`) and the web
//! site's bench page (`cargo xtask bench --browser`): the same entries, the same verification
//! against the CPU twins, the same table, JSON and plot. The harness is async; natively
//! pollster blocks on it, in the browser the page awaits it.

pub mod copy;
pub mod harness;
pub mod plot;
pub mod primitives;
pub mod report;
#[cfg(target_arch = "wasm32")]
pub mod web;
