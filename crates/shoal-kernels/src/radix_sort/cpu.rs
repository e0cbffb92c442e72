//! The CPU twins of [`RadixSort`](crate::RadixSort): a stable comparison sort by
//! [`SortKey::sort_cmp`], which knows nothing of the GPU's word maps.

use std::ops::Range;

use super::keys::{SortKey, SortOrder};

/// The CPU twin of an argsort ([`ArgsortArgs`](crate::ArgsortArgs)): element `i` is the
/// index of the `i`-th key in `order`, equal keys by index (stable).
///
/// ```
/// use shoal_kernels::{SortOrder, argsort_cpu};
/// assert_eq!(argsort_cpu(&[2.5f32, -1.0, 2.5, f32::NAN], SortOrder::Ascending), [1, 0, 2, 3]);
/// assert_eq!(argsort_cpu(&[2.5f32, -1.0, 2.5, f32::NAN], SortOrder::Descending), [3, 0, 2, 1]);
/// ```
pub fn argsort_cpu<K: SortKey>(keys: &[K], order: SortOrder) -> Vec<u32> {
    let mut indices: Vec<u32> = (0..keys.len() as u32).collect();
    // `sort_by` is stable: equal keys keep their order in either direction.
    match order {
        SortOrder::Ascending => {
            indices.sort_by(|&a, &b| keys[a as usize].sort_cmp(&keys[b as usize]));
        }
        SortOrder::Descending => {
            indices.sort_by(|&a, &b| keys[b as usize].sort_cmp(&keys[a as usize]));
        }
    }
    indices
}

/// The CPU twin of an argsort ([`ArgsortArgs`](crate::ArgsortArgs)) of a sort by the key bits
/// `bits` ([`SortParams::key_bits`](crate::SortParams::key_bits)): as [`argsort_cpu`], the keys
/// compared by the bits `bits` of their [`SortKey::ordered`] words alone. `bits` is a range the
/// sort takes (non-empty, within the key's width); bits past 63 count as bit 63.
///
/// ```
/// use shoal_kernels::{SortOrder, argsort_bits_cpu};
/// let keys = [0x1_05u32, 0x2_01, 0x0_07, 0x1_01];
/// assert_eq!(argsort_bits_cpu(&keys, SortOrder::Ascending, 8..16), [2, 0, 3, 1]);
/// assert_eq!(argsort_bits_cpu(&keys, SortOrder::Descending, 0..4), [2, 0, 1, 3]);
/// ```
pub fn argsort_bits_cpu<K: SortKey>(keys: &[K], order: SortOrder, bits: Range<u32>) -> Vec<u32> {
    let width = bits.end.saturating_sub(bits.start);
    let mask = if width >= 64 {
        u64::MAX
    } else {
        (1 << width) - 1
    };
    let of = |i: u32| (keys[i as usize].ordered() >> bits.start.min(63)) & mask;
    let mut indices: Vec<u32> = (0..keys.len() as u32).collect();
    match order {
        SortOrder::Ascending => indices.sort_by_key(|&i| of(i)),
        SortOrder::Descending => indices.sort_by_key(|&i| std::cmp::Reverse(of(i))),
    }
    indices
}

/// The CPU twin of a sort of keys ([`SortArgs`](crate::SortArgs)): the keys in `order`.
///
/// ```
/// use shoal_kernels::{SortOrder, sort_cpu};
/// let sorted = sort_cpu(&[1.0f32, -0.0, f32::NEG_INFINITY, 0.0], SortOrder::Ascending);
/// let bits: Vec<u32> = sorted.iter().map(|x| x.to_bits()).collect();
/// assert_eq!(bits, [f32::NEG_INFINITY, -0.0, 0.0, 1.0].map(f32::to_bits));
/// ```
pub fn sort_cpu<K: SortKey>(keys: &[K], order: SortOrder) -> Vec<K> {
    gather(keys, &argsort_cpu(keys, order))
}

/// The CPU twin of a sort of pairs ([`SortPairsArgs`](crate::SortPairsArgs)) ascending: a stable sort
/// of the pairs by key.
///
/// ```
/// use shoal_kernels::sort_pairs_cpu;
/// assert_eq!(sort_pairs_cpu(&[2u32, 1, 2], &["a", "b", "c"]), (vec![1, 2, 2], vec!["b", "a", "c"]));
/// ```
pub fn sort_pairs_cpu<K: SortKey, V: Clone>(keys: &[K], values: &[V]) -> (Vec<K>, Vec<V>) {
    let indices = argsort_cpu(keys, SortOrder::Ascending);
    (gather(keys, &indices), gather(values, &indices))
}

/// `items` in the order `indices` gives.
pub(crate) fn gather<T: Clone>(items: &[T], indices: &[u32]) -> Vec<T> {
    indices.iter().map(|&i| items[i as usize].clone()).collect()
}
