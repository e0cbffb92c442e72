//! Kernels on Shoal: the algorithms of the compute-shader documents and more.
//!
//! A kernel family is a WGSL file under `wgsl/`, a Rust type here that compiles its pipelines once
//! and keeps its scratch buffers (`Family::new(&gpu)`, then many runs, each recordable into a
//! [`shoal::Commands`] batch), a CPU twin written to be read beside the WGSL, tests that compare
//! the two over many sizes, a benchmark entry and a section in `docs/`.

pub mod boids;
pub mod blur;
pub mod test_image;
pub mod bilateral;
pub mod sobel;
pub mod waves;
