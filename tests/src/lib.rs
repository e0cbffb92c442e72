//! Conformance of Shoal to the compute-shader model: the specification's built-in variables,
//! shared memory and barriers, dispatch (direct, indirect, folded), and the documents' first
//! programs, each read back and compared with a CPU reference; plus every error case.
//!
//! The programs are public so `cargo xtask run` can show them; the tests call the same code.

pub mod programs;
pub mod rng;

#[cfg(test)]
mod atomics;
#[cfg(test)]
mod errors;
#[cfg(test)]
mod images;
#[cfg(not(target_arch = "wasm32"))]
pub mod harness;
#[cfg(test)]
mod model;
