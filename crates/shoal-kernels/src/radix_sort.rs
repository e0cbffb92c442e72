//! [`RadixSort`]: stable least-significant-digit radix sort of keys of any [`SortKey`] type
//! (`u32`, `i32`, `f32`, [`U64`], [`I64`]), ascending or descending, alone, carrying values of
//! any element type, or as an argsort. The GPU sorts `u32` words, 4 or 8 bits per pass
//! ([`SortTiling`]). Each pass counts digits per tile, scans the digit-major counts with
//! [`Scan`](crate::Scan), and scatters each tile's keys in input order. Where the device runs
//! subgroups of one fixed size, the 4-bit tiles are work groups of one subgroup that count and
//! rank digits in registers with subgroup operations and never wait at a barrier; elsewhere they
//! are work groups of up to 256 invocations ranking through shared memory; the 8-bit ones
//! (software adapters) count per invocation (`ranking.rs`). Other key types and orders are mapped
//! to words by the first pass and back by the last, or by one more kernel (`passes.rs`,
//! `wgsl/sort_keys.wgsl`). 64-bit keys on 8-bit digits go high word first where their high words
//! spread widely, the GPU choosing (`high_first.rs`).

use std::marker::PhantomData;
use std::ops::Range;

use shoal::{Buffer, Error, Gpu, Kernel, Result};

use crate::buffers::{Named, check_apart, named};
use crate::scan::{Scan, Tiling};
use crate::wgsl::{self, Scratch, Uniforms};

mod bits;
mod by_key;
mod cpu;
mod high_first;
mod keys;
mod ops;
mod passes;
mod ranking;

pub use by_key::{KeyFunction, SortByArgs};
pub use cpu::{argsort_bits_cpu, argsort_cpu, sort_cpu, sort_pairs_cpu};
pub use keys::{I64, SortKey, SortOrder, U64};
pub use ops::{ArgsortArgs, SortArgs, SortPairsArgs, SortParams};
pub use ranking::{SortCounters, SortTiling};

use high_first::HighFirst;
#[cfg(test)]
pub(crate) use high_first::Way;
use ranking::Ranking;

const SOURCE: shoal::Source = shoal::wgsl!("../wgsl/radix_sort.wgsl");
const SUBGROUP_SOURCE: shoal::Source = shoal::wgsl!("../wgsl/radix_sort_subgroup.wgsl");
const LANES_SOURCE: shoal::Source = shoal::wgsl!("../wgsl/radix_sort_lanes.wgsl");
/// Digits of the 4-bit rankings, and of the lane counters' 8-bit one (`RADIX` in the WGSL).
const RADIX: u32 = 16;
const LANES_RADIX: u32 = 256;
/// The most keys per invocation a sort takes: a tile (at most 256 invocations of these) stays
/// well within the `u32` arithmetic of its kernels.
const MAX_SORT_PER: u32 = 1 << 16;
/// The most keys per invocation the 4-bit sort takes. Mesa's llvmpipe (lavapipe and its GL
/// driver) ends a kernel's loops after 65,535 iterations in all per invocation, counted over
/// every loop of the kernel (`LP_MAX_TGSI_LOOP_ITERATIONS`), and the 4-bit scatter loops twice
/// over each invocation's keys, one key per trip, plus about 60 trips over the digits: 32,768
/// keys already end its second loop early and leave the keys unsorted. 16,384 keeps every
/// kernel well within the budget. (The 8-bit sort's loops take 8 keys per trip, so
/// [`MAX_SORT_PER`] holds for it.)
const MAX_SORT_PER_4_BIT: u32 = 1 << 14;

