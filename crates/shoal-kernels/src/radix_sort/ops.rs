//! The operations of [`RadixSort`], each a [`Record`] of its own arguments: keys in place
//! ([`SortArgs`]), keys with values ([`SortPairsArgs`]) and argsort ([`ArgsortArgs`]); the sort
//! by a computed key is in `by_key.rs`. And [`SortParams`], what a sort compiles in.

use std::ops::Range;

use shoal::{Buffer, Commands, Element, Error, Family, Gpu, Kernel, Record, Result};

use super::passes::{self, Pass};
use super::ranking::{Ranking, Values};
use super::{RadixSort, SortKey};
use crate::buffers::named;
use crate::wgsl;

/// What a [`RadixSort`] compiles into its pipelines, given to [`RadixSort::new`] and
/// [`RadixSort::with_tiling`]. The default sorts by every bit of the key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SortParams {
    /// The bits of the keys' ordered words to order by ([`SortKey`]: the key's own bits for
    /// `u32` and [`U64`](crate::U64), bit 0 the least significant), or `None` for every bit
    /// (`0..32`, `0..64` for 64-bit keys). The sort then takes one pass per digit of each
    /// word's share of those bits (at least two) instead of one per digit of the key: a sort of
    /// `u32` keys below 2^16 by `0..16` takes half the passes, and a 64-bit key's word none of
    /// whose bits count is not sorted. Bits outside the range are ignored: keys equal in it
    /// keep their input order (stable), whatever their other bits. A range that is empty or
    /// reaches past the key's width is an [`Error::InvalidParameter`] from the constructor.
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// use shoal_kernels::{RadixSort, Record, SortArgs, SortParams};
    /// let gpu = shoal::Gpu::blocking()?;
    /// // Cell indices in bits 16..32, particle ids below: sort by cell, ids in input order.
    /// let keys = gpu.buffer_from(&[3 << 16 | 9, 1 << 16 | 7, 3 << 16 | 2, 1 << 16 | 8u32])?;
    /// let by_cell = RadixSort::new(&gpu, SortParams { key_bits: Some(16..32) })?;
    /// by_cell.run(SortArgs { keys: &keys })?;
    /// assert_eq!(keys.read_blocking()?, [1 << 16 | 7, 1 << 16 | 8, 3 << 16 | 9, 3 << 16 | 2]);
    /// # Ok(()) }
    /// ```
    pub key_bits: Option<Range<u32>>,
}

/// What one sort of keys in place reads and writes.
#[derive(Debug, Clone, Copy)]
pub struct SortArgs<'a, K: SortKey> {
    /// The keys, sorted in place.
    pub keys: &'a Buffer<K>,
}

/// What one sort of key-value pairs reads and writes.
#[derive(Debug, Clone, Copy)]
pub struct SortPairsArgs<'a, K: SortKey, V: Element> {
    /// The keys, sorted in place.
    pub keys: &'a Buffer<K>,
    /// One value per key (any element type), moved with its key: another buffer than `keys`.
    pub values: &'a Buffer<V>,
}

/// What one argsort reads and writes.
#[derive(Debug, Clone, Copy)]
pub struct ArgsortArgs<'a, K: SortKey> {
    /// The keys, left as they are.
    pub keys: &'a Buffer<K>,
    /// The permutation: `indices[i]` is the index of the `i`-th key in the sort's order. At
    /// least one element per key (more stay untouched).
    pub indices: &'a Buffer<u32>,
}

impl<K: SortKey> Family for RadixSort<K> {
    fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The digit passes' kernels (and the narrower digits' of [`SortParams::key_bits`]), the
    /// passes around the sort of words, the high-word-first kernels of 64-bit keys where the
    /// sort has them, and the kernels the scan between the passes has compiled so far (it
    /// compiles on first use). The key functions' kernels are theirs.
    fn kernels(&self) -> Vec<&Kernel> {
        let mut kernels = self.kernels.all();
        for (_, narrow) in &self.narrow {
            kernels.extend(narrow.all());
        }
        kernels.push(&self.passes);
        if let Some(high_first) = &self.high_first {
            kernels.extend(high_first.kernels());
        }
        kernels.extend(self.scan.kernels());
        kernels
    }
}

