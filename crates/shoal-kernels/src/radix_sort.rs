//! [`RadixSort`]: stable least-significant-digit radix sort of `u32` keys, alone or carrying
//! `u32` values, 4 bits per pass. Each pass counts digits per tile, scans the digit-major counts
//! with [`Scan`](crate::Scan), and scatters each tile's keys in input order. Where the device
//! runs subgroups of one fixed size, the tiles are work groups of one subgroup that count and
//! rank digits in registers with subgroup operations and never wait at a barrier; elsewhere they
//! are work groups of up to 256 invocations ranking through shared memory.

use shoal::{Buffer, Commands, Error, Gpu, Kernel, Result};

use crate::scan::{Scan, ScanSpec, Tiling};
use crate::wgsl::{self, Op, Scratch, Uniforms};

const SOURCE: shoal::Source = shoal::wgsl!("../wgsl/radix_sort.wgsl");
const SUBGROUP_SOURCE: shoal::Source = shoal::wgsl!("../wgsl/radix_sort_subgroup.wgsl");
/// Bits per pass, and the digits they make (`RADIX` in the WGSL).
const BITS: u32 = 4;
const RADIX: u32 = 1 << BITS;

/// Stable radix sort of `u32` keys (and key-value pairs), in place.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::RadixSort;
/// let gpu = shoal::Gpu::blocking()?;
/// let mut keys: Vec<u32> = (0..10_000u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
/// let buffer = gpu.buffer_from(&keys)?;
/// RadixSort::new(&gpu)?.run(&buffer)?;
/// keys.sort();
/// assert_eq!(buffer.read_blocking()?, keys);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct RadixSort {
    gpu: Gpu,
    wg: u32,
    per: u32,
    count: Kernel,
    scatter: Kernel,
    scan: Scan<u32>,
    uniforms: Uniforms,
    scratch: Scratch,
}