/// Stable radix sort of keys (and key-value pairs) in place, and argsort.
///
/// The key type `K` is the buffer's: `u32` (the default), `i32`, `f32` (IEEE 754 total order,
/// as [`f32::total_cmp`]: see [`SortKey`]), [`U64`] or [`I64`]. Ascending unless
/// [`set_order`](Self::set_order) says otherwise; stable either way (equal keys keep their input
/// order). By every bit of the key, or by some of them in fewer passes
/// ([`SortParams::key_bits`]). One object sorts one key type; the pipelines are the same for
/// every key type. Four operations, each a [`Record`](shoal::Record) of its own arguments:
/// [`SortArgs`] (keys), [`SortPairsArgs`] (keys and values), [`ArgsortArgs`] and [`SortByArgs`]
/// (elements by a key computed in WGSL).
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{RadixSort, Record, SortArgs, SortOrder, SortPairsArgs};
/// let gpu = shoal::Gpu::blocking()?;
/// let mut keys: Vec<u32> = (0..10_000u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
/// let buffer = gpu.buffer_from(&keys)?;
/// RadixSort::new(&gpu, Default::default())?.run(SortArgs { keys: &buffer })?;
/// keys.sort();
/// assert_eq!(buffer.read_blocking()?, keys);
///
/// // f32 keys, largest first, carrying 16-byte values.
/// let keys = gpu.buffer_from(&[0.5f32, -2.0, f32::INFINITY, 0.5])?;
/// let values = gpu.buffer_from(&[[0u32; 4], [1; 4], [2; 4], [3; 4]])?;
/// let mut sort = RadixSort::new(&gpu, Default::default())?;
/// sort.set_order(SortOrder::Descending);
/// sort.run(SortPairsArgs { keys: &keys, values: &values })?;
/// assert_eq!(keys.read_blocking()?, [f32::INFINITY, 0.5, 0.5, -2.0]);
/// assert_eq!(values.read_blocking()?, [[2; 4], [0; 4], [3; 4], [1; 4]]);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct RadixSort<K: SortKey = u32> {
    gpu: Gpu,
    wg: u32,
    per: u32,
    ranking: Ranking,
    counters: SortCounters,
    kernels: PassKernels,
    /// The bits of the keys' ordered words the sort orders by (`bits.rs`), and the kernels of
    /// the narrower digits they need, by width.
    bits: Range<u32>,
    narrow: Vec<(u32, PassKernels)>,
    scan: Scan<u32>,
    /// `wgsl/sort_keys.wgsl`: the passes around the sort of words.
    passes: Kernel,
    /// The kernels of the high-word-first sort of 64-bit keys (`high_first.rs`: with 8-bit
    /// digits only).
    high_first: Option<HighFirst>,
    order: SortOrder,
    uniforms: Uniforms,
    scratch: Scratch,
    _key: PhantomData<K>,
}

impl<K: SortKey> RadixSort<K> {
    /// A sort for `gpu`, ascending, tiled as [`SortTiling::for_gpu`] plans: on a software
    /// adapter (lavapipe, llvmpipe's GL, SwiftShader) 8-bit digits counted per invocation
    /// ([`SortTiling::LLVMPIPE`] on llvmpipe, [`SortTiling::SOFTWARE`] on the others),
    /// elsewhere 4-bit digits in the tiles of [`Tiling::for_gpu`].
    ///
    /// `params` are what is compiled into the pipelines: the bits of the keys it orders by.
    pub fn new(gpu: &Gpu, params: SortParams) -> Result<Self> {
        Self::with_tiling(gpu, SortTiling::for_gpu(gpu), params)
    }

    /// How many kernels the scan between the passes has compiled (for the warm-up's tests).
    #[cfg(test)]
    pub(crate) fn kernels_built(&self) -> usize {
        self.scan.kernels_built()
    }

