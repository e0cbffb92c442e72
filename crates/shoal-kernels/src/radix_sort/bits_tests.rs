//! Sorts by some of the keys' bits (`SortParams::key_bits`) against `argsort_bits_cpu`, for
//! every key type: ranges whose last digit overlaps the one before, ranges narrower than a digit,
//! ranges across a 64-bit key's two words or within one of them; keys alone, pairs carrying their
//! indices (so the bits left out must not order equal keys: stability), and the argsort; with the
//! adapter's sort and the 4-bit one; and the ranges refused.

use std::ops::Range;

use super::key_tests::{TestKey, bits, keys, sort_by_words, sorts_with};
use crate::test_support::*;
use crate::{I64, SortOrder, U64, argsort_bits_cpu, radix_sort::cpu::gather};

/// The ranges of 32-bit keys: every bit, the high half, a last digit overlapping (0..20), one
/// window off a digit boundary (3..11), narrower than any digit (5..8, and the top bit alone).
const NARROW: &[Range<u32>] = &[0..32, 16..32, 0..20, 3..11, 5..8, 31..32];
/// The ranges of 64-bit keys: every bit, the low word's top two bits and the high word's lowest
/// byte (a narrow digit in each word), the low word alone (0..20), the high word alone (40..64,
/// and its lowest bit), and both words' middle.
const WIDE: &[Range<u32>] = &[0..64, 30..40, 0..20, 40..64, 32..33, 12..52];

/// Keys alone at every size; pairs with their indices as values and the argsort at two. Orders
/// alternate by range.
async fn check_bits<K: TestKey>(gpu: &Gpu, ranges: &[Range<u32>], seed: u64) {
    let mut sizes = vec![0, 1, 9, 16_385];
    sizes.extend(random_sizes(seed, 1, 1 << 17));
    for (r, range) in ranges.iter().enumerate() {
        let order = [SortOrder::Ascending, SortOrder::Descending][r % 2];
        let params = SortParams {
            key_bits: Some(range.clone()),
        };
        for (name, sort) in sorts_with::<K>(gpu, order, params) {
            assert_eq!(sort.key_bits(), *range);
            for &n in &sizes {
                let label = format!(
                    "{} bits {range:?} {order:?} n = {n}, {name}",
                    std::any::type_name::<K>()
                );
                let keys: Vec<K> = keys(seed + n + r as u64, n);
                let want = argsort_bits_cpu(&keys, order, range.clone());
                let kb = gpu.buffer_from(&keys).expect("keys");
                sort.run(SortArgs { keys: &kb }).expect("sort");
                let got = bits(&kb.read().await.expect("keys"));
                let expected = bits(&gather(&keys, &want));
                assert_eq!(first_difference(&got, &expected), None, "{label}: keys");
                if n != 9 && n < 16_386 {
                    continue;
                }
                let indices: Vec<u32> = (0..n as u32).collect();
                let (kb, vb) = (
                    gpu.buffer_from(&keys).expect("k"),
                    gpu.buffer_from(&indices).expect("v"),
                );
                sort.run(SortPairsArgs {
                    keys: &kb,
                    values: &vb,
                })
                .expect("pairs");
                let got_v = vb.read().await.expect("values");
                assert_eq!(
                    first_difference(&got_v, &want),
                    None,
                    "{label}: pair values"
                );
                assert_eq!(
                    bits(&kb.read().await.expect("k")),
                    expected,
                    "{label}: pair keys"
                );
                let (kb, ib) = (
                    gpu.buffer_from(&keys).expect("k"),
                    gpu.buffer_zeroed::<u32>(n).expect("i"),
                );
                sort.run(ArgsortArgs {
                    keys: &kb,
                    indices: &ib,
                })
                .expect("argsort");
                let got_i = ib.read().await.expect("indices");
                assert_eq!(first_difference(&got_i, &want), None, "{label}: argsort");
            }
        }
    }
}

/// `n` keys in a buffer wrapped with `Buffer::from_raw`, usable as storage and copied from, not
/// into (no `COPY_DST`).
fn raw_keys<K: TestKey>(gpu: &Gpu, keys: &[K]) -> shoal::Buffer<K> {
    let bytes: Vec<u8> = keys
        .iter()
        .flat_map(|k| k.bits().to_le_bytes()[..K::STRIDE as usize].to_vec())
        .collect();
    let raw = gpu.device().create_buffer(&shoal::wgpu::BufferDescriptor {
        label: Some("keys without COPY_DST"),
        size: bytes.len() as u64,
        usage: shoal::wgpu::BufferUsages::STORAGE | shoal::wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: true,
    });
    raw.slice(..)
        .get_mapped_range_mut()
        .expect("mapped at creation")
        .copy_from_slice(&bytes);
    raw.unmap();
    shoal::Buffer::from_raw(gpu, raw, keys.len() as u64).expect("wrap")
}

