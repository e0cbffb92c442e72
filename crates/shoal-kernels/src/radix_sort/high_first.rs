//! The high-word-first sort of 64-bit keys with 8-bit digits (`wgsl/radix_sort_high_first.wgsl`):
//! four passes by the high word and one that sorts each short run of equal high words by its low
//! word, where the high words spread widely; the eight passes of the whole key otherwise. The GPU
//! chooses (indirect dispatches, the way not taken given zero work groups), so nothing waits for
//! the host.
//!
//! Why: every pass of a 64-bit sort moves 8-byte items, so on a software adapter, where a pass
//! costs what it moves, eight passes cost about 3.8 times a `u32` sort and four about 1.9 times.
//! Keys uniform over their high words (hashes, random ids, Morton codes of wide extents) form runs
//! of one or two; keys below 2^32, or clustered in a few high words, form long runs, which the
//! fallback sorts at today's cost plus what was spent before it knew (see `docs/primitives.md`).

use shoal::glam::UVec2;
use shoal::{Buffer, Commands, Gpu, Kernel, Result};

use super::RadixSort;
use super::keys::SortKey;
use super::ranking::{Plan, Side, route};
use crate::wgsl;

const SOURCE: shoal::Source = shoal::wgsl!("../../wgsl/radix_sort_high_first.wgsl");
/// Invocations per work group of `choose` and `fix_runs`, keys per invocation of `fix_runs` (`WG`
/// and `FIX_PER` in the WGSL).
const WG: u32 = 64;
const FIX_PER: u32 = 16;
/// Byte offsets of the indirect arguments: the high word's passes, `fix_runs`, the fallback.
const HIGH_ARGS: u64 = 0;
const FIX_ARGS: u64 = 12;
const FALLBACK_ARGS: u64 = 24;

/// The kernels of the high-word-first sort.
#[derive(Debug)]
pub(super) struct HighFirst {
    choose: Kernel,
    fix_runs: Kernel,
    settle: Kernel,
}

impl HighFirst {
    pub(super) fn build(gpu: &Gpu) -> Result<Self> {
        let max_x = gpu.limits().max_compute_work_group_count[0];
        let build = |entry| {
            wgsl::builder(gpu, SOURCE)
                .entry(entry)
                .constant("WG", WG)
                .constant("MAX_X", max_x)
                .build()
        };
        Ok(Self {
            choose: build("choose")?,
            fix_runs: build("fix_runs")?,
            settle: build("settle")?,
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

impl<K: SortKey> RadixSort<K> {
    /// Records sorting `n` (at least 2) 64-bit keys `words` (two per key, low first) in place,
    /// high word first where the GPU finds that pays (the module's docs).
    pub(super) fn sort_high_first(
        &self,
        commands: &mut Commands,
        high_first: &HighFirst,
        words: &Buffer<u32>,
        n: u32,
    ) -> Result<()> {
        let gpu = &self.gpu;
        let tiles = n.div_ceil(self.wg * self.per);
        let fix_groups = n.div_ceil(WG * FIX_PER);
        let params = self.uniforms.get(gpu, [n, tiles, self.map(), fix_groups])?;
        let args = self
            .scratch
            .indirect(gpu, "sort: high-first arguments", 9)?;
        let state = self.scratch.get(gpu, "sort: high-first state", 2)?;
        let tmp = self.scratch.get(gpu, "items", 2 * n as u64)?;
        high_first
            .choose
            .bind("params", &params)
            .bind("keys", &words.view_as::<UVec2>())
            .bind("state", &state)
            .bind("args", &args)
            .groups([1, 1, 1])
            .record(commands)?;
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
                indirect: Some((&args, HIGH_ARGS)),
            },
        )?;
        high_first
            .fix_runs
            .bind("params", &params)
            .bind("words", words)
            .bind("state", &state)
            .indirect(&args, FIX_ARGS)
            .record(commands)?;
        high_first
            .settle
            .bind("params", &params)
            .bind("state", &state)
            .bind("args", &args)
            .groups([1, 1, 1])
            .record(commands)?;
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
                indirect: Some((&args, FALLBACK_ARGS)),
            },
        )
    }

    /// Which way the last high-word-first sort of `n` keys by this object went (its state, read
    /// back after the sort was submitted).
    #[cfg(test)]
    pub(crate) async fn way(&self) -> Way {
        let state = self
            .scratch
            .get(&self.gpu, "sort: high-first state", 2)
            .expect("the state");
        let state = state.read().await.expect("the state reads back");
        match state[..] {
            [1, 0] => Way::Fast,
            [0, 0] => Way::Narrow,
            [1, 1] => Way::LongRun,
            _ => panic!("no way leaves the state {state:?}"),
        }
    }
}
