//! What the kernel families share on the Rust side: the scalar types and built-in operations their WGSL
//! is specialised for (through Shoal's `#block` substitution), the snippets they import, work-group planning, and the
//! small uniform buffers of per-dispatch parameters.

use std::collections::HashMap;
use std::sync::Mutex;

use shoal::glam::UVec4;
use shoal::{Buffer, Error, Gpu, Result, Source, Usage};

use crate::scan;
use crate::value::Value;

/// A scalar the scan, reduce and compaction kernels are specialised for, with the built-in
/// operations' CPU forms: `u32`, `i32` or `f32`.
///
/// Another type is a compile error naming it in one line:
///
/// ```compile_fail
/// # fn f(gpu: &shoal::Gpu) -> Result<(), shoal::Error> {
/// let seg = shoal_kernels::Segmented::<f64>::new(gpu)?; // `f64` is not a `Scalar`
/// # Ok(()) }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a Shoal `Scalar`: the kernels are specialised for u32, i32 and f32",
    label = "not a `Scalar`",
    note = "convert to f32 or u32; a scan or reduction of vectors or structs takes a `Value`"
)]
pub trait Scalar: Value + PartialEq + sealed::Sealed {
    /// The additive identity.
    const ZERO: Self;
    /// The identity of `min` (the largest value; +infinity for `f32`).
    const MIN_IDENTITY: Self;
    /// The identity of `max` (the smallest value; -infinity for `f32`).
    const MAX_IDENTITY: Self;
    /// `a + b` as the GPU computes it (wrapping for integers).
    fn add(a: Self, b: Self) -> Self;
    /// The smaller of two values.
    fn min(a: Self, b: Self) -> Self;
    /// The larger of two values.
    fn max(a: Self, b: Self) -> Self;
    /// Its 32 bits, as a kernel reading it through a `u32` binding sees them.
    fn bits(self) -> u32;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for u32 {}
    impl Sealed for i32 {}
    impl Sealed for f32 {}
}

impl Scalar for u32 {
    const ZERO: Self = 0;
    const MIN_IDENTITY: Self = u32::MAX;
    const MAX_IDENTITY: Self = 0;
    fn add(a: Self, b: Self) -> Self {
        a.wrapping_add(b)
    }
    fn min(a: Self, b: Self) -> Self {
        Ord::min(a, b)
    }
    fn max(a: Self, b: Self) -> Self {
        Ord::max(a, b)
    }
    fn bits(self) -> u32 {
        self
    }
}

impl Scalar for i32 {
    const ZERO: Self = 0;
    const MIN_IDENTITY: Self = i32::MAX;
    const MAX_IDENTITY: Self = i32::MIN;
    fn add(a: Self, b: Self) -> Self {
        a.wrapping_add(b)
    }
    fn min(a: Self, b: Self) -> Self {
        Ord::min(a, b)
    }
    fn max(a: Self, b: Self) -> Self {
        Ord::max(a, b)
    }
    fn bits(self) -> u32 {
        self as u32
    }
}

impl Scalar for f32 {
    const ZERO: Self = 0.0;
    const MIN_IDENTITY: Self = f32::INFINITY;
    const MAX_IDENTITY: Self = f32::NEG_INFINITY;
    fn add(a: Self, b: Self) -> Self {
        a + b
    }
    fn min(a: Self, b: Self) -> Self {
        a.min(b)
    }
    fn max(a: Self, b: Self) -> Self {
        a.max(b)
    }
    fn bits(self) -> u32 {
        self.to_bits()
    }
}

/// The built-in associative operations of a scan or reduction (commutative ones; for any other,
/// write an [`Operator`](crate::Operator)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Op {
    /// Sum (wrapping for integers).
    #[default]
    Sum,
    /// Minimum.
    Min,
    /// Maximum.
    Max,
}

impl Op {
    /// The identity of the operation for `T`.
    pub fn identity<T: Scalar>(self) -> T {
        match self {
            Op::Sum => T::ZERO,
            Op::Min => T::MIN_IDENTITY,
            Op::Max => T::MAX_IDENTITY,
        }
    }

    /// `a ∘ b` on the CPU, as the kernels compute it.
    pub fn apply<T: Scalar>(self, a: T, b: T) -> T {
        match self {
            Op::Sum => T::add(a, b),
            Op::Min => T::min(a, b),
            Op::Max => T::max(a, b),
        }
    }
}

