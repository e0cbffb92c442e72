//! How [`RadixSort`] cuts keys into tiles and ranks each tile's digits ([`SortTiling`],
//! [`Ranking`]), and the digit passes it records: count, scan of the counts, scatter, from the
//! least significant digit up.

use shoal::glam::UVec2;
use shoal::{Buffer, Commands, Record, Result};

use super::bits::Window;
use super::keys::SortKey;
use super::passes::Pass;
use super::{PassKernels, RadixSort};
use crate::scan::{SOFTWARE_WORKGROUP, ScanArgs, ScanSpec, Tiling};
use crate::wgsl::{self, Op};

/// How a [`RadixSort`] cuts its keys into tiles, and how wide its digits are
/// ([`RadixSort::with_tiling`]). A [`Tiling`] converts into one with 4-bit digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SortTiling {
    /// Keys per invocation, and one-subgroup or shared-memory work groups of how many.
    pub tiling: Tiling,
    /// Bits per pass: 4 (8 passes per 32-bit word, ranked in registers in one-subgroup tiles or
    /// through shared memory otherwise) or 8 (4 passes, ranked with 256 counters per invocation
    /// in shared memory).
    pub digit_bits: u32,
    /// Where the 8-bit sort's invocations keep those counters while they count and rank.
    pub counters: SortCounters,
}

/// Where each invocation of the 8-bit sort ([`SortTiling::digit_bits`] 8) keeps its 256 digit
/// counters while it counts and ranks its keys (`wgsl/radix_sort_lanes.wgsl`). Either way they
/// pass through shared memory between the invocations of a work group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortCounters {
    /// A column of shared memory per invocation (SwiftShader's choice, and the only one of the
    /// 4-bit sorts).
    #[default]
    Shared,
    /// An array of each invocation's own (llvmpipe's choice, on Vulkan and GL: it reads and
    /// writes shared memory one invocation at a time, an invocation's own array for all of a
    /// vector's invocations at once). 8-bit digits only.
    Private,
}

impl SortTiling {
    /// What [`RadixSort::new`] takes on a software adapter (lavapipe, llvmpipe's GL,
    /// SwiftShader): 8-bit digits in work groups of [`SOFTWARE_WORKGROUP`] invocations of 2,048
    /// keys each. A software adapter pays for a pass what it loads and stores, lane by lane, so
    /// half the passes of the 4-bit sort is most of what it saves; 2,048 keys per invocation
    /// were faster than 1,024 and 4,096 on lavapipe and SwiftShader (docs/sorting.md; the
    /// figures: docs/bench/*.md).
    /// Its counters are [`SortCounters::Shared`]: what SwiftShader takes.
    pub const SOFTWARE: SortTiling = SortTiling {
        tiling: Tiling {
            per_invocation: 2048,
            one_subgroup: false,
            workgroup: Some(SOFTWARE_WORKGROUP),
        },
        digit_bits: 8,
        counters: SortCounters::Shared,
    };

    /// What [`RadixSort::new`] takes on llvmpipe (lavapipe on Vulkan, and GL): the tiles and
    /// digits of [`SOFTWARE`](Self::SOFTWARE), the counters [`SortCounters::Private`]: llvmpipe
    /// reads and writes shared memory one lane at a time, a private array a vector at a time.
    /// Faster than shared counters on lavapipe and GL; slower on SwiftShader, so not there.
    pub const LLVMPIPE: SortTiling = SortTiling {
        counters: SortCounters::Private,
        ..Self::SOFTWARE
    };

    /// What Shoal picks for `gpu`: [`LLVMPIPE`](Self::LLVMPIPE) on llvmpipe,
    /// [`SOFTWARE`](Self::SOFTWARE) on other software adapters, 4-bit digits in the tiles of
    /// [`Tiling::for_gpu`] elsewhere (a GPU's sort is unchanged until a measurement on one says
    /// otherwise).
    pub fn for_gpu(gpu: &shoal::Gpu) -> Self {
        Self::plan(&gpu.into())
    }

    /// [`for_gpu`](Self::for_gpu) for a device described by `profile` (no device needed).
    pub fn plan(profile: &shoal::DeviceProfile) -> Self {
        if profile.is_llvmpipe() {
            Self::LLVMPIPE
        } else if profile.is_software() {
            Self::SOFTWARE
        } else {
            Tiling::plan(profile).into()
        }
    }
}

impl From<Tiling> for SortTiling {
    fn from(tiling: Tiling) -> Self {
        Self {
            tiling,
            digit_bits: 4,
            counters: SortCounters::Shared,
        }
    }
}

