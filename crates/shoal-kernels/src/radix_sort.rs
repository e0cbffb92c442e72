//! [`RadixSort`]: stable least-significant-digit radix sort of keys of any [`SortKey`] type
//! (`u32`, `i32`, `f32`, [`U64`], [`I64`]), ascending or descending, alone, carrying values of
//! any element type, or as an argsort. The GPU sorts `u32` words, 4 bits per pass. Each pass
//! counts digits per tile, scans the digit-major counts with [`Scan`](crate::Scan), and scatters
//! each tile's keys in input order. Where the device runs subgroups of one fixed size, the tiles
//! are work groups of one subgroup that count and rank digits in registers with subgroup
//! operations and never wait at a barrier; elsewhere they are work groups of up to 256
//! invocations ranking through shared memory. Other key types and orders are mapped to words
//! and back around that sort by one more kernel (`passes.rs`, `wgsl/sort_keys.wgsl`).

use std::marker::PhantomData;

use shoal::{Buffer, Commands, Element, Error, Gpu, Kernel, Result};

use crate::scan::{Scan, ScanSpec, Tiling};
use crate::wgsl::{self, Op, Scratch, Uniforms};

mod by_key;
mod cpu;
mod keys;
mod passes;

pub use by_key::KeyFunction;
pub use cpu::{argsort_cpu, sort_cpu, sort_pairs_cpu};
pub use keys::{I64, SortKey, SortOrder, U64};

use passes::Pass;

const SOURCE: shoal::Source = shoal::wgsl!("../wgsl/radix_sort.wgsl");
const SUBGROUP_SOURCE: shoal::Source = shoal::wgsl!("../wgsl/radix_sort_subgroup.wgsl");
/// Bits per pass, and the digits they make (`RADIX` in the WGSL).
const BITS: u32 = 4;
const RADIX: u32 = 1 << BITS;

/// Stable radix sort of keys (and key-value pairs) in place, and argsort.
///
/// The key type `K` is the buffer's: `u32` (the default), `i32`, `f32` (IEEE 754 total order,
/// as [`f32::total_cmp`]: see [`SortKey`]), [`U64`] or [`I64`]. Ascending unless
/// [`descending`](Self::descending); stable either way (equal keys keep their input order).
/// One object sorts one key type; the pipelines are the same for every key type.
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
///
/// // f32 keys, largest first, carrying 16-byte values.
/// let keys = gpu.buffer_from(&[0.5f32, -2.0, f32::INFINITY, 0.5])?;
/// let values = gpu.buffer_from(&[[0u32; 4], [1; 4], [2; 4], [3; 4]])?;
/// RadixSort::new(&gpu)?.descending().run_pairs(&keys, &values)?;
/// assert_eq!(keys.read_blocking()?, [f32::INFINITY, 0.5, 0.5, -2.0]);
/// assert_eq!(values.read_blocking()?, [[2; 4], [0; 4], [3; 4], [1; 4]]);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct RadixSort<K: SortKey = u32> {
    gpu: Gpu,
    wg: u32,
    per: u32,
    count: Kernel,
    scatter: Kernel,
    scan: Scan<u32>,
    /// `wgsl/sort_keys.wgsl`: the passes around the sort of words.
    passes: Kernel,
    order: SortOrder,
    uniforms: Uniforms,
    scratch: Scratch,
    _key: PhantomData<K>,
}