/// The kernels crate's WGSL files that are not kernels on their own, by name: the snippets its
/// WGSL imports (`#import name`), and the texts that replace its files' `#block` regions, each
/// one file under `wgsl/` (`scan::*` for `scan.wgsl`'s, `histogram::*`, the `io` blocks of
/// compaction and of the segmented family). Every family's sources carry them
/// ([`with_snippets`]); `cargo xtask check-wgsl` adds them too, to validate `wgsl/*.wgsl` without
/// a device. Each relies on its importer's definitions (`scan::document` needs `T`, `combine`,
/// `WG` and `shared_data`; `radix_sort::each_own` and `radix_sort::scatter`, templates
/// instantiated per kind of key and store, need `radix_sort_lanes.wgsl`'s, and `splat::entry`
/// its file's `splat_add`; the others are blocks of `scan.wgsl` or `histogram.wgsl`), so it is
/// validated where it is used, not on its own.
pub const SNIPPETS: &[(&str, Source)] = &[
    ("scan::document", shoal::wgsl!("../wgsl/scan_document.wgsl")),
    ("scan::group_one_subgroup", scan::blocks::ONE_SUBGROUP_GROUP),
    (
        "scan::group_reduce_one_subgroup",
        scan::blocks::ONE_SUBGROUP_REDUCE,
    ),
    (
        "scan::group_reduce_shared",
        scan::blocks::GROUP_REDUCE_PORTABLE,
    ),
    ("scan::lane_portable", scan::blocks::LANE_PORTABLE),
    ("scan::wide_narrow", scan::blocks::NARROW),
    ("scan::fold_ordered", scan::blocks::ORDERED_FOLD),
    ("histogram::lane_bins", crate::histogram::LANE_BINS),
    ("histogram::private_bins", crate::histogram::PRIVATE_BINS),
    ("histogram::lane_total", crate::histogram::LANE_TOTAL),
    (
        "radix_sort::common",
        shoal::wgsl!("../wgsl/radix_sort_common.wgsl"),
    ),
    (
        "radix_sort::each_own",
        shoal::wgsl!("../wgsl/radix_sort_each_own.wgsl"),
    ),
    (
        "radix_sort::scatter",
        shoal::wgsl!("../wgsl/radix_sort_scatter.wgsl"),
    ),
    (
        "radix_sort::key_map",
        shoal::wgsl!("../wgsl/sort_key_map.wgsl"),
    ),
    ("splat::common", crate::splat::COMMON),
    ("splat::entry", crate::splat::ENTRY),
    ("segmented::io", shoal::wgsl!("../wgsl/segmented.wgsl")),
    ("segmented::scan_io", crate::segmented::SCAN_IO),
    ("segmented::runs_io", crate::segmented::RUNS_IO),
    ("compact::io", shoal::wgsl!("../wgsl/compact.wgsl")),
    ("compact::flags", crate::compact::KEEP_FLAGS),
    ("compact::predicate", crate::compact::KEEP_PREDICATE),
    ("run_ends::io", shoal::wgsl!("../wgsl/run_ends.wgsl")),
    ("dispatch::args", shoal::wgsl!("../wgsl/dispatch_args.wgsl")),
];

/// `source` with every snippet of [`SNIPPETS`] available to its `#import` lines: the one way the
/// kernels crate (and `check-wgsl`) composes its WGSL, through Shoal's preprocessor.
pub fn with_snippets(source: Source) -> Source {
    SNIPPETS.iter().fold(source, |s, (name, snippet)| {
        s.snippet(name, snippet.clone())
    })
}

/// A kernel builder for `source` with every snippet of [`SNIPPETS`] available.
pub(crate) fn builder(gpu: &Gpu, source: Source) -> shoal::KernelBuilder {
    gpu.kernel_builder(with_snippets(source))
}

/// The largest power of two no greater than the device's 1D work-group limit and `cap`.
pub(crate) fn plan_workgroup(gpu: &Gpu, cap: u32) -> u32 {
    floor_power_of_two(gpu.max_workgroup_1d(cap))
}

/// The largest power of two no greater than `n` (1 for 0).
pub(crate) fn floor_power_of_two(n: u32) -> u32 {
    1 << (31 - n.max(1).leading_zeros())
}

/// Small uniform buffers of four `u32` parameters, one per distinct value, kept so that repeated
/// runs reuse them (and their cached bind groups) and several runs can sit in one batch.
#[derive(Debug, Default)]
pub(crate) struct Uniforms {
    cache: Mutex<HashMap<[u32; 4], Buffer<UVec4>>>,
}

/// Distinct parameter sets kept before the cache starts again.
const UNIFORMS_KEPT: usize = 256;