/// How a sort ranks each tile's digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ranking {
    /// 4-bit digits in registers, with subgroup operations (`radix_sort_subgroup.wgsl`).
    Subgroup,
    /// 4-bit digits through shared memory (`radix_sort.wgsl`).
    Shared,
    /// 8-bit digits with counters per invocation (`radix_sort_lanes.wgsl`), moving key words or
    /// items of two words.
    Lanes,
}

impl Ranking {
    /// Bits per pass.
    pub(super) fn bits(self) -> u32 {
        match self {
            Ranking::Lanes => 8,
            Ranking::Subgroup | Ranking::Shared => 4,
        }
    }
}

/// What one digit pass reads, or writes.
#[derive(Debug, Clone, Copy)]
pub(super) enum Side<'a> {
    /// Key words and their values' words (a stand-in when none travel).
    Words(&'a Buffer<u32>, &'a Buffer<u32>),
    /// Items of two words, seen as words: a key word and its value's, or a 64-bit key's low and
    /// high words (the lane counters only).
    Items(&'a Buffer<u32>),
}

/// What travels with the key words of a sort ([`RadixSort::sort_words`]).
#[derive(Debug, Clone, Copy)]
pub(super) enum Values<'a> {
    /// Nothing: the keys alone.
    None,
    /// One word per key, moved with it in place.
    Given(&'a Buffer<u32>),
    /// The keys' indices, which end as the permutation that sorts them in this buffer: made by
    /// the first pass of the lane counters rather than loaded, written by an identity pass
    /// before the other rankings.
    Indices(&'a Buffer<u32>),
}

/// The passes of one sort: the digit each orders by, the sides they go between (pass `p` reads
/// `sides[p]` and writes `sides[p + 1]`), and how the key words are read.
pub(super) struct Plan<'a> {
    pub(super) n: u32,
    pub(super) windows: Vec<Window>,
    pub(super) sides: Vec<Side<'a>>,
    pub(super) with_values: bool,
    /// The first pass makes the values (the keys' indices) instead of loading them.
    pub(super) indices: bool,
    /// The key maps of an item's first and second words (`radix_sort::key_map`) applied on the
    /// first pass's loads, and those undone on the last's stores.
    pub(super) maps: [[u32; 2]; 2],
    /// Where the count and scatter kernels take their work groups from when the GPU chooses
    /// whether the passes run (indirect arguments at a byte offset: `high_first.rs`), rather
    /// than one per tile.
    pub(super) indirect: Option<(&'a Buffer<u32>, u64)>,
}

impl<K: SortKey> RadixSort<K> {
    /// Records the sort of `u32` words `keys` ascending by the digits `windows` (at least one, of
    /// word 0) into `home`: `keys` itself to sort in place, or scratch of as many words to leave
    /// `keys` as they are (an argsort; with one key or none nothing is written there). `values`
    /// (at least as many) move with them. The first pass maps the keys it loads by `map` (a key
    /// map of `wgsl/sort_key_map.wgsl`, 0 for none), the last maps them back as it stores them.
    /// With the lane counters, pairs travel as items after the first pass and are unzipped after
    /// the last. The passes take their work groups from `indirect` if given (`Plan::indirect`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn sort_words(
        &self,
        commands: &mut Commands,
        keys: &Buffer<u32>,
        home: &Buffer<u32>,
        values: Values,
        map: u32,
        windows: &[Window],
        indirect: Option<(&Buffer<u32>, u64)>,
    ) -> Result<()> {
        let n = wgsl::count_u32("radix sort", keys.len())?;
        let lanes = self.ranking == Ranking::Lanes;
        let (values, indices) = match values {
            Values::None => (None, false),
            Values::Given(v) => (Some(v), false),
            Values::Indices(v) if lanes && n > 1 => (Some(v), true),
            Values::Indices(v) => {
                self.pass(commands, Pass::Iota, n, 1, [None, None], &[v], None)?;
                (Some(v), false)
            }
        };
        if n <= 1 {
            return Ok(());
        }
        let mut windows = windows.to_vec();
        // At least two passes: one cannot scatter a buffer into itself, and a digit sorted by
        // twice sorts as once (stable).
        if let [only] = windows[..] {
            windows.push(only);
        }
        let with_values = values.is_some();
        // Without values the value bindings get a one-element stand-in the kernel never touches
        // (two of them: one buffer may not be read and written by the same dispatch).
        let (values, values_tmp) = match values {
            Some(v) => (v.clone(), self.scratch.get(&self.gpu, "values", n as u64)?),
            None => (
                self.scratch.get(&self.gpu, "no values", 1)?,
                self.scratch.get(&self.gpu, "no values either", 1)?,
            ),
        };
        let keys_tmp = self.scratch.get(&self.gpu, "keys", n as u64)?;
        if with_values && lanes {
            // Items between the first pass and the last.
            let items = [
                self.scratch.get(&self.gpu, "items", 2 * n as u64)?,
                self.scratch.get(&self.gpu, "items either", 2 * n as u64)?,
            ];
            let mut sides = vec![Side::Words(keys, &values)];
            sides.extend((1..windows.len()).map(|p| Side::Items(&items[p % 2])));
            sides.push(Side::Words(home, &values));
            return self.digit_passes(
                commands,
                &Plan {
                    n,
                    windows,
                    sides,
                    with_values,
                    indices,
                    maps: [[map, 0]; 2],
                    indirect,
                },
            );
        }
        let passes = windows.len();
        let (keys_first, values_first) = if passes % 2 == 1 {
            let values_first = match with_values {
                true => self.scratch.get(&self.gpu, "values first", n as u64)?,
                false => self.scratch.get(&self.gpu, "no values first", 1)?,
            };
            let keys_first = self.scratch.get(&self.gpu, "keys first", n as u64)?;
            (keys_first, values_first)
        } else {
            (keys_tmp.clone(), values_tmp.clone())
        };
        let sides = route(
            passes,
            [
                Side::Words(keys, &values),
                Side::Words(&keys_first, &values_first),
                Side::Words(&keys_tmp, &values_tmp),
                Side::Words(home, &values),
            ],
        );
        self.digit_passes(
            commands,
            &Plan {
                n,
                windows,
                sides,
                with_values,
                indices,
                maps: [[map, 0]; 2],
                indirect,
            },
        )
    }

    /// Records the sort of 64-bit keys `words` (two per key, low first) in place with the lane
    /// counters, the low words' digits first: items of two words in every pass, mapped by `maps`
    /// (the low word's and the high word's key maps).
    pub(super) fn sort_items(
        &self,
        commands: &mut Commands,
        words: &Buffer<u32>,
        n: u32,
        maps: [u32; 2],
    ) -> Result<()> {
        let tmp = self.scratch.get(&self.gpu, "items", 2 * n as u64)?;
        let mut windows = self.windows(None);
        if let [only] = windows[..] {
            windows.push(only);
        }
        let passes = windows.len();
        let first = match passes % 2 {
            1 => self.scratch.get(&self.gpu, "items first", 2 * n as u64)?,
            _ => tmp.clone(),
        };
        let sides = route(passes, [words, &first, &tmp, words].map(Side::Items));
        self.digit_passes(
            commands,
            &Plan {
                n,
                windows,
                sides,
                with_values: false,
                indices: false,
                maps: [maps; 2],
                indirect: None,
            },
        )
    }

    /// The kernels of a pass over `window`: those of its narrower digit (`narrow` holds only
    /// widths below a whole digit), or the sort's own.
    fn kernels_of(&self, window: &Window) -> &PassKernels {
        self.narrow
            .iter()
            .find(|(width, _)| *width == window.width)
            .map_or(&self.kernels, |(_, kernels)| kernels)
    }

    /// Records `plan`'s passes: per pass, count the digits of each tile, scan the counts
    /// (digit-major, so each digit of each tile learns where it starts), scatter.
    pub(super) fn digit_passes(&self, commands: &mut Commands, plan: &Plan) -> Result<()> {
        let n = plan.n;
        let bits = self.ranking.bits();
        let tiles = n.div_ceil(self.wg * self.per);
        let counts_len = (1u64 << bits) * tiles as u64;
        wgsl::count_u32("radix sort: digit counts", counts_len)?;
        let counts = self.scratch.get(&self.gpu, "counts", counts_len)?;
        let offsets = self.scratch.get(&self.gpu, "offsets", counts_len)?;
        // The 8-bit ranking's counts per tile and invocation, from counting to scattering.
        let lane_counts = match self.ranking {
            Ranking::Lanes => {
                let len = counts_len * self.wg as u64;
                wgsl::count_u32("radix sort: counts per invocation", len)?;
                Some(self.scratch.get(&self.gpu, "counts per invocation", len)?)
            }
            Ranking::Subgroup | Ranking::Shared => None,
        };
        let lanes = lane_counts.is_some();
        let groups = tiles as u64 * self.wg as u64;
        let last = plan.sides.len() as u32 - 2;
        for (pass, step) in plan.sides.windows(2).enumerate() {
            let pass = pass as u32;
            let (keys_in, in_items) = match step[0] {
                Side::Words(k, _) => (k, false),
                Side::Items(w) => (w, true),
            };
            let window = &plan.windows[pass as usize];
            let kernels = self.kernels_of(window);
            let flags = plan.with_values as u32
                | map_bits(pass, last, plan.maps)
                | (in_items as u32) << 24
                | window.word << 26
                | ((pass == 0 && plan.indices) as u32) << 27;
            let params = self
                .uniforms
                .get(&self.gpu, [n, window.shift, tiles, flags])?;
            let keys_in4 = self.scratch.vec4s(&self.gpu, keys_in)?;
            let mut count = kernels
                .count
                .bind("params", &params)
                .bind("keys_in", keys_in)
                .bind("counts", &counts);
            if let Some(lane_counts) = &lane_counts {
                count = count
                    .bind("keys_in4", &keys_in4)
                    .bind("lane_counts", lane_counts);
            }
            // What each scatter reads and writes, by its sides ("radix_sort_lanes.wgsl").
            let (kernel, values_in4, items_out) = match (step[0], step[1], &kernels.item_scatters) {
                (Side::Words(_, v), Side::Items(w), Some([zip, ..])) => (
                    zip,
                    Some((v, self.scratch.vec4s(&self.gpu, v)?)),
                    Some(w.view_as::<UVec2>()),
                ),
                (Side::Items(_), Side::Items(w), Some([_, items, _])) => {
                    (items, None, Some(w.view_as::<UVec2>()))
                }
                (Side::Items(_), Side::Words(..), Some([.., unzip])) => (unzip, None, None),
                _ => (&kernels.scatter, None, None),
            };
            let mut scatter = kernel
                .bind("params", &params)
                .bind("keys_in", keys_in)
                .bind("offsets", &offsets);
            if let Some(lane_counts) = &lane_counts {
                scatter = scatter
                    .bind("keys_in4", &keys_in4)
                    .bind("lane_counts", lane_counts);
            }
            if let Some((values_in, values_in4)) = &values_in4 {
                scatter = scatter
                    .bind("values_in", *values_in)
                    .bind("values_in4", values_in4);
            }
            match (step[0], step[1]) {
                (_, Side::Items(_)) => {}
                (Side::Items(_), Side::Words(k, v)) => {
                    scatter = scatter.bind("keys_out", k).bind("values_out", v);
                }
                (Side::Words(_, v_in), Side::Words(k, v)) => {
                    scatter = scatter.bind("keys_out", k);
                    if !lanes {
                        scatter = scatter.bind("values_in", v_in).bind("values_out", v);
                    }
                }
            }
            if let Some(items_out) = &items_out {
                scatter = scatter.bind("items_out", items_out);
            }
            let (count, scatter) = match plan.indirect {
                Some((args, at)) => (count.indirect(args, at), scatter.indirect(args, at)),
                None => (count.invocations(groups), scatter.invocations(groups)),
            };
            count.record(commands)?;
            // Where the passes may not run, the scan adds up what the counts held before: its
            // result is then read by no scatter.
            let offsets = ScanArgs {
                input: &counts,
                output: &offsets,
                spec: ScanSpec::exclusive(Op::Sum),
            };
            self.scan.record(commands, offsets)?;
            scatter.record(commands)?;
        }
        Ok(())
    }
}