    /// A sort with its tiles and digits forced (a [`Tiling`] alone means 4-bit digits), 1 to
    /// 16,384 keys per invocation with 4-bit digits and 1 to 65,536 with 8-bit ones (more is an
    /// [`Error::Override`]: llvmpipe ends a kernel's loops after 65,535 iterations in all, and
    /// the 4-bit scatter loops twice over an invocation's keys, one per trip):
    ///
    /// - 4-bit digits (8 passes per 32-bit word) in one-subgroup work groups ranking in
    ///   registers (a typed error where the device's subgroup size is not fixed), or in work
    ///   groups of up to 256 invocations ranking through shared memory, fewer where shared
    ///   memory is short (each invocation keeps 16 digit counts in it);
    /// - 8-bit digits (4 passes) in shared-memory work groups where each invocation counts and
    ///   ranks its own keys with 256 counters of its own (`wgsl/radix_sort_lanes.wgsl`): keys
    ///   per invocation a multiple of 4 (they load as vec4s), work groups as large as shared
    ///   memory holds 1 KiB per invocation for (up to 256), the counters kept there or in an
    ///   array of each invocation's own ([`SortCounters`]). One-subgroup tiles are a typed
    ///   error, and so are private counters with 4-bit digits.
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// use shoal_kernels::{RadixSort, Record, SortArgs, SortCounters, SortOrder, SortParams};
    /// use shoal_kernels::{SortTiling, Tiling};
    /// let gpu = shoal::Gpu::blocking()?;
    /// let tiling = Tiling { per_invocation: 64, one_subgroup: false, workgroup: Some(4) };
    /// let keys = gpu.buffer_from(&[7u32, 1 << 30, 0, 300, 7])?;
    /// let eight = SortTiling { tiling, digit_bits: 8, counters: SortCounters::Private };
    /// RadixSort::with_tiling(&gpu, eight, SortParams::default())?.run(SortArgs { keys: &keys })?;
    /// assert_eq!(keys.read_blocking()?, [0, 7, 7, 300, 1 << 30]);
    /// let mut four = RadixSort::with_tiling(&gpu, tiling, SortParams::default())?;
    /// four.set_order(SortOrder::Descending);
    /// four.run(SortArgs { keys: &keys })?;
    /// assert_eq!(keys.read_blocking()?, [1 << 30, 300, 7, 7, 0]);
    /// # Ok(()) }
    /// ```
    pub fn with_tiling(
        gpu: &Gpu,
        tiling: impl Into<SortTiling>,
        params: SortParams,
    ) -> Result<Self> {
        let SortTiling {
            tiling,
            digit_bits,
            counters,
        } = tiling.into();
        let per = tiling.per_invocation;
        let source = match digit_bits {
            8 => LANES_SOURCE,
            _ => SOURCE,
        };
        let fail = |message: String| {
            Err(Error::Override {
                kernel: source.path().to_string(),
                message,
            })
        };
        let (max_per, why) = match digit_bits {
            4 => (
                MAX_SORT_PER_4_BIT,
                " with 4-bit digits (llvmpipe ends a kernel's loops after 65,535 iterations in \
                 all, and the 4-bit scatter loops twice over its keys)",
            ),
            _ => (MAX_SORT_PER, ""),
        };
        if per == 0 || per > max_per {
            return fail(format!(
                "keys per invocation must be between 1 and {max_per}{why}, not {per}"
            ));
        }
        if digit_bits != 8 && counters == SortCounters::Private {
            return fail(format!(
                "only the 8-bit sort keeps its counters privately, not the {digit_bits}-bit one"
            ));
        }
        let shared = gpu.limits().max_compute_shared_memory_size;
        match (digit_bits, tiling.one_subgroup) {
            (4, true) => {
                let wg = Tiling::one_subgroup_workgroup(gpu, &SUBGROUP_SOURCE)?;
                Self::build(gpu, Ranking::Subgroup, [wg, per], counters, params)
            }
            (4, false) => {
                // RADIX counts plus two scan slots per invocation, plus the 16 digit totals.
                let per_invocation = (RADIX + 2) * 4;
                let cap = (shared.saturating_sub(RADIX * 4) / per_invocation).max(1);
                let wg = tiling.shared_workgroup(gpu, &SOURCE, 256.min(cap))?;
                Self::build(gpu, Ranking::Shared, [wg, per], counters, params)
            }
            (8, false) if per.is_multiple_of(4) => {
                let per_invocation = LANES_RADIX * 4;
                let cap = (shared / per_invocation).max(1);
                let wg = tiling.shared_workgroup(gpu, &LANES_SOURCE, 256.min(cap))?;
                let need = wg as u64 * per_invocation as u64;
                if need > shared as u64 {
                    return fail(format!(
                        "{wg} invocations need {need} bytes of shared memory (1 KiB each for \
                         their counters); the device has {shared}"
                    ));
                }
                Self::build(gpu, Ranking::Lanes, [wg, per], counters, params)
            }
            (8, false) => fail(format!(
                "keys load four at a time: the keys per invocation must be a multiple of 4, not \
                 {per}"
            )),
            (8, true) => fail(
                "8-bit digits rank with counters in shared memory, not in one-subgroup tiles"
                    .into(),
            ),
            (bits, _) => fail(format!("digits are 4 or 8 bits wide, not {bits}")),
        }
    }

    /// The sort of `ranking`'s kernels in work groups of `wg` invocations of `per` keys, by the
    /// key bits of `params`.
    fn build(
        gpu: &Gpu,
        ranking: Ranking,
        [wg, per]: [u32; 2],
        counters: SortCounters,
        params: SortParams,
    ) -> Result<Self> {
        let mut sort = Self {
            gpu: gpu.clone(),
            wg,
            per,
            ranking,
            counters,
            kernels: PassKernels::build(gpu, ranking, [wg, per], counters, None)?,
            bits: 0..32 * K::WORDS,
            narrow: Vec::new(),
            scan: Scan::new(gpu)?,
            passes: passes::kernel(gpu, ranking)?,
            high_first: match (K::WORDS, ranking) {
                (2, Ranking::Lanes) => Some(HighFirst::build(gpu)?),
                _ => None,
            },
            order: SortOrder::Ascending,
            uniforms: Uniforms::default(),
            scratch: Scratch::default(),
            _key: PhantomData,
        };
        if let Some(bits) = params.key_bits {
            sort.order_by_bits(bits)?;
        }
        Ok(sort)
    }

