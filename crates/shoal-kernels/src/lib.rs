//! Kernels on Shoal: the algorithms of the compute-shader documents and more.
//!
//! A kernel family is a WGSL file under `wgsl/`, a Rust type here that compiles its pipelines once
//! and keeps its scratch buffers (`new(&gpu)` or `new(&gpu, params)`, then many runs), a CPU twin
//! written to be read beside the WGSL, tests that compare the two over many sizes, a benchmark
//! entry and a section in `docs/`. Every family implements [`Family`] and, once per operation,
//! [`Record`] on that operation's argument struct: `record` adds the operation to a
//! [`shoal::Commands`] batch, `run` submits it alone.
//!
//! ```
//! # fn main() -> Result<(), shoal::Error> {
//! use shoal_kernels::{Invert, InvertArgs, Record};
//! # let gpu = shoal::Gpu::blocking()?;
//! # let format = shoal::wgpu::TextureFormat::Rgba32Float;
//! # let (input, output) = (gpu.image_zeroed(4, 4, format)?, gpu.image_zeroed(4, 4, format)?);
//! let invert = Invert::new(&gpu)?;
//! invert.run(InvertArgs { input: &input, output: &output })?;
//! # Ok(()) }
//! ```
//!
//! **Paths**: every family, its `…Params` and its `…Args` are at the crate root
//! (`shoal_kernels::GaussianBlur`, `shoal_kernels::BlurArgs`), beside [`Family`] and [`Record`],
//! so one `use shoal_kernels::{…}` line names all a caller needs. A family's module (`blur`,
//! `boids`, …) stays public for its secondary items: constants, CPU twins, variants, the
//! per-step uniforms.
//!
//! The image kernels: [`Invert`], [`Grid`], [`TextureAdd`], [`RayTracer`]; through append and
//! consume buffers, [`VectorLengths`]. The filters: [`GaussianBlur`], [`Bilateral`], [`Sobel`],
//! [`Cartoon`]. The simulations: [`Boids`], [`Waves`], [`Particles`]. [`showcase::ALL`], the one
//! registry, runs each family against its CPU twin.
//!
//! The parallel primitives (see `docs/primitives.md` and `docs/sorting.md`): [`WorkgroupScan`] (the OpenGL compute-shader lesson's
//! prefix sum), [`Scan`] of any length with two strategies, [`Reduce`], [`Compact`] (stream
//! compaction whose count feeds the next dispatch on the GPU), [`Histogram`], [`RadixSort`] (keys of
//! any [`SortKey`] type, pairs, argsort) and [`Matmul`]. Each has a CPU twin (`*_cpu`) the tests compare with.

mod buffers;
mod checks;
mod compact;
mod compiled;
mod histogram;
mod matmul;
mod operator;
mod prepare;
mod prepare_more;
mod radix_sort;
mod reduce;
mod scan;
mod segmented;
mod value;
mod wgsl;

pub use compact::{
    Compact, CompactArgs, CompactCount, Keep, Partition, PartitionArgs, Predicate, compact_cpu,
};
pub use histogram::{Histogram, HistogramArgs, histogram_cpu};
pub use matmul::{Matmul, MatmulArgs, MatmulKernel, MatmulTiling, matmul_cpu};
pub use radix_sort::{
    ArgsortArgs, I64, KeyFunction, RadixSort, SortArgs, SortByArgs, SortCounters, SortKey,
    SortOrder, SortPairsArgs, SortParams, SortTiling, U64, argsort_bits_cpu, argsort_cpu, sort_cpu,
    sort_pairs_cpu,
};

