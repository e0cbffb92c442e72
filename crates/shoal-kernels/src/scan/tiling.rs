//! [`Tiling`]: how the coarsened scan and reduce kernels cut their input into tiles, planned per
//! adapter (work-group size, elements per invocation, one-subgroup work groups).

use shoal::{Error, Gpu, Result};

use super::PER;

/// The most elements an invocation holds in registers.
pub const MAX_COARSENING: u32 = 64;

/// How the coarsened scan and reduce kernels cut their input into tiles, one per work group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tiling {
    /// Elements each invocation loads, holds in registers and stores (1 to [`MAX_COARSENING`]).
    pub per_invocation: u32,
    /// Work groups of exactly one subgroup, which share values with subgroup operations and
    /// never wait at a barrier (needs [`Gpu::subgroup_size`]); otherwise work groups of up to 256
    /// invocations, sharing values through shared memory.
    pub one_subgroup: bool,
}

impl Tiling {
    /// What Shoal picks for `gpu`: one-subgroup work groups of 32 elements per invocation where
    /// the subgroup size is fixed (on lavapipe a barrier costs more than the loads around it),
    /// else 16 elements per invocation in work groups of up to 256.
    pub fn for_gpu(gpu: &Gpu) -> Self {
        match Self::one_subgroup_size(gpu) {
            Some(s) if s >= 4 => Self {
                per_invocation: 32,
                one_subgroup: true,
            },
            _ => Self {
                per_invocation: PER,
                one_subgroup: false,
            },
        }
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
        })
    }

    /// The same tiling with `per` elements per invocation.
    pub fn with_per_invocation(mut self, per: u32) -> Self {
        self.per_invocation = per;
        self
    }
}
