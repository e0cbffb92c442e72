//! The high-word-first sort of 64-bit keys with 8-bit digits (`wgsl/radix_sort_high_first.wgsl`):
//! four passes by the high word and one that sorts each short run of equal high words by its low
//! word, where the high words spread widely; the eight passes of the whole key otherwise. The GPU
//! chooses (indirect dispatches, the way not taken given zero work groups), so nothing waits for
//! the host.
//!
//! Why: every pass of a 64-bit sort moves 8-byte items, so on a software adapter, where a pass
//! costs what it moves, eight passes of items cost far more than a `u32` sort, and four half that.
//! Keys uniform over their high words (hashes, random ids, Morton codes of wide extents) form runs
//! of one or two; keys below 2^32, or clustered in a few high words, form long runs, which the
//! fallback sorts at today's cost plus what was spent before it knew (see `docs/sorting.md`).

use shoal::glam::UVec2;
use shoal::{Buffer, Commands, Gpu, Kernel, Result};

use super::RadixSort;
use super::keys::SortKey;
use super::passes::{Pass, group_elements};
use super::ranking::{Plan, Ranking, Side, Values, route};
use crate::wgsl;

pub(super) const SOURCE: shoal::Source = shoal::wgsl!("../../wgsl/radix_sort_high_first.wgsl");
/// Invocations per work group of `choose` and `fix_runs`, keys per invocation of `fix_runs` (`WG`
/// and `FIX_PER` in the WGSL).
const WG: u32 = 64;
const FIX_PER: u32 = 16;
/// Byte offsets of the indirect arguments: the high word's passes, `fix_runs`, the fallback's
/// passes, and the fallback's gather of an argsort's high words.
const HIGH_ARGS: u64 = 0;
const FIX_ARGS: u64 = 12;
const FALLBACK_ARGS: u64 = 24;
const GATHER_ARGS: u64 = 36;

/// The kernels of the high-word-first sort.
#[derive(Debug)]
pub(super) struct HighFirst {
    choose: Kernel,
    /// `fix_runs` sorting keys, and sorting an argsort's indices (`INDEXED`).
    fix_runs: Kernel,
    fix_indices: Kernel,
    settle: Kernel,
}

impl HighFirst {
    /// Its kernels, for [`Family::kernels`](shoal::Family::kernels).
    pub(super) fn kernels(&self) -> [&Kernel; 4] {
        [
            &self.choose,
            &self.fix_runs,
            &self.fix_indices,
            &self.settle,
        ]
    }

    pub(super) fn build(gpu: &Gpu) -> Result<Self> {
        let max_x = gpu.limits().max_compute_work_group_count[0];
        let build = |entry, indexed: bool| {
            wgsl::builder(gpu, SOURCE)
                .entry(entry)
                .constant("WG", WG)
                .constant("MAX_X", max_x)
                .constant("INDEXED", u32::from(indexed))
                .constant("GATHER_GROUP_KEYS", group_elements(Ranking::Lanes))
                .build()
        };
        Ok(Self {
            choose: build("choose", false)?,
            fix_runs: build("fix_runs", false)?,
            fix_indices: build("fix_runs", true)?,
            settle: build("settle", false)?,
        })
    }
}

/// Which way a high-word-first sort went, read back by the tests from its state.
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Way {
    /// Four passes by the high word and the runs fixed.
    Fast,
    /// The sample's high words spread too little: the eight passes alone.
    Narrow,
    /// The fast way found a run longer than the limit: its passes, then the eight.
    LongRun,
}

/// What both ways of one high-word-first sort share: its parameters, the indirect arguments and
/// the state.
struct Armed {
    params: Buffer<shoal::glam::UVec4>,
    args: Buffer<u32>,
    state: Buffer<u32>,
}

impl<K: SortKey> RadixSort<K> {
    /// Records `choose` over the `n` 64-bit keys `words` (two words per key, low first): the
    /// parameters, arguments and state the rest of the sort takes.
    fn choose(
        &self,
        commands: &mut Commands,
        kernels: &HighFirst,
        words: &Buffer<u32>,
        n: u32,
    ) -> Result<Armed> {
        let gpu = &self.gpu;
        let tiles = n.div_ceil(self.wg * self.per);
        let fix_groups = n.div_ceil(WG * FIX_PER);
        let armed = Armed {
            params: self.uniforms.get(gpu, [n, tiles, self.map(), fix_groups])?,
            args: self
                .scratch
                .indirect(gpu, "sort: high-first arguments", 12)?,
            state: self.scratch.get(gpu, "sort: high-first state", 2)?,
        };
        kernels
            .choose
            .bind("params", &armed.params)
            .bind("keys", &words.view_as::<UVec2>())
            .bind("state", &armed.state)
            .bind("args", &armed.args)
            .groups([1, 1, 1])
            .record(commands)?;
        Ok(armed)
    }