shoal_conformance::gpu_test! {
    /// Odd numbers of passes (0..12 with 4-bit digits, 0..20 with 8-bit ones, a 64-bit key's
    /// 4..40) end where they should without a copy into place: an argsort's indices longer than
    /// the keys keep their tail, and keys that cannot be copied into (no `COPY_DST`) sort. Where
    /// a sort does copy back (64-bit keys carrying values: the keys gathered by the
    /// permutation), such keys are `MissingUsage` before anything is submitted.
    async fn keys_without_copy_dst_and_longer_indices(gpu) {
        let n = 1_000u64;
        for (r, range) in [0..12, 0..20, 5..8, 0..32].into_iter().enumerate() {
            let order = [SortOrder::Ascending, SortOrder::Descending][r % 2];
            let params = SortParams { key_bits: Some(range.clone()) };
            for (name, sort) in sorts_with::<u32>(&gpu, order, params) {
                let label = format!("u32 {range:?} {order:?}, {name}");
                let keys: Vec<u32> = keys(11, n);
                let want = argsort_bits_cpu(&keys, order, range.clone());
                let ib = gpu.buffer_from(&vec![u32::MAX; n as usize + 3]).expect("indices");
                sort.run(ArgsortArgs { keys: &gpu.buffer_from(&keys).expect("k"), indices: &ib }).expect("argsort");
                let got = ib.read().await.expect("indices");
                assert_eq!(first_difference(&got[..n as usize], &want), None, "{label}: argsort");
                assert_eq!(got[n as usize..], [u32::MAX; 3], "{label}: past the keys");
                let kb = raw_keys(&gpu, &keys);
                sort.run(SortArgs { keys: &kb }).expect("keys without COPY_DST");
                assert_eq!(bits(&kb.read().await.expect("k")), bits(&gather(&keys, &want)), "{label}: raw keys");
            }
        }
        let params = SortParams { key_bits: Some(4..40) };
        for (name, sort) in sorts_with::<U64>(&gpu, SortOrder::Ascending, params) {
            let keys: Vec<U64> = keys(12, n);
            let want = argsort_bits_cpu(&keys, SortOrder::Ascending, 4..40);
            let ib = gpu.buffer_zeroed::<u32>(n + 1).expect("indices");
            sort.run(ArgsortArgs { keys: &gpu.buffer_from(&keys).expect("k"), indices: &ib }).expect("argsort");
            assert_eq!(first_difference(&ib.read().await.expect("i")[..n as usize], &want), None, "U64 {name}");
            let kb = raw_keys(&gpu, &keys);
            sort.run(SortArgs { keys: &kb }).expect("keys without COPY_DST");
            assert_eq!(bits(&kb.read().await.expect("k")), bits(&gather(&keys, &want)), "U64 raw keys, {name}");
            let values = gpu.buffer_zeroed::<u32>(n).expect("values");
            let e = sort.run(SortPairsArgs { keys: &kb, values: &values }).expect_err("a copy back into the keys");
            assert!(matches!(&e, shoal::Error::MissingUsage { .. }) && e.to_string().contains("COPY_DST"), "{e}");
        }
    }

    /// u32 keys by some of their bits: cell indices above particle ids, and every kind of window.
    async fn sort_u32_by_some_bits(gpu) {
        check_bits::<u32>(&gpu, NARROW, 600).await;
    }

    /// i32 and f32 keys by bits of their ordered words (sign bit flipped; the float map).
    async fn sort_i32_f32_by_some_bits(gpu) {
        check_bits::<i32>(&gpu, &NARROW[..4], 700).await;
        check_bits::<f32>(&gpu, &NARROW[2..], 800).await;
    }

    /// 64-bit keys by bits of one word, of both, or narrower than a digit in each.
    async fn sort_u64_i64_by_some_bits(gpu) {
        check_bits::<U64>(&gpu, WIDE, 900).await;
        check_bits::<I64>(&gpu, &WIDE[..3], 1_000).await;
    }

    /// Elements sorted by the high word of a 64-bit key their WGSL computes, ties in input order;
    /// and the ranges refused: empty, past the key's width.
    async fn key_bits_of_a_key_function_and_refused(gpu) {
        let sort = RadixSort::<U64>::new(&gpu, SortParams { key_bits: Some(32..64) }).expect("sort");
        let (wide, got) = sort_by_words(&gpu, &sort).await;
        let want = argsort_bits_cpu(&wide, SortOrder::Ascending, 32..64);
        assert_eq!(first_difference(&got, &want), None, "u64 key of [u32; 4], high word");
        // 7..3, spelt out: clippy refuses a reversed range literal.
        let reversed = Range { start: 7, end: 3 };
        for (bits, width) in [(0..0, 32), (reversed, 32), (0..33, 32), (32..33, 32)] {
            let e = RadixSort::<u32>::new(&gpu, SortParams { key_bits: Some(bits) }).expect_err("refused");
            assert!(matches!(&e, shoal::Error::InvalidParameter { .. }), "{e}");
            assert!(e.to_string().contains(&format!("within 0..{width}")), "{e}");
        }
        let e = RadixSort::<I64>::new(&gpu, SortParams { key_bits: Some(60..65) }).expect_err("refused");
        assert!(e.to_string().contains("within 0..64 for "), "{e}");
        assert_eq!(RadixSort::<I64>::new(&gpu, SortParams::default()).expect("sort").key_bits(), 0..64);
    }
}
