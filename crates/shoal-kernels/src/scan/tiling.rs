//! [`Tiling`]: how the coarsened scan and reduce kernels cut their input into tiles, planned per
//! adapter (work-group size, elements per invocation, one-subgroup work groups).

use shoal::{DeviceProfile, Error, Gpu, Result};

use super::PER;
use crate::value::{Shape, Value};

/// The most elements an invocation takes: up to 64 held in registers (the scan's `own` block
/// unrolled), more read twice by loops (the block rolled; see [`ROLLED_PER`]).
pub const MAX_COARSENING: u32 = 2048;

/// Elements per invocation of the rolled tiles (the scan's `own` block in loops, no registers
/// held) that software adapters take: SwiftShader (the browser's) and llvmpipe's GL in
/// shared-memory work groups of [`SOFTWARE_WORKGROUP`], lavapipe in one-subgroup work groups.
/// SwiftShader runs every four invocations of a kernel with barriers as a coroutine and pays a
/// fixed cost for each, so the time falls as each invocation takes more elements, whatever the
/// work-group size; lavapipe and llvmpipe's GL pay less per tile too. Larger still, a 2^16 input
/// would be too few tiles to keep the CPU's threads busy, and SwiftShader's reduce-by-key slows
/// (docs/bench/README.md; the figures: docs/bench/*.md).
pub const ROLLED_PER: u32 = 2048;

/// How the coarsened scan and reduce kernels (and the radix sort) cut their input into tiles,
/// one per work group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tiling {
    /// Elements each invocation loads, holds and stores (1 to [`MAX_COARSENING`]; in registers
    /// up to 64).
    pub per_invocation: u32,
    /// Work groups of exactly one subgroup, which share values with subgroup operations and
    /// never wait at a barrier (needs [`Gpu::subgroup_size`]); otherwise work groups sharing
    /// values through shared memory, of [`workgroup`](Self::workgroup) invocations.
    pub one_subgroup: bool,
    /// Invocations per work group of shared-memory tiles: a power of two within the device's
    /// limit, or `None` for up to 256 (as many as the device allows). Unused with
    /// [`one_subgroup`](Self::one_subgroup).
    pub workgroup: Option<u32>,
}

/// Elements per invocation of values that are not scalars (vectors, structs) held in registers
/// in the browser, where SwiftShader compiles the unrolled `own` block (which grows with the
/// value) slowly: nearly all of a test's time went into compiling at 64 (SwiftShader itself
/// holds [`ROLLED_PER`] in memory, in loops). Natively such values take as many as scalars,
/// which is faster there.
pub const VALUE_PER: u32 = 16;

/// Work-group size of the shared-memory tiles on a software adapter without subgroups
/// (llvmpipe, SwiftShader): one SIMD row of llvmpipe's 256-bit vectors. Such an adapter runs a
/// work group's invocations a SIMD row at a time and switches rows at every barrier, so a
/// barrier costs about one switch per row, and the fewer rows a work group holds the less its
/// barriers cost (docs/bench/gl-llvmpipe.md).
pub const SOFTWARE_WORKGROUP: u32 = 8;

/// Whether `gpu` is a software adapter (lavapipe, llvmpipe, SwiftShader): a CPU running
/// invocations a SIMD row at a time, where barriers and work-group switches are what costs.
pub(crate) fn is_software(gpu: &Gpu) -> bool {
    gpu.adapter_details().device_type == shoal::wgpu::DeviceType::Cpu
}

impl Tiling {
    /// What Shoal picks for `gpu`: [`plan`](Self::plan) of its [`DeviceProfile`].
    pub fn for_gpu(gpu: &Gpu) -> Self {
        Self::plan(&gpu.into())
    }