    /// Records `fix_runs` (`kernel`: over keys or indices) and `settle`; the buffers a way does
    /// not use are one-word stand-ins.
    fn fix_and_settle(
        &self,
        commands: &mut Commands,
        kernels: &HighFirst,
        armed: &Armed,
        words: Option<&Buffer<u32>>,
        [high, low, indices]: [Option<&Buffer<u32>>; 3],
    ) -> Result<()> {
        let stand_in = |name, given: Option<&Buffer<u32>>| match given {
            Some(b) => Ok(b.clone()),
            None => self.scratch.get(&self.gpu, name, 1),
        };
        let kernel = match words {
            Some(_) => &kernels.fix_runs,
            None => &kernels.fix_indices,
        };
        kernel
            .bind("params", &armed.params)
            .bind("words", &stand_in("sort: no words", words)?)
            .bind("high_words", &stand_in("sort: no high words", high)?)
            .bind("low_words", &stand_in("sort: no low words", low)?)
            .bind("indices", &stand_in("sort: no indices", indices)?)
            .bind("state", &armed.state)
            .indirect(&armed.args, FIX_ARGS)
            .record(commands)?;
        kernels
            .settle
            .bind("params", &armed.params)
            .bind("state", &armed.state)
            .bind("args", &armed.args)
            .groups([1, 1, 1])
            .record(commands)
    }

    /// Records sorting `n` (at least 2) 64-bit keys `words` (two per key, low first) in place,
    /// high word first where the GPU finds that pays (the module's docs).
    pub(super) fn sort_high_first(
        &self,
        commands: &mut Commands,
        kernels: &HighFirst,
        words: &Buffer<u32>,
        n: u32,
    ) -> Result<()> {
        let armed = self.choose(commands, kernels, words, n)?;
        let tmp = self.scratch.get(&self.gpu, "items", 2 * n as u64)?;
        let windows = self.windows(None);
        let maps = [self.map() & 4, self.map()];
        let high = windows.iter().filter(|w| w.word == 1).copied().collect();
        self.digit_passes(
            commands,
            &Plan {
                n,
                windows: high,
                sides: route(4, [words, &tmp, &tmp, words].map(Side::Items)),
                with_values: false,
                indices: false,
                maps: [maps; 2],
                indirect: Some((&armed.args, HIGH_ARGS)),
            },
        )?;
        self.fix_and_settle(commands, kernels, &armed, Some(words), [None; 3])?;
        let passes = windows.len();
        self.digit_passes(
            commands,
            &Plan {
                n,
                windows,
                sides: route(passes, [words, &tmp, &tmp, words].map(Side::Items)),
                with_values: false,
                indices: false,
                maps: [maps; 2],
                indirect: Some((&armed.args, FALLBACK_ARGS)),
            },
        )
    }

    /// Records writing the permutation that sorts the `n` (at least 2) 64-bit keys `words` into
    /// `indices`, the keys unchanged, high word first where the GPU finds that pays: the keys
    /// split into ordered words, the high words sorted carrying their indices, each short run of
    /// equal high words' indices sorted by their keys' low words; or, as `permutation` does, by
    /// the low words carrying the indices and then by the high words gathered in that order.
    pub(super) fn permutation_high_first(
        &self,
        commands: &mut Commands,
        kernels: &HighFirst,
        words: &Buffer<u32>,
        indices: &Buffer<u32>,
        n: u32,
    ) -> Result<()> {
        let armed = self.choose(commands, kernels, words, n)?;
        let (low, high) = self.split(commands, words, n)?;
        let sorted = self
            .scratch
            .get(&self.gpu, "sort: high words sorted", n as u64)?;
        let (low_windows, high_windows) = (self.windows(Some(0)), self.windows(Some(1)));
        let fast = Some((&armed.args, HIGH_ARGS));
        let made = Values::Indices(indices);
        self.sort_words(commands, &high, &sorted, made, 0, &high_windows, fast)?;
        let by_index = [Some(&sorted), Some(&low), Some(indices)];
        self.fix_and_settle(commands, kernels, &armed, None, by_index)?;
        let fallback = Some((&armed.args, FALLBACK_ARGS));
        self.sort_words(commands, &low, &low, made, 0, &low_windows, fallback)?;
        let gather = Some((&armed.args, GATHER_ARGS));
        let sources = [Some(&high), Some(indices)];
        self.pass(commands, Pass::Gather, n, 1, sources, &[&sorted], gather)?;
        let carried = Values::Given(indices);
        self.sort_words(
            commands,
            &sorted,
            &sorted,
            carried,
            0,
            &high_windows,
            fallback,
        )
    }

    /// Which way the last high-word-first sort (or argsort) by this object went, read back after
    /// it was submitted: its state, checked against the arguments `choose` and `settle` wrote
    /// (the fast way's passes armed and the fallback's not, or the reverse).
    #[cfg(test)]
    pub(crate) async fn way(&self) -> Way {
        let read = |name, len| async move {
            let buffer = match name {
                "state" => self.scratch.get(&self.gpu, "sort: high-first state", len),
                _ => self
                    .scratch
                    .indirect(&self.gpu, "sort: high-first arguments", len),
            };
            buffer.expect(name).read().await.expect("reads back")
        };
        let (state, args) = (read("state", 2).await, read("args", 12).await);
        let (high, fix, fallback) = (args[0] > 0, args[3] > 0, args[6] > 0 && args[9] > 0);
        match (&state[..], high, fix, fallback) {
            ([1, 0], true, true, false) => Way::Fast,
            ([0, 0], false, false, true) => Way::Narrow,
            ([1, 1], true, true, true) => Way::LongRun,
            _ => panic!("no way leaves the state {state:?} and the arguments {args:?}"),
        }
    }
}