impl Uniforms {
    /// The uniform buffer holding `value`.
    pub(crate) fn get(&self, gpu: &Gpu, value: [u32; 4]) -> Result<Buffer<UVec4>> {
        let mut cache = self.cache.lock().map_err(|_| poisoned())?;
        if let Some(b) = cache.get(&value) {
            return Ok(b.clone());
        }
        if cache.len() >= UNIFORMS_KEPT {
            cache.clear();
        }
        let b = gpu.uniform(&UVec4::from_array(value))?;
        cache.insert(value, b.clone());
        Ok(b)
    }
}

/// Fails with [`Error::InvalidParameter`] when a scratch buffer of `len` words, which a kernel
/// binds whole, would be larger than one binding (or one buffer) may be on this device: a
/// primitive's scratch grows with its input over the elements each work group takes, so a tiling
/// of few elements per work group reaches the limit before the caller's own buffers do. The
/// error names the scratch and says so, rather than blaming the input's size.
pub(crate) fn check_scratch(gpu: &Gpu, name: &str, len: u64) -> Result<()> {
    let limits = gpu.limits();
    let limit = limits
        .max_storage_buffer_binding_size
        .min(limits.max_buffer_size);
    let bytes = len.saturating_mul(4);
    if bytes > limit {
        return Err(Error::InvalidParameter {
            kernel: "shoal-kernels".into(),
            parameter: format!("the scratch buffer `{name}`"),
            value: format!("{len} words ({bytes} bytes)"),
            rule: format!(
                "at most {limit} bytes on this device (max_storage_buffer_binding_size, \
                 max_buffer_size): it grows with the input over the elements each work group \
                 takes, so use a tiling of more elements per invocation or work group (the \
                 default's), or fewer elements per call"
            ),
        });
    }
    Ok(())
}

/// A lock was poisoned by a panic in another thread.
pub(crate) fn poisoned() -> Error {
    Error::Wgpu {
        context: "shoal-kernels".into(),
        message: "a lock was poisoned by a panic on another thread".into(),
    }
}

/// Elements as a `u32` count the kernels index with, or a [`Error::Length`] that says why not.
pub(crate) fn count_u32(what: &str, n: u64) -> Result<u32> {
    u32::try_from(n).map_err(|_| Error::Length {
        what: format!("{what}: kernels index with u32"),
        expected: u32::MAX as u64,
        got: n,
    })
}

/// Checks that `got` elements are at least `needed`.
pub(crate) fn at_least(what: &str, needed: u64, got: u64) -> Result<()> {
    if got < needed {
        return Err(Error::Length {
            what: what.to_string(),
            expected: needed,
            got,
        });
    }
    Ok(())
}

/// Scratch buffers of exact lengths (the scans take their length from the buffer), kept by name
/// and length so repeated runs of one size allocate nothing.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    kept: Mutex<HashMap<(&'static str, u64), Buffer<u32>>>,
}

/// Scratch buffers kept before the cache starts again.
const SCRATCH_KEPT: usize = 32;

impl Scratch {
    /// The `u32` buffer called `name` of exactly `len` elements.
    pub(crate) fn get(&self, gpu: &Gpu, name: &'static str, len: u64) -> Result<Buffer<u32>> {
        self.get_with(gpu, name, len, Usage::STORAGE)
    }

    /// The `u32` buffer called `name` of exactly `len` elements that a kernel writes and indirect
    /// dispatches take their work groups from (`Usage::INDIRECT` too).
    pub(crate) fn indirect(&self, gpu: &Gpu, name: &'static str, len: u64) -> Result<Buffer<u32>> {
        self.get_with(gpu, name, len, Usage::STORAGE | Usage::INDIRECT)
    }

    /// The buffer called `name` (a name is one usage's) of `len` elements.
    fn get_with(
        &self,
        gpu: &Gpu,
        name: &'static str,
        len: u64,
        usage: Usage,
    ) -> Result<Buffer<u32>> {
        let mut kept = self.kept.lock().map_err(|_| poisoned())?;
        if let Some(b) = kept.get(&(name, len)) {
            return Ok(b.clone());
        }
        if kept.len() >= SCRATCH_KEPT {
            kept.clear();
        }
        check_scratch(gpu, name, len)?;
        let b = gpu.buffer_zeroed_with::<u32>(len, usage)?;
        kept.insert((name, len), b.clone());
        Ok(b)
    }

    /// `buffer` seen as vec4s, for a kernel that reads it four elements at a time, or a
    /// one-vec4 stand-in where it is shorter than one (the kernel then reads none of it, but the
    /// binding must exist).
    pub(crate) fn vec4s(&self, gpu: &Gpu, buffer: &Buffer<u32>) -> Result<Buffer<UVec4>> {
        match buffer.view_as::<UVec4>() {
            v if v.is_empty() => Ok(self.get(gpu, "no vec4s", 4)?.view_as()),
            v => Ok(v),
        }
    }
}