    /// What Shoal picks for a device described by `profile` (no device needed):
    /// - one-subgroup work groups where the subgroup size is fixed (on lavapipe a barrier costs
    ///   more than the loads around it): [`ROLLED_PER`] elements per invocation on a software
    ///   adapter (lavapipe), 32 on a GPU;
    /// - on other software adapters (llvmpipe's GL, SwiftShader in the browser), work groups of
    ///   [`SOFTWARE_WORKGROUP`] invocations of [`ROLLED_PER`] elements each;
    /// - elsewhere (GPUs without fixed subgroups) 16 elements per invocation in work groups of
    ///   up to 256.
    pub fn plan(profile: &DeviceProfile) -> Self {
        let one_subgroup = profile
            .subgroup_size()
            .filter(|&s| s <= profile.max_workgroup_1d(1024));
        match one_subgroup {
            Some(s) if s >= 4 => Self {
                per_invocation: if profile.is_software() {
                    ROLLED_PER
                } else {
                    32
                },
                one_subgroup: true,
                workgroup: None,
            },
            _ if profile.is_software() => Self {
                per_invocation: ROLLED_PER,
                one_subgroup: false,
                workgroup: Some(SOFTWARE_WORKGROUP),
            },
            _ => Self {
                per_invocation: PER,
                one_subgroup: false,
                workgroup: None,
            },
        }
    }

    /// [`for_gpu`](Self::for_gpu) for values of type `T`: [`plan_value`](Self::plan_value) of
    /// `gpu`'s [`DeviceProfile`].
    pub fn for_value<T: Value>(gpu: &Gpu) -> Self {
        Self::plan_value::<T>(&gpu.into())
    }

    /// [`plan`](Self::plan) for values of type `T`: a struct cannot move through
    /// subgroup shuffles, so where `for_gpu` plans one-subgroup tiles it gets shared-memory
    /// tiles instead (of [`SOFTWARE_WORKGROUP`] invocations on a software adapter); and a value
    /// that is not a scalar keeps at most [`VALUE_PER`] elements per invocation on wasm32 where
    /// they would be held in registers (unrolled; up to 64).
    pub fn plan_value<T: Value>(profile: &DeviceProfile) -> Self {
        let mut tiling = Self::plan(profile);
        if T::SHAPE == Shape::Struct && tiling.one_subgroup {
            tiling = Self {
                per_invocation: PER,
                one_subgroup: false,
                workgroup: profile.is_software().then_some(SOFTWARE_WORKGROUP),
            };
        }
        if T::SHAPE != Shape::Scalar
            && cfg!(target_arch = "wasm32")
            && tiling.per_invocation <= super::blocks::UNROLLED
        {
            tiling.per_invocation = tiling.per_invocation.min(VALUE_PER);
        }
        tiling
    }

    /// The shared-memory work-group size: [`workgroup`](Self::workgroup) checked against the
    /// device (a typed error naming `source`'s kernels), or the largest power of two up to `cap`
    /// the device allows.
    pub(crate) fn shared_workgroup(
        &self,
        gpu: &Gpu,
        source: &shoal::Source,
        cap: u32,
    ) -> Result<u32> {
        let Some(wg) = self.workgroup else {
            return Ok(crate::wgsl::plan_workgroup(gpu, cap));
        };
        let max = gpu.max_workgroup_1d(u32::MAX);
        if !wg.is_power_of_two() || wg > max {
            return Err(Error::Override {
                kernel: source.path().to_string(),
                message: format!(
                    "the work-group size must be a power of two up to {max} on this device, not {wg}"
                ),
            });
        }
        Ok(wg)
    }

    /// The work-group size of one-subgroup tiles: the device's fixed subgroup size, where it has
    /// one and may run a work group that large.
    fn one_subgroup_size(gpu: &Gpu) -> Option<u32> {
        gpu.subgroup_size()
            .filter(|&s| s <= gpu.max_workgroup_1d(1024))
    }

    /// [`one_subgroup_size`](Self::one_subgroup_size), or the typed error of `source`'s kernels
    /// asking for one-subgroup tiles on a device without them.
    pub(crate) fn one_subgroup_workgroup(gpu: &Gpu, source: &shoal::Source) -> Result<u32> {
        Self::one_subgroup_size(gpu).ok_or_else(|| Error::MissingFeature {
            kernel: source.path().to_string(),
            feature: "SUBGROUP with one fixed subgroup size (for one-subgroup tiles)".into(),
            adapter: gpu.adapter_details().to_string(),
            location: None,
            remedy: "choose tiles of a work group on this device".into(),
        })
    }

    /// The same tiling with `per` elements per invocation.
    pub fn with_per_invocation(mut self, per: u32) -> Self {
        self.per_invocation = per;
        self
    }
}
