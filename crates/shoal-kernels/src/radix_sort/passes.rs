//! The passes [`RadixSort`] records around its sort of `u32` words (`wgsl/sort_keys.wgsl`):
//! 64-bit keys split into their two ordered words and joined again, the identity permutation
//! (where the sort's first pass does not make it), and gathers by a permutation. One entry point,
//! the operation chosen by a uniform: one pipeline for every key type and order. (The sort itself
//! maps 32-bit keys as it loads and stores them.)

use shoal::glam::UVec4;
use shoal::{Buffer, Commands, Element, Error, Gpu, Kernel, Result};

use super::keys::{SortKey, SortOrder};
use super::ranking::{Ranking, Values};
use super::{RadixSort, wgsl};

pub(super) const SOURCE: shoal::Source = shoal::wgsl!("../../wgsl/sort_keys.wgsl");
/// Invocations per work group (`WG` in the WGSL).
const WG: u32 = 64;

/// Elements (a gather's units) per invocation (`PER` in the WGSL) beside the sort of `ranking`:
/// 64 beside the 8-bit sort of software adapters (`Ranking::Lanes`), where SwiftShader pays a
/// fixed cost per invocation (`wgsl/sort_keys.wgsl` has the figures); 8 beside the 4-bit sorts a
/// GPU takes, where nothing measured says otherwise (and which the tests force on software
/// adapters too, so both are tested).
pub(super) fn per_invocation(ranking: Ranking) -> u32 {
    match ranking {
        Ranking::Lanes => 64,
        _ => 8,
    }
}

/// Elements per work group beside the sort of `ranking` (`WG` × `PER` in the WGSL).
pub(super) fn group_elements(ranking: Ranking) -> u32 {
    WG * per_invocation(ranking)
}

/// The operations of `sort_keys.wgsl` (`params.op`).
#[derive(Debug, Clone, Copy)]
pub(super) enum Pass {
    /// 64-bit keys `a` to ordered low words `out4` and high words `out_b4` (the two outputs,
    /// of whole vec4s), four keys at a time.
    Split = 1,
    /// Ordered low words `a` and high words `b` to 64-bit keys `out`.
    Join = 2,
    /// `out[i] = i`.
    Iota = 3,
    /// Element `i` of `out` = element `b[i]` of `a`, elements of `words` words (a multiple of
    /// 4 moves as vec4s, `a4` and `out4`).
    Gather = 4,
}

/// The kernel of the passes beside the sort of `ranking`.
pub(super) fn kernel(gpu: &Gpu, ranking: Ranking) -> Result<Kernel> {
    wgsl::builder(gpu, SOURCE)
        .entry("sort_keys")
        .constant("PER", per_invocation(ranking))
        .build()
}

/// The `u32` words of one `V`: its stride over 4, or an error for a stride the kernels cannot
/// move (not whole words).
pub(super) fn words_per_element<V: Element>() -> Result<u32> {
    if V::STRIDE == 0 || !V::STRIDE.is_multiple_of(4) {
        return Err(Error::InvalidParameter {
            kernel: "RadixSort".into(),
            parameter: format!("the stride of the values' type {}", V::type_name()),
            value: format!("{} bytes", V::STRIDE),
            rule: "values move as u32 words: their stride must be a multiple of 4 bytes".into(),
        });
    }
    wgsl::count_u32("radix sort: words per value", V::STRIDE / 4)
}

/// The units a gather of `n` elements of `words` words moves, one per invocation and loop trip:
/// vec4s where `words` is a multiple of 4, words otherwise.
fn gather_units(n: u32, words: u32) -> u64 {
    let per = if words.is_multiple_of(4) {
        words / 4
    } else {
        words
    };
    u64::from(n) * u64::from(per)
}

impl<K: SortKey> RadixSort<K> {
    /// The map of the keys' (most significant) word: its kind, plus 4 when descending (0, the
    /// identity, for `u32` ascending).
    pub(super) fn map(&self) -> u32 {
        K::KIND
            + if self.order == SortOrder::Descending {
                4
            } else {
                0
            }
    }

