//! Conformance of Shoal to the compute-shader model: the specification's built-in variables,
//! shared memory and barriers, dispatch (direct, indirect, folded), and the documents' first
//! programs, each read back and compared with a CPU reference; plus every error case.
//!
//! The programs are public so `cargo xtask run` can show them; the tests call the same code.

// The pages' examples: doctests, and a test that every page has its item.
#[cfg(any(doctest, test))]
pub mod doc_pages;
pub mod programs;
#[cfg(not(target_arch = "wasm32"))]
pub mod property;
pub mod rng;

/// A kernel copying `src` into `dst` element by element, bound by the tests of errors,
/// ownership, aliasing and the model.
#[cfg(test)]
const COPY: &str = "
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@compute @workgroup_size(64)
fn copy(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&dst) { dst[id.x] = src[id.x]; }
}";

#[cfg(test)]
mod aliasing;
#[cfg(test)]
mod append_binding;
#[cfg(test)]
mod atomics;
#[cfg(test)]
mod errors;
#[cfg(test)]
mod fields;
pub mod harness;
#[cfg(test)]
mod images;
#[cfg(test)]
mod immediates;
#[cfg(test)]
mod memory;
#[cfg(test)]
mod model;
#[cfg(test)]
mod ownership;
#[cfg(test)]
mod profiling;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties;
#[cfg(test)]
mod render;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod retention;
#[cfg(test)]
mod robustness;
#[cfg(test)]
mod runtime;
#[cfg(test)]
mod slices;
#[cfg(test)]
mod transfers;

// This crate's suite needs WebGPU: in wasm32 it runs in a browser, not in Node.
#[cfg(all(test, target_arch = "wasm32"))]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);