impl<K: SortKey> RadixSort<K> {
    /// A sort for `gpu`, ascending,, tiled as [`Tiling::for_gpu`] plans.
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
            passes: passes::kernel(gpu)?,
            order: SortOrder::Ascending,
            uniforms: Uniforms::default(),
            scratch: Scratch::default(),
            _key: PhantomData,
        })
    }

    /// The same sort, largest key first (still stable: equal keys keep their input order).
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// let gpu = shoal::Gpu::blocking()?;
    /// let keys = gpu.buffer_from(&[1u32, 5, 3])?;
    /// shoal_kernels::RadixSort::new(&gpu)?.descending().run(&keys)?;
    /// assert_eq!(keys.read_blocking()?, [5, 3, 1]);
    /// # Ok(()) }
    /// ```
    pub fn descending(self) -> Self {
        self.with_order(SortOrder::Descending)
    }

    /// The same sort in `order`.
    pub fn with_order(mut self, order: SortOrder) -> Self {
        self.order = order;
        self
    }

    /// The order this sort sorts in.
    pub fn order(&self) -> SortOrder {
        self.order
    }

    /// Records sorting `keys` in place.
    pub fn record(&self, commands: &mut Commands, keys: &Buffer<K>) -> Result<()> {
        let n = self.count(keys)?;
        if n <= 1 {
            return Ok(());
        }
        let words = keys.view_as::<u32>();
        if K::WORDS == 1 {
            return self.sort_words(commands, &words, None, self.map());
        }
        // 64-bit keys: LSD over the low words carrying the high ones, then over the high words
        // carrying the low ones (stable, so ties in the high word keep the low word's order).
        let (low, high) = self.split(commands, &words, n)?;
        self.sort_words(commands, &low, Some(&high), 0)?;
        self.sort_words(commands, &high, Some(&low), 0)?;
        self.pass(
            commands,
            Pass::Join,
            n,
            1,
            [Some(&low), Some(&high)],
            &[&words],
        )
    }

    /// Records sorting `keys` in place, moving `values` (any element type) with them; equal keys
    /// keep their order (stable). 32-bit keys with 4-byte values move both in every pass; other
    /// pairs sort the keys carrying their indices and then gather the values once.
    pub fn record_pairs<V: Element>(
        &self,
        commands: &mut Commands,
        keys: &Buffer<K>,
        values: &Buffer<V>,
    ) -> Result<()> {
        if values.len() != keys.len() {
            return Err(Error::Length {
                what: "radix sort: values (one per key)".into(),
                expected: keys.len(),
                got: values.len(),
            });
        }
        distinct(keys, values.raw(), "values")?;
        let value_words = passes::words_per_element::<V>()?;
        let n = self.count(keys)?;
        wgsl::count_u32(
            "radix sort: the values' u32 words",
            n as u64 * value_words as u64,
        )?;
        if n <= 1 {
            return Ok(());
        }
        let (words, values) = (keys.view_as::<u32>(), values.view_as::<u32>());
        if K::WORDS == 1 && value_words == 1 {
            return self.sort_words(commands, &words, Some(&values), self.map());
        }
        let indices = self.scratch.get(&self.gpu, "sort: indices", n as u64)?;
        if K::WORDS == 1 {
            self.pass(commands, Pass::Iota, n, 1, [None, None], &[&indices])?;
            self.sort_words(commands, &words, Some(&indices), self.map())?;
        } else {
            self.permutation(commands, &words, &indices, n)?;
            self.gather(commands, &words, &indices, n, K::WORDS)?;
        }
        self.gather(commands, &values, &indices, n, value_words)
    }

    /// Records writing the permutation that sorts `keys` into `indices`: `indices[i]` is the
    /// index of the `i`-th key in the sort's order, equal keys by index (stable). The keys are
    /// left as they are; `indices` needs at least one element per key (more stay untouched).
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// use shoal_kernels::{RadixSort, U64};
    /// let gpu = shoal::Gpu::blocking()?;
    /// let keys = gpu.buffer_from(&[U64(1 << 33), U64(2), U64(1 << 33), U64(0)])?;
    /// let indices = gpu.buffer_zeroed::<u32>(4)?;
    /// let mut commands = gpu.commands();
    /// RadixSort::new(&gpu)?.descending().record_argsort(&mut commands, &keys, &indices)?;
    /// commands.submit()?;
    /// assert_eq!(indices.read_blocking()?, [0, 2, 1, 3]);
    /// # Ok(()) }
    /// ```
    pub fn record_argsort(
        &self,
        commands: &mut Commands,
        keys: &Buffer<K>,
        indices: &Buffer<u32>,
    ) -> Result<()> {
        wgsl::at_least(
            "radix sort: argsort indices (one per key)",
            keys.len(),
            indices.len(),
        )?;
        distinct(keys, indices.raw(), "indices")?;
        let n = self.count(keys)?;
        if n == 0 {
            return Ok(());
        }
        self.permutation(commands, &keys.view_as::<u32>(), indices, n)
    }

    /// Sorts `keys` in place and submits.
    pub fn run(&self, keys: &Buffer<K>) -> Result<shoal::Submission> {
        let mut commands = self.gpu.commands();
        self.record(&mut commands, keys)?;
        commands.submit()
    }

    /// Sorts `keys` with their `values` in place and submits.
    pub fn run_pairs<V: Element>(
        &self,
        keys: &Buffer<K>,
        values: &Buffer<V>,
    ) -> Result<shoal::Submission> {
        let mut commands = self.gpu.commands();
        self.record_pairs(&mut commands, keys, values)?;
        commands.submit()
    }

    /// Writes the permutation that sorts `keys` into `indices` and submits (see
    /// [`record_argsort`](Self::record_argsort)).
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// use shoal_kernels::RadixSort;
    /// let gpu = shoal::Gpu::blocking()?;
    /// let keys = gpu.buffer_from(&[3i32, -7, 3, 0])?;
    /// let indices = gpu.buffer_zeroed::<u32>(4)?;
    /// RadixSort::new(&gpu)?.run_argsort(&keys, &indices)?;
    /// assert_eq!(indices.read_blocking()?, [1, 3, 0, 2]);
    /// # Ok(()) }
    /// ```
    pub fn run_argsort(
        &self,
        keys: &Buffer<K>,
        indices: &Buffer<u32>,
    ) -> Result<shoal::Submission> {
        let mut commands = self.gpu.commands();
        self.record_argsort(&mut commands, keys, indices)?;
        commands.submit()
    }

    /// The keys as a `u32` count, and their words too (a [`Error::Length`] beyond `u32`).
    fn count(&self, keys: &Buffer<K>) -> Result<u32> {
        let n = wgsl::count_u32("radix sort", keys.len())?;
        wgsl::count_u32(
            "radix sort: the keys' u32 words",
            keys.len() * K::WORDS as u64,
        )?;
        Ok(n)
    }

    /// Records the sort of `u32` words `keys` ascending, moving `values` (at least as many)
    /// with them. The first pass maps the keys it loads by `map` (a key map of
    /// `wgsl/sort_key_map.wgsl`, 0 for none), the last maps them back as it stores them.
    fn sort_words(
        &self,
        commands: &mut Commands,
        keys: &Buffer<u32>,
        values: Option<&Buffer<u32>>,
        map: u32,
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
        let last = 32 / BITS - 1;
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
            let params = self.uniforms.get(
                &self.gpu,
                [n, pass * BITS, tiles, flags(with_values, map, pass, last)],
            )?;
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
}

/// The `flags` of a pass's parameters (`radix_sort_common.wgsl`): whether values travel, the
/// key map applied on loading (the first pass) and undone on storing (the last).
fn flags(with_values: u32, map: u32, pass: u32, last: u32) -> u32 {
    let map_in = if pass == 0 { map } else { 0 };
    let map_out = if pass == last { map } else { 0 };
    with_values | map_in << 8 | map_out << 16
}

/// A [`Error::BindingKind`] when `other` is the keys' own buffer.
fn distinct<K: SortKey>(keys: &Buffer<K>, other: &shoal::wgpu::Buffer, what: &str) -> Result<()> {
    if other == keys.raw() {
        return Err(Error::BindingKind {
            kernel: "radix sort".into(),
            binding: what.into(),
            expected: "a buffer other than the keys".into(),
            got: "the keys buffer itself".into(),
        });
    }
    Ok(())
}

#[cfg(test)]
mod key_tests;
#[cfg(test)]
mod tests;