impl<K: SortKey> Record<SortArgs<'_, K>> for RadixSort<K> {
    /// Records sorting `keys` in place.
    fn record(&self, commands: &mut Commands, args: SortArgs<'_, K>) -> Result<()> {
        let SortArgs { keys } = args;
        let commands = &mut commands.labelled("radix_sort");
        let n = self.count(keys)?;
        if n <= 1 {
            return Ok(());
        }
        let words = keys.view_as::<u32>();
        if K::WORDS == 1 {
            let windows = self.windows(None);
            let map = self.map();
            return self.sort_words(commands, &words, &words, Values::None, map, &windows, None);
        }
        // 64-bit keys: the lane counters move them whole (the low word unsigned, in the key's
        // order), by every bit high word first where the keys allow (`high_first.rs`);
        // otherwise LSD over the low words carrying the high ones, then over the high words
        // carrying the low ones (stable, so ties in the high word keep the low word's order).
        if self.ranking == Ranking::Lanes {
            if let Some(high_first) = &self.high_first
                && self.bits == (0..64)
            {
                return self.sort_high_first(commands, high_first, &words, n);
            }
            return self.sort_items(commands, &words, n, [self.map() & 4, self.map()]);
        }
        // A word none of whose bits the sort orders by is not sorted by.
        let (low, high) = self.split(commands, &words, n)?;
        let (low_windows, high_windows) = (self.windows(Some(0)), self.windows(Some(1)));
        if !low_windows.is_empty() {
            let high = Values::Given(&high);
            self.sort_words(commands, &low, &low, high, 0, &low_windows, None)?;
        }
        if !high_windows.is_empty() {
            self.sort_words(
                commands,
                &high,
                &high,
                Values::Given(&low),
                0,
                &high_windows,
                None,
            )?;
        }
        self.pass(
            commands,
            Pass::Join,
            n,
            1,
            [Some(&low), Some(&high)],
            &[&words],
            None,
        )
    }
}

impl<K: SortKey, V: Element> Record<SortPairsArgs<'_, K, V>> for RadixSort<K> {
    /// Records sorting `keys` in place, moving `values` (any element type) with them; equal keys
    /// keep their order (stable). 32-bit keys with 4-byte values move both in every pass; other
    /// pairs sort the keys carrying their indices and then gather the values once.
    fn record(&self, commands: &mut Commands, args: SortPairsArgs<'_, K, V>) -> Result<()> {
        let SortPairsArgs { keys, values } = args;
        let commands = &mut commands.labelled("radix_sort");
        self.distinct(keys, named("values", values))?;
        if values.len() != keys.len() {
            return Err(Error::Length {
                what: "radix sort: values (one per key)".into(),
                expected: keys.len(),
                got: values.len(),
            });
        }
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
        let windows = self.windows(None);
        if K::WORDS == 1 && value_words == 1 {
            let values = Values::Given(&values);
            let map = self.map();
            return self.sort_words(commands, &words, &words, values, map, &windows, None);
        }
        let indices = self.scratch.get(&self.gpu, "sort: indices", n as u64)?;
        if K::WORDS == 1 {
            let indices = Values::Indices(&indices);
            let map = self.map();
            self.sort_words(commands, &words, &words, indices, map, &windows, None)?;
        } else {
            self.permutation(commands, &words, &indices, n)?;
            self.gather(commands, &words, &indices, n, K::WORDS)?;
        }
        self.gather(commands, &values, &indices, n, value_words)
    }
}

impl<K: SortKey> Record<ArgsortArgs<'_, K>> for RadixSort<K> {
    /// Records writing the permutation that sorts `keys` into `indices`: `indices[i]` is the
    /// index of the `i`-th key in the sort's order, equal keys by index (stable). The keys are
    /// left as they are; `indices` needs at least one element per key (more stay untouched).
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// use shoal_kernels::{ArgsortArgs, RadixSort, Record, SortOrder, U64};
    /// let gpu = shoal::Gpu::blocking()?;
    /// let keys = gpu.buffer_from(&[U64(1 << 33), U64(2), U64(1 << 33), U64(0)])?;
    /// let indices = gpu.buffer_zeroed::<u32>(4)?;
    /// let mut sort = RadixSort::new(&gpu, Default::default())?;
    /// sort.set_order(SortOrder::Descending);
    /// let mut commands = gpu.commands();
    /// sort.record(&mut commands, ArgsortArgs { keys: &keys, indices: &indices })?;
    /// commands.submit()?;
    /// assert_eq!(indices.read_blocking()?, [0, 2, 1, 3]);
    /// # Ok(()) }
    /// ```
    fn record(&self, commands: &mut Commands, args: ArgsortArgs<'_, K>) -> Result<()> {
        let ArgsortArgs { keys, indices } = args;
        let commands = &mut commands.labelled("radix_sort");
        self.distinct(keys, named("indices", indices))?;
        wgsl::at_least(
            "radix sort: argsort indices (one per key)",
            keys.len(),
            indices.len(),
        )?;
        let n = self.count(keys)?;
        if n == 0 {
            return Ok(());
        }
        self.permutation(commands, &keys.view_as::<u32>(), indices, n)
    }
}