    /// Sorts in `order` from now on (still stable: equal keys keep their input order). Only
    /// what is recorded changes: the pipelines are the same for both orders.
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// use shoal_kernels::{RadixSort, Record, SortArgs, SortOrder};
    /// let gpu = shoal::Gpu::blocking()?;
    /// let keys = gpu.buffer_from(&[1u32, 5, 3])?;
    /// let mut sort = RadixSort::new(&gpu, Default::default())?;
    /// sort.set_order(SortOrder::Descending);
    /// sort.run(SortArgs { keys: &keys })?;
    /// assert_eq!(keys.read_blocking()?, [5, 3, 1]);
    /// # Ok(()) }
    /// ```
    pub fn set_order(&mut self, order: SortOrder) {
        self.order = order;
    }

    /// The order this sort sorts in.
    pub fn order(&self) -> SortOrder {
        self.order
    }

    /// This sort's digit-pass kernels, their digits masked by `mask` (`DIGIT_MASK`) if given.
    fn pass_kernels(&self, mask: Option<u32>) -> Result<PassKernels> {
        let tiles = [self.wg, self.per];
        PassKernels::build(&self.gpu, self.ranking, tiles, self.counters, mask)
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

    /// An [`Error::WrongGpu`] unless `keys` and `other` are this sort's `Gpu`'s, then an
    /// [`Error::BindingKind`] when `other` is the keys' own buffer (or a view of it).
    fn distinct(&self, keys: &Buffer<K>, other: Named<'_>) -> Result<()> {
        let why = "the sort reads one while writing the other";
        check_apart(&self.gpu, "radix sort", &[named("keys", keys), other], why)
    }
}

/// The kernels of one digit pass: count, and the scatter of key words (and, with the lane
/// counters, the scatters of items: key and value words to items, items to items, items to key
/// and value words).
#[derive(Debug)]
struct PassKernels {
    count: Kernel,
    scatter: Kernel,
    item_scatters: Option<[Kernel; 3]>,
}

impl PassKernels {
    /// Its kernels: count, scatter, then the item scatters where it has them.
    fn all(&self) -> Vec<&Kernel> {
        let mut kernels = vec![&self.count, &self.scatter];
        kernels.extend(self.item_scatters.iter().flatten());
        kernels
    }

    /// `ranking`'s kernels in work groups of `wg` invocations of `per` keys, their digits masked
    /// by `mask` if given.
    fn build(
        gpu: &Gpu,
        ranking: Ranking,
        [wg, per]: [u32; 2],
        counters: SortCounters,
        mask: Option<u32>,
    ) -> Result<Self> {
        let (source, entries) = ranking_source(ranking);
        let build = |entry| {
            let mut builder = wgsl::builder(gpu, source.clone())
                .entry(entry)
                .constant("WG", wg)
                .constant("PER", per);
            if let Some(mask) = mask {
                builder = builder.constant("DIGIT_MASK", mask);
            }
            match ranking {
                Ranking::Lanes => builder.constant(
                    "PRIVATE_COUNTERS",
                    u32::from(counters == SortCounters::Private),
                ),
                Ranking::Subgroup | Ranking::Shared => builder,
            }
            .build()
        };
        Ok(Self {
            count: build(entries[0])?,
            scatter: build(entries[1])?,
            item_scatters: match ranking {
                Ranking::Lanes => Some([
                    build("scatter_zip")?,
                    build("scatter_items")?,
                    build("scatter_unzip")?,
                ]),
                Ranking::Subgroup | Ranking::Shared => None,
            },
        })
    }
}

/// The source of `ranking`'s digit passes, with its counting and its scattering entry points.
fn ranking_source(ranking: Ranking) -> (shoal::Source, [&'static str; 2]) {
    match ranking {
        Ranking::Subgroup => (
            SUBGROUP_SOURCE,
            ["count_digits_subgroup", "scatter_subgroup"],
        ),
        Ranking::Shared => (SOURCE, ["count_digits", "scatter"]),
        Ranking::Lanes => (LANES_SOURCE, ["count_digits", "scatter"]),
    }
}

/// The sources a sort compiles in `tiling`, for the kernel variants' check: the digit passes of
/// the ranking the tiling's digits and tiles take, the key passes, and (8-bit digits) the
/// high-word-first sort. Keys and order are run-time parameters of these kernels, not blocks.
pub(crate) fn variants(tiling: SortTiling) -> Vec<(String, shoal::Source)> {
    let ranking = match (tiling.digit_bits, tiling.tiling.one_subgroup) {
        (4, true) => Ranking::Subgroup,
        (4, false) => Ranking::Shared,
        _ => Ranking::Lanes,
    };
    let mut out = vec![
        (format!("{ranking:?} ranking"), ranking_source(ranking).0),
        ("key passes".to_string(), passes::SOURCE),
    ];
    if ranking == Ranking::Lanes {
        out.push(("high word first".to_string(), high_first::SOURCE));
    }
    out
}

#[cfg(test)]
mod bits_tests;
#[cfg(test)]
mod high_first_tests;
#[cfg(test)]
mod key_tests;
#[cfg(test)]
mod tests;
