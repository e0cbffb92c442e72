//! The spread sort: every key type and order, keys and pairs, 1 to 4 devices, even, uneven and
//! empty parts, against a stable CPU sort.

use std::cmp::Ordering;

use shoal_kernels::{I64, SortKey, SortOrder, U64};
use shoal_scale::{Group, SpreadKey};

use crate::{group, splits, words};

/// `keys` with their global indices, stably sorted by key in `order`: the CPU's answer.
fn reference<K: SortKey>(keys: &[K], order: SortOrder) -> (Vec<K>, Vec<u32>) {
    let mut pairs: Vec<(K, u32)> = keys.iter().copied().zip(0..).collect();
    pairs.sort_by(|a, b| match order {
        SortOrder::Ascending => a.0.sort_cmp(&b.0),
        SortOrder::Descending => b.0.sort_cmp(&a.0),
    });
    pairs.into_iter().unzip()
}

/// Bitwise equality, so that `f32`'s -0.0 and NaNs count as the sort orders them.
fn same<K: SortKey>(a: &[K], b: &[K]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.sort_cmp(y) == Ordering::Equal)
}

/// Sorts `keys` alone and as pairs with their global indices over every split of `group`, and
/// compares both with [`reference`] (the pairs' values show the sort is stable).
fn check<K: SpreadKey>(group: &Group, keys: &[K], order: SortOrder) {
    let (want_keys, want_values) = reference(keys, order);
    let indices: Vec<u32> = (0..keys.len() as u32).collect();
    for lens in splits(keys.len() as u64, group.len()) {
        let spread = group.split(keys, &lens).expect("split");
        let sorted = group.sort(spread, order).expect("sort");
        let got = sorted.read().expect("read");
        let what = format!(
            "{} {order:?}, {} keys over {lens:?}",
            K::type_name(),
            keys.len()
        );
        assert!(same(&got, &want_keys), "keys: {what}");
        let starts: Vec<u64> = sorted.parts().iter().map(|p| p.start).collect();
        let mut expected_start = 0;
        for (start, len) in starts.iter().zip(sorted.lens()) {
            assert_eq!(*start, expected_start, "ranges: {what}");
            expected_start += len;
        }

        let (k, v) = (
            group.split(keys, &lens).expect("split"),
            group.split(&indices, &lens).expect("split"),
        );
        let (k, v) = group.sort_pairs(k, v, order).expect("sort pairs");
        assert!(
            same(&k.read().expect("read"), &want_keys),
            "pairs' keys: {what}"
        );
        assert_eq!(
            v.read().expect("read"),
            want_values,
            "pairs' values (stable): {what}"
        );
    }
}

fn floats(n: usize, seed: u64) -> Vec<f32> {
    let specials = [0.0, -0.0, f32::INFINITY, f32::NEG_INFINITY, 1.5, -1.5];
    words(n, seed)
        .iter()
        .enumerate()
        .map(|(i, &w)| match i % 7 {
            0 => specials[(w % 6) as usize],
            _ => (w as i32 >> 8) as f32 / 64.0,
        })
        .collect()
}

fn wide(n: usize, seed: u64) -> Vec<u64> {
    let (hi, lo) = (words(n, seed), words(n, seed + 1));
    // Few distinct high words: the low word decides often.
    hi.iter()
        .zip(lo)
        .map(|(&h, l)| u64::from(h % 5) << 32 | u64::from(l))
        .collect()
}

const ORDERS: [SortOrder; 2] = [SortOrder::Ascending, SortOrder::Descending];

#[test]
fn every_key_type_and_order_over_four_devices() {
    let group = group(4);
    for n in [0usize, 1, 2, 255, 1000] {
        for order in ORDERS {
            check(&group, &words(n, 1 + n as u64), order);
            check(
                &group,
                &words(n, 2 + n as u64)
                    .iter()
                    .map(|&w| w as i32)
                    .collect::<Vec<_>>(),
                order,
            );
            check(&group, &floats(n, 3 + n as u64), order);
            check(
                &group,
                &wide(n, 4).into_iter().map(U64).collect::<Vec<_>>(),
                order,
            );
            check(
                &group,
                &wide(n, 5)
                    .into_iter()
                    .map(|w| I64(w as i64 - (3 << 32)))
                    .collect::<Vec<_>>(),
                order,
            );
        }
    }
}

#[test]
fn one_to_four_devices_up_to_65536_keys() {
    for devices in 1..=4 {
        let group = group(devices);
        for n in [3usize, 64, 1025, 65_536] {
            check(&group, &words(n, 11 + n as u64), SortOrder::Ascending);
        }
    }
}

#[test]
fn duplicates_are_split_between_devices() {
    let group = group(4);
    // Three distinct keys: runs of equal keys far longer than a device's share.
    let keys: Vec<u32> = words(40_000, 21).iter().map(|w| w % 3).collect();
    for order in ORDERS {
        check(&group, &keys, order);
        let sorted = group
            .sort(group.split_even(&keys).expect("split"), order)
            .expect("sort");
        let largest = sorted.lens().into_iter().max().unwrap_or(0);
        assert!(
            largest <= 12_000,
            "parts {:?}: equal keys should spread",
            sorted.lens()
        );
    }
    check(&group, &vec![7u32; 5000], SortOrder::Ascending);
}

#[test]
fn four_million_keys_and_pairs_over_four_devices() {
    let group = group(4);
    let keys = words(1 << 22, 99);
    let indices: Vec<u32> = (0..keys.len() as u32).collect();
    // Indices are distinct, so sorting (key, index) is the stable sort by key.
    let mut want: Vec<(u32, u32)> = keys.iter().copied().zip(indices.iter().copied()).collect();
    want.sort_unstable();
    let (want_keys, want_values): (Vec<u32>, Vec<u32>) = want.into_iter().unzip();

    let sorted = group.sort(
        group.split_even(&keys).expect("split"),
        SortOrder::Ascending,
    );
    assert!(
        sorted.expect("sort").read().expect("read") == want_keys,
        "2^22 keys"
    );

    let lens = &splits(keys.len() as u64, 4)[1]; // uneven
    let (k, v) = (
        group.split(&keys, lens).expect("split"),
        group.split(&indices, lens).expect("split"),
    );
    let (k, v) = group
        .sort_pairs(k, v, SortOrder::Ascending)
        .expect("sort pairs");
    assert!(k.read().expect("read") == want_keys, "2^22 pairs' keys");
    assert!(v.read().expect("read") == want_values, "2^22 pairs' values");
}
