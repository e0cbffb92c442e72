//! Kernels on Shoal: the algorithms of the compute-shader documents and more.
//!
//! A kernel family is a WGSL file under `wgsl/`, a Rust type here that compiles its pipelines once
//! and keeps its scratch buffers (`Family::new(&gpu)`, then many runs, each recordable into a
//! [`shoal::Commands`] batch), a CPU twin written to be read beside the WGSL, tests that compare
//! the two over many sizes, a benchmark entry and a section in `docs/`.
//!
//! The parallel primitives (see `docs/primitives.md`): [`WorkgroupScan`] (the document's 000
//! prefix sum), [`Scan`] of any length with two strategies, [`Reduce`], [`Compact`] (stream
//! compaction whose count feeds the next dispatch on the GPU), [`Histogram`], [`RadixSort`] and
//! [`Matmul`]. Each has a CPU twin (`*_cpu`) the tests compare with.

pub mod checks;
mod compact;
mod histogram;
mod matmul;
mod radix_sort;
mod reduce;
mod scan;
mod wgsl;

pub use compact::{Compact, CompactCount, Keep, Predicate, compact_cpu};
pub use histogram::{Histogram, histogram_cpu};
pub use matmul::{Matmul, MatmulKernel, matmul_cpu};
pub use radix_sort::{RadixSort, sort_pairs_cpu};

pub use reduce::{Reduce, reduce_cpu};
pub use scan::{Scan, ScanSpec, Strategy, WorkgroupScan, scan_cpu, workgroup_scan_cpu};
pub use wgsl::{Op, Scalar};