/// The sides of `passes` passes (at least two) from `start` to `home` through `tmp`, alternating,
/// and where the count is odd (fewer key bits: `SortParams::key_bits`) through `first`, a second
/// scratch, on the first pass: no pass writes what it reads, and the last ends at `home` without
/// a copy into place (which an argsort's longer indices, or keys without `COPY_DST`, would not
/// take).
pub(super) fn route<S: Copy>(passes: usize, [start, first, tmp, home]: [S; 4]) -> Vec<S> {
    (0..=passes)
        .map(|p| match p {
            0 => start,
            1 if passes % 2 == 1 => first,
            _ if (passes - p).is_multiple_of(2) => home,
            _ => tmp,
        })
        .collect()
}

/// The key-map bits of pass `pass`'s flags (`radix_sort_common.wgsl`): `maps` (an item's first
/// and second words') applied on the first pass's loads, and undone on the last pass's stores.
fn map_bits(pass: u32, last: u32, [[x, y], [u, v]]: [[u32; 2]; 2]) -> u32 {
    let on_load = if pass == 0 { x << 8 | y << 12 } else { 0 };
    let on_store = if pass == last { u << 16 | v << 20 } else { 0 };
    on_load | on_store
}

#[cfg(test)]
mod tests {
    use super::route;

    /// Every count of passes ends at home, starts at the input, and never reads and writes one
    /// side in one pass (`first` and `tmp` are scratch; `start` may be `home`, in place).
    #[test]
    fn every_count_of_passes_ends_at_home() {
        for passes in 2..=16 {
            let sides = route(passes, ["start", "first", "tmp", "home"]);
            assert_eq!((sides[0], sides[passes]), ("start", "home"), "{passes}");
            for (p, pair) in sides.windows(2).enumerate() {
                let in_place = pair[0] == "start" && pair[1] == "home";
                assert!(
                    pair[0] != pair[1] && !in_place,
                    "{passes} passes, pass {p}: {pair:?}"
                );
            }
        }
    }
}