pub use operator::{Operation, Operator};
pub use reduce::{Reduce, ReduceArgs, reduce_cpu};
pub use scan::{
    MAX_COARSENING, ROLLED_PER, SOFTWARE_WORKGROUP, Scan, ScanArgs, ScanSpec, Strategy, Tiling,
    VALUE_PER, WorkgroupScan, WorkgroupScanArgs, scan_by, scan_cpu, workgroup_scan_cpu,
};
pub use segmented::{
    ReduceByKeyArgs, RunLengthsArgs, Segmented, SegmentedScanArgs, reduce_by_key_cpu,
    segmented_scan_cpu,
};
/// The kernel-family contract every family here implements: [`Family`] (its device and
/// compiled kernels) and [`Record`] (one operation on its argument struct, with `run`).
pub use shoal::{Family, Record};
pub use value::{Shape, Value};
pub use wgsl::{Op, SNIPPETS, Scalar, with_snippets};

pub mod grid;
pub mod invert;
pub mod raytrace;
pub mod showcase;
pub mod splat;
pub mod texture_add;
pub mod variants;
pub mod vector_lengths;

pub mod bilateral;
pub mod blur;
pub mod boids;
pub mod sobel;
pub mod test_image;
pub mod waves;

pub use bilateral::{Bilateral, BilateralArgs, BilateralParams};
pub use blur::{BlurArgs, BlurParams, GaussianBlur};
pub use boids::{Boids, BoidsStepArgs};
pub use grid::{Grid, GridArgs};
pub use invert::{Invert, InvertArgs};
pub use particles::{ParticleSettings, Particles, ParticlesParams, ParticlesStep};
pub use raytrace::{RayTraceArgs, RayTraceSceneArgs, RayTracer, Scene, Sphere};
pub use sobel::{Cartoon, CartoonArgs, CartoonParams, MultiplyArgs, Sobel, SobelArgs};
pub use splat::{
    Splat, SplatFrameArgs, SplatGeometryArgs, SplatProjectionArgs, SplatRasterArgs, SplatTarget,
};
pub use texture_add::{TextureAdd, TextureAddArgs};
pub use vector_lengths::{VectorLengths, VectorLengthsArgs};
pub use waves::{WaveParams, Waves, WavesDisturbArgs, WavesStep};

use shoal::{Error, Gpu, Image, Result};

/// The 2D work group for per-pixel kernels: square, a power of two, at most `cap` per side, and
/// within the device's limits (32 x 32 on lavapipe and llvmpipe for `cap` 32, 16 x 16 in the
/// browser's 256 invocations).
pub fn plan_2d(gpu: &Gpu, cap: u32) -> u32 {
    plan_2d_for(gpu.limits(), cap)
}

/// [`plan_2d`] for a device of limits `l` (a [`DeviceProfile`](shoal::DeviceProfile)'s; no
/// device needed).
pub fn plan_2d_for(l: &shoal::Limits, cap: u32) -> u32 {
    let mut side = cap.next_power_of_two();
    while side > 1
        && (side * side > l.max_compute_work_group_invocations
            || side > l.max_compute_work_group_size[0]
            || side > l.max_compute_work_group_size[1])
    {
        side /= 2;
    }
    side
}

/// Fails unless `b` has the size of `a` (per-pixel kernels read and write the same texel).
pub(crate) fn same_size(kernel: &str, a: &Image, b: &Image) -> Result<()> {
    if a.size() == b.size() {
        return Ok(());
    }
    Err(Error::Length {
        what: format!(
            "{kernel}: images of {}x{} and {}x{} (they must be the same size)",
            a.width(),
            a.height(),
            b.width(),
            b.height()
        ),
        expected: a.texels() as u64,
        got: b.texels() as u64,
    })
}
pub mod particles;

// The contract test runs every registry entry: natively (the browser runs the registry on the
// web site's kernels page).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod contract;
#[cfg(test)]
mod family_tests;
#[cfg(test)]
mod folded_tests;
#[cfg(test)]
mod from_source_tests;
#[cfg(all(test, feature = "glsl", not(target_arch = "wasm32")))]
mod glsl_corpus;
#[cfg(all(test, feature = "glsl"))]
mod glsl_tests;
#[cfg(all(test, feature = "hlsl"))]
mod hlsl_tests;
#[cfg(test)]
mod labels_tests;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties_tests;
#[cfg(test)]
mod slice_tests;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod variants_tests;
