//! The bits of its keys a [`RadixSort`] orders by ([`SortParams::key_bits`](crate::SortParams::key_bits)), and the digit
//! windows that cover them: one pass each.

use std::ops::Range;

use shoal::{Error, Result};

use super::RadixSort;
use super::keys::SortKey;

/// One digit pass: the word of the key it reads (0, the low), where its digit starts in that
/// word, and how many bits it takes: the ranking's whole digit, or fewer where the word's share
/// of the key bits is narrower (a pipeline of its own, `DIGIT_MASK` in the WGSL).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Window {
    pub(super) word: u32,
    pub(super) shift: u32,
    pub(super) width: u32,
}

/// The windows of `digit_bits`-bit digits that cover `bits` (of a key's ordered words, word 0 the
/// low, least significant first): each word's share in as few whole digits as cover it, the last
/// ending at the share's end and so overlapping the one before where the share is not a multiple
/// of a digit (sorting by an overlap twice changes nothing: equal bits keep their order), or one
/// narrower digit where the share is narrower than one. No window reaches a bit outside `bits`.
pub(super) fn windows(bits: &Range<u32>, digit_bits: u32) -> Vec<Window> {
    let mut windows = Vec::new();
    for word in 0..bits.end.div_ceil(32) {
        let start = bits.start.max(32 * word) - 32 * word;
        let end = bits.end.min(32 * word + 32).saturating_sub(32 * word);
        if start >= end {
            continue;
        }
        let width = end - start;
        if width < digit_bits {
            windows.push(Window {
                word,
                shift: start,
                width,
            });
            continue;
        }
        windows.extend((0..width.div_ceil(digit_bits)).map(|i| Window {
            word,
            shift: (start + i * digit_bits).min(end - digit_bits),
            width: digit_bits,
        }));
    }
    windows
}

impl<K: SortKey> RadixSort<K> {
    /// Orders keys by the bits `bits` of their ordered words alone ([`SortParams::key_bits`](crate::SortParams::key_bits)),
    /// compiling the narrower digits' kernels they need; an [`Error::InvalidParameter`] where
    /// `bits` is empty or reaches past the key's width.
    pub(super) fn order_by_bits(&mut self, bits: Range<u32>) -> Result<()> {
        let width = 32 * K::WORDS;
        if bits.start >= bits.end || bits.end > width {
            return Err(Error::InvalidParameter {
                kernel: "RadixSort".into(),
                parameter: "key bits".into(),
                value: format!("{bits:?}"),
                rule: format!(
                    "a non-empty range of the key's bits, within 0..{width} for {}",
                    K::type_name()
                ),
            });
        }
        let digit_bits = self.ranking.bits();
        let mut narrow = Vec::new();
        for w in windows(&bits, digit_bits) {
            if w.width < digit_bits && !narrow.iter().any(|(width, _)| *width == w.width) {
                let mask = (1 << w.width) - 1;
                narrow.push((w.width, self.pass_kernels(Some(mask))?));
            }
        }
        self.bits = bits;
        self.narrow = narrow;
        Ok(())
    }

    /// The bits of the keys' ordered words this sort orders by
    /// ([`SortParams::key_bits`](crate::SortParams::key_bits)).
    pub fn key_bits(&self) -> Range<u32> {
        self.bits.clone()
    }

    /// This sort's windows of every word of a key (`None`), or of word `word` alone (0 or 1) as
    /// windows of a sort of those words by themselves (word 0).
    pub(super) fn windows(&self, word: Option<u32>) -> Vec<Window> {
        let all = windows(&self.bits, self.ranking.bits());
        match word {
            None => all,
            Some(word) => all
                .into_iter()
                .filter(|w| w.word == word)
                .map(|w| Window { word: 0, ..w })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(word: u32, shift: u32, width: u32) -> Window {
        Window { word, shift, width }
    }

    #[test]
    fn whole_keys_take_whole_digits() {
        let eight: Vec<_> = (0..4).map(|i| w(0, 8 * i, 8)).collect();
        assert_eq!(windows(&(0..32), 8), eight);
        assert_eq!(windows(&(0..32), 4).len(), 8);
        let wide = windows(&(0..64), 8);
        assert_eq!(wide.len(), 8);
        assert_eq!(wide[4], w(1, 0, 8));
    }

    #[test]
    fn a_share_that_is_not_whole_digits_overlaps_its_last() {
        assert_eq!(windows(&(0..20), 8), [w(0, 0, 8), w(0, 8, 8), w(0, 12, 8)]);
        assert_eq!(windows(&(16..32), 8), [w(0, 16, 8), w(0, 24, 8)]);
        assert_eq!(windows(&(3..11), 8), [w(0, 3, 8)]);
    }

    #[test]
    fn a_share_narrower_than_a_digit_takes_a_narrow_one() {
        assert_eq!(windows(&(5..8), 8), [w(0, 5, 3)]);
        assert_eq!(windows(&(31..32), 4), [w(0, 31, 1)]);
        // Across the words of a 64-bit key: each word's share apart.
        assert_eq!(windows(&(30..40), 8), [w(0, 30, 2), w(1, 0, 8)]);
        assert_eq!(
            windows(&(40..64), 8),
            [w(1, 8, 8), w(1, 16, 8), w(1, 24, 8)]
        );
    }
}