    /// Records `pass` over `n` elements: inputs `a` and `b`, one output (two for a split); what
    /// a pass does not use is bound to one-word stand-ins it never touches. A gather of whole
    /// vec4s reads and writes through the vec4 views `a4` and `out4` instead of `a` and `out`, a
    /// split reads `a4` (and `a`) and writes `out4` and `out_b4`. The work groups come from
    /// `indirect` if given (one per [`group_elements`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pass(
        &self,
        commands: &mut Commands,
        pass: Pass,
        n: u32,
        words: u32,
        [a, b]: [Option<&Buffer<u32>>; 2],
        outputs: &[&Buffer<u32>],
        indirect: Option<(&Buffer<u32>, u64)>,
    ) -> Result<()> {
        let stand_in = |name| self.scratch.get(&self.gpu, name, 1);
        let a = a.map_or_else(|| stand_in("sort: no a"), |b| Ok(b.clone()))?;
        let b = b.map_or_else(|| stand_in("sort: no b"), |b| Ok(b.clone()))?;
        let vec4s = |b: &Buffer<u32>| self.scratch.vec4s(&self.gpu, b);
        let no_vec4s = |name| Ok::<_, Error>(self.scratch.get(&self.gpu, name, 4)?.view_as());
        // An output is bound either as words (`out`) or as vec4s, never both: two writable
        // bindings of one buffer are refused.
        let (a4, out, out4, out_b4) = match pass {
            Pass::Gather if words.is_multiple_of(4) => (
                vec4s(&a)?,
                stand_in("sort: no out")?,
                vec4s(outputs[0])?,
                no_vec4s("sort: no out_b4")?,
            ),
            Pass::Split => (
                vec4s(&a)?,
                stand_in("sort: no out")?,
                vec4s(outputs[0])?,
                vec4s(outputs[1])?,
            ),
            _ => (
                no_vec4s("sort: no a4")?,
                outputs[0].clone(),
                no_vec4s("sort: no out4")?,
                no_vec4s("sort: no out_b4")?,
            ),
        };
        // `b` as vec4s (a gather's indices), or a stand-in no pass writes.
        let b4 = match b.view_as::<UVec4>() {
            v if v.is_empty() => no_vec4s("sort: no b4")?,
            v => v,
        };
        let params = self
            .uniforms
            .get(&self.gpu, [n, pass as u32, self.map(), words])?;
        let dispatch = self
            .passes
            .bind("params", &params)
            .bind("a", &a)
            .bind("b", &b)
            .bind("out", &out)
            .bind("a4", &a4)
            .bind("out4", &out4)
            .bind("out_b4", &out_b4)
            .bind("b4", &b4);
        match indirect {
            Some((args, at)) => dispatch.indirect(args, at),
            None => {
                let units = match pass {
                    Pass::Gather => gather_units(n, words),
                    _ => u64::from(n),
                };
                dispatch.invocations(units.div_ceil(u64::from(per_invocation(self.ranking))))
            }
        }
        .record(commands)
    }

    /// Records splitting `n` 64-bit keys (`2n` words) into scratch buffers of their ordered low
    /// and high words (slices of `n` words of buffers of whole vec4s, which the split writes).
    pub(super) fn split(
        &self,
        commands: &mut Commands,
        keys: &Buffer<u32>,
        n: u32,
    ) -> Result<(Buffer<u32>, Buffer<u32>)> {
        let words = u64::from(n).next_multiple_of(4);
        let low = self.scratch.get(&self.gpu, "sort: low words", words)?;
        let high = self.scratch.get(&self.gpu, "sort: high words", words)?;
        self.pass(
            commands,
            Pass::Split,
            n,
            1,
            [Some(keys), None],
            &[&low, &high],
            None,
        )?;
        Ok((low.slice(..u64::from(n))?, high.slice(..u64::from(n))?))
    }

    /// Records writing the permutation that sorts the `n` keys whose words are `keys` into
    /// `indices` (the keys unchanged): the keys' indices sorted with them, the keys' words
    /// sorted into scratch; 64-bit keys first by the low words, then by the high words gathered
    /// in that order (LSD, stable), or with 8-bit digits high word first where the GPU finds
    /// the keys allow (`high_first.rs`).
    pub(super) fn permutation(
        &self,
        commands: &mut Commands,
        keys: &Buffer<u32>,
        indices: &Buffer<u32>,
        n: u32,
    ) -> Result<()> {
        if K::WORDS == 1 {
            let sorted = self.scratch.get(&self.gpu, "sort: keys sorted", n as u64)?;
            let indices = Values::Indices(indices);
            let windows = self.windows(None);
            let map = self.map();
            return self.sort_words(commands, keys, &sorted, indices, map, &windows, None);
        }
        if let Some(kernels) = &self.high_first
            && self.bits == (0..64)
            && n > 1
        {
            return self.permutation_high_first(commands, kernels, keys, indices, n);
        }
        // A word none of whose bits the sort orders by is not sorted by.
        let (low, high) = self.split(commands, keys, n)?;
        let (low_windows, high_windows) = (self.windows(Some(0)), self.windows(Some(1)));
        if low_windows.is_empty() {
            let indices = Values::Indices(indices);
            return self.sort_words(commands, &high, &high, indices, 0, &high_windows, None);
        }
        self.sort_words(
            commands,
            &low,
            &low,
            Values::Indices(indices),
            0,
            &low_windows,
            None,
        )?;
        if high_windows.is_empty() {
            return Ok(());
        }
        let high_sorted = self
            .scratch
            .get(&self.gpu, "sort: high words gathered", n as u64)?;
        self.pass(
            commands,
            Pass::Gather,
            n,
            1,
            [Some(&high), Some(indices)],
            &[&high_sorted],
            None,
        )?;
        let indices = Values::Given(indices);
        self.sort_words(
            commands,
            &high_sorted,
            &high_sorted,
            indices,
            0,
            &high_windows,
            None,
        )
    }

    /// Records permuting `n` elements of `words` words each in place: element `i` becomes
    /// element `indices[i]`, gathered into scratch and copied back.
    pub(super) fn gather(
        &self,
        commands: &mut Commands,
        data: &Buffer<u32>,
        indices: &Buffer<u32>,
        n: u32,
        words: u32,
    ) -> Result<()> {
        let gathered = self
            .scratch
            .get(&self.gpu, "sort: gathered", n as u64 * words as u64)?;
        self.pass(
            commands,
            Pass::Gather,
            n,
            words,
            [Some(data), Some(indices)],
            &[&gathered],
            None,
        )?;
        commands.copy(&gathered, data)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_move_as_whole_words() {
        assert_eq!(words_per_element::<u32>(), Ok(1));
        assert_eq!(words_per_element::<[u32; 4]>(), Ok(4));
        assert_eq!(words_per_element::<shoal::glam::Vec3>(), Ok(4));
        assert!(matches!(
            words_per_element::<Half>(),
            Err(Error::InvalidParameter { .. })
        ));
    }

    /// A gather takes one unit (a vec4, or a word where the stride is not a multiple of 16
    /// bytes) per invocation and loop trip, so its trips per invocation do not grow with the
    /// width (llvmpipe ends an invocation's loops past 65,535).
    #[test]
    fn gathers_move_units() {
        assert_eq!(gather_units(10, 1), 10);
        assert_eq!(gather_units(10, 4), 10);
        assert_eq!(gather_units(10, 8), 20);
        assert_eq!(gather_units(10, 6), 60);
        assert_eq!(gather_units(u32::MAX, u32::MAX), u64::from(u32::MAX).pow(2));
    }

    /// The gather of one-vec4 values takes four consecutive units per trip (their indices as
    /// one vec4 of `b4`), so a block of `PER` x `WG` units must hold whole fours.
    #[test]
    fn gathers_take_whole_fours_per_invocation() {
        for ranking in [Ranking::Subgroup, Ranking::Shared, Ranking::Lanes] {
            assert_eq!(per_invocation(ranking) % 4, 0, "{ranking:?}");
        }
    }

    #[repr(C)]
    #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
    struct Half(u16);
    shoal::pod_element!(Half);
}