impl RadixSort {
    /// A sort for `gpu`, tiled as [`Tiling::for_gpu`] plans.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Self::with_tiling(gpu, Tiling::for_gpu(gpu))
    }

    /// A sort with `tiling` forced: one-subgroup work groups (a typed error where the device's
    /// subgroup size is not fixed), or work groups of up to 256 invocations, fewer where shared
    /// memory is short (each invocation keeps 16 digit counts in it).
    pub fn with_tiling(gpu: &Gpu, tiling: Tiling) -> Result<Self> {
        let per = tiling.per_invocation;
        if per == 0 {
            return Err(Error::Override {
                kernel: SOURCE.path().to_string(),
                message: "a tile needs at least one key per invocation".into(),
            });
        }
        let (wg, source, entries) = if tiling.one_subgroup {
            let wg = Tiling::one_subgroup_workgroup(gpu, &SUBGROUP_SOURCE)?;
            (
                wg,
                SUBGROUP_SOURCE,
                ["count_digits_subgroup", "scatter_subgroup"],
            )
        } else {
            let shared = gpu.limits().max_compute_shared_memory_size;
            // RADIX counts plus two scan slots per invocation, plus the 16 digit totals.
            let per_invocation = (RADIX + 2) * 4;
            let wg = tiling.shared_workgroup(
                gpu,
                &SOURCE,
                256.min((shared.saturating_sub(RADIX * 4) / per_invocation).max(1)),
            )?;
            (wg, SOURCE, ["count_digits", "scatter"])
        };
        let build = |entry| {
            wgsl::builder(gpu, source.clone())
                .entry(entry)
                .constant("WG", wg)
                .constant("PER", per)
                .build()
        };
        Ok(Self {
            gpu: gpu.clone(),
            wg,
            per,
            count: build(entries[0])?,
            scatter: build(entries[1])?,
            scan: Scan::new(gpu)?,
            uniforms: Uniforms::default(),
            scratch: Scratch::default(),
        })
    }

    /// Records sorting `keys` in place, ascending.
    pub fn record(&self, commands: &mut Commands, keys: &Buffer<u32>) -> Result<()> {
        self.record_impl(commands, keys, None)
    }

    /// Records sorting `keys` in place, ascending, moving `values` with them; equal keys keep
    /// their order (stable).
    pub fn record_pairs(
        &self,
        commands: &mut Commands,
        keys: &Buffer<u32>,
        values: &Buffer<u32>,
    ) -> Result<()> {
        if values.len() != keys.len() {
            return Err(Error::Length {
                what: "radix sort: values (one per key)".into(),
                expected: keys.len(),
                got: values.len(),
            });
        }
        if values.raw() == keys.raw() {
            return Err(Error::BindingKind {
                kernel: "radix sort".into(),
                binding: "values".into(),
                expected: "a buffer other than the keys".into(),
                got: "the keys buffer itself".into(),
            });
        }
        self.record_impl(commands, keys, Some(values))
    }

    fn record_impl(
        &self,
        commands: &mut Commands,
        keys: &Buffer<u32>,
        values: Option<&Buffer<u32>>,
    ) -> Result<()> {
        let n = wgsl::count_u32("radix sort", keys.len())?;
        if n <= 1 {
            return Ok(());
        }
        let tiles = n.div_ceil(self.wg * self.per);
        let counts_len = RADIX as u64 * tiles as u64;
        wgsl::count_u32("radix sort: digit counts", counts_len)?;
        let counts = self.scratch.get(&self.gpu, "counts", counts_len)?;
        let offsets = self.scratch.get(&self.gpu, "offsets", counts_len)?;
        let keys_tmp = self.scratch.get(&self.gpu, "keys", n as u64)?;
        // Without values the value bindings get a one-element stand-in the kernel never touches.
        // (two of them: one buffer may not be read and written by the same dispatch).
        let (values_tmp, stand_in) = match values {
            Some(_) => (self.scratch.get(&self.gpu, "values", n as u64)?, None),
            None => (
                self.scratch.get(&self.gpu, "no values", 1)?,
                Some(self.scratch.get(&self.gpu, "no values either", 1)?),
            ),
        };
        let with_values = values.is_some() as u32;
        let values = match (values, &stand_in) {
            (Some(v), _) => v,
            (None, Some(s)) => s,
            (None, None) => &values_tmp,
        };
        let groups = tiles as u64 * self.wg as u64;
        // 32 / BITS = 8 passes, an even number: the keys end where they started.
        for pass in 0..32 / BITS {
            let (src, dst) = if pass % 2 == 0 {
                ((keys, values), (&keys_tmp, &values_tmp))
            } else {
                ((&keys_tmp, &values_tmp), (keys, values))
            };
            let params = self
                .uniforms
                .get(&self.gpu, [n, pass * BITS, tiles, with_values])?;
            self.count
                .bind("params", &params)
                .bind("keys_in", src.0)
                .bind("counts", &counts)
                .invocations(groups)
                .record(commands)?;
            self.scan
                .record(commands, &counts, &offsets, ScanSpec::exclusive(Op::Sum))?;
            self.scatter
                .bind("params", &params)
                .bind("keys_in", src.0)
                .bind("values_in", src.1)
                .bind("offsets", &offsets)
                .bind("keys_out", dst.0)
                .bind("values_out", dst.1)
                .invocations(groups)
                .record(commands)?;
        }
        Ok(())
    }

    /// Sorts `keys` in place and submits.
    pub fn run(&self, keys: &Buffer<u32>) -> Result<shoal::Submission> {
        let mut commands = self.gpu.commands();
        self.record(&mut commands, keys)?;
        commands.submit()
    }

    /// Sorts `keys` with their `values` in place and submits.
    pub fn run_pairs(&self, keys: &Buffer<u32>, values: &Buffer<u32>) -> Result<shoal::Submission> {
        let mut commands = self.gpu.commands();
        self.record_pairs(&mut commands, keys, values)?;
        commands.submit()
    }
}

/// The CPU twin of [`RadixSort`] for pairs: a stable sort by key.
pub fn sort_pairs_cpu(keys: &[u32], values: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut pairs: Vec<(u32, u32)> = keys.iter().copied().zip(values.iter().copied()).collect();
    pairs.sort_by_key(|p| p.0);
    pairs.into_iter().unzip()
}

#[cfg(test)]
mod tests;
