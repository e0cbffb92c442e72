//! The high-word-first sort of 64-bit keys (`high_first.rs`): each of its three ways, the one the
//! GPU took read back from its state, every result against `sort_cpu` (and, at some sizes, the
//! argsort and pairs carrying their indices against `argsort_cpu`: stability); `U64` and `I64`,
//! both orders; runs of equal high words of exactly the limit and of one more, first and last in
//! the order, their low words full of ties.

use super::high_first::Way;
use super::key_tests::{TestKey, bits};
use crate::test_support::*;
use crate::{I64, SortOrder, U64, argsort_cpu, sort_cpu};

/// The longest run of equal high words the fast way sorts (`RUN_LIMIT` in the WGSL).
const RUN_LIMIT: usize = 32;

/// A sort with 8-bit digits, the only one that goes high word first: the adapter's own on a
/// software adapter, the software one elsewhere.
fn eight_bit<K: TestKey>(gpu: &Gpu, order: SortOrder) -> RadixSort<K> {
    let tiling = match SortTiling::for_gpu(gpu) {
        t if t.digit_bits == 8 => t,
        _ => SortTiling::SOFTWARE,
    };
    let mut sort = RadixSort::with_tiling(gpu, tiling, SortParams::default()).expect("8-bit sort");
    sort.set_order(order);
    sort
}

/// Sorts `keys` in both orders, and argsorts them and sorts them carrying their indices where
/// `pairs` (equal keys' indices must increase: stability); checks each result and the way taken.
async fn check<K: TestKey>(gpu: &Gpu, keys: &[u64], way: Way, pairs: bool, label: &str) {
    let keys: Vec<K> = keys.iter().map(|&b| K::from_bits(b)).collect();
    for order in [SortOrder::Ascending, SortOrder::Descending] {
        let label = format!("{label}, {} {order:?}", std::any::type_name::<K>());
        let sort = eight_bit::<K>(gpu, order);
        let buffer = gpu.buffer_from(&keys).expect("keys");
        sort.run(SortArgs { keys: &buffer }).expect("sort");
        let got = bits(&buffer.read().await.expect("keys"));
        let want = bits(&sort_cpu(&keys, order));
        assert_eq!(first_difference(&got, &want), None, "{label}");
        assert_eq!(sort.way().await, way, "{label}: the way taken");
        if !pairs {
            continue;
        }
        let permutation = argsort_cpu(&keys, order);
        let indices = gpu
            .buffer_zeroed::<u32>(keys.len() as u64)
            .expect("indices");
        let buffer = gpu.buffer_from(&keys).expect("keys");
        sort.run(ArgsortArgs {
            keys: &buffer,
            indices: &indices,
        })
        .expect("argsort");
        let got = indices.read().await.expect("indices");
        assert_eq!(
            first_difference(&got, &permutation),
            None,
            "{label}: argsort"
        );
        assert_eq!(sort.way().await, way, "{label}: the argsort's way");
        let values = gpu
            .buffer_from(&(0..keys.len() as u32).collect::<Vec<_>>())
            .expect("values");
        sort.run(SortPairsArgs {
            keys: &buffer,
            values: &values,
        })
        .expect("pairs");
        let got = values.read().await.expect("values");
        assert_eq!(
            first_difference(&got, &permutation),
            None,
            "{label}: pair values"
        );
        assert_eq!(
            bits(&buffer.read().await.expect("keys")),
            want,
            "{label}: pair keys"
        );
    }
}

/// `n` random 64-bit keys.
fn random(seed: u64, n: u64) -> Vec<u64> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| rng.next_u64()).collect()
}

/// `n` random keys, `run` of them (at random places) with the high word `high` and low words of
/// eight values (ties within the run).
fn with_run(seed: u64, n: u64, run: usize, high: u32) -> Vec<u64> {
    let mut keys = random(seed, n);
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut places: Vec<usize> = (0..n as usize).collect();
    for i in 0..run {
        let j = i + rng.next_u32() as usize % (places.len() - i);
        places.swap(i, j);
        keys[places[i]] = (high as u64) << 32 | (rng.next_u32() % 8) as u64;
    }
    keys
}

/// The sizes of the fast and narrow ways: two keys, a few, around one work group of `fix_runs`
/// (64 × 8 keys) and one tile of the passes (8 × 2,048), several tiles, a random size.
fn sizes(seed: u64) -> Vec<u64> {
    let mut sizes = vec![2, 3, 9, 511, 512, 513, 16_383, 16_385, 65_537];
    sizes.extend(random_sizes(seed, 1, 1 << 17));
    sizes
}

shoal_conformance::gpu_test! {
    /// Keys random over all 64 bits take the fast way at every size; keys below 2^32 (one high
    /// word) and keys of a narrow high word spread the narrow one.
    async fn high_first_fast_and_narrow(gpu) {
        for n in sizes(1_100) {
            let label = format!("random, n = {n}");
            let pairs = n == 9 || n == 16_385;
            check::<U64>(&gpu, &random(1_100 + n, n), Way::Fast, pairs, &label).await;
            check::<I64>(&gpu, &random(1_200 + n, n), Way::Fast, pairs, &label).await;
            let below: Vec<u64> = random(1_300 + n, n).iter().map(|k| k >> 32).collect();
            check::<U64>(&gpu, &below, Way::Narrow, pairs, &format!("below 2^32, n = {n}")).await;
            // I64 near zero: ordered high words 0x7fff_ffff or 0x8000_0000, narrow. U64 below
            // 2^56: high words spread over 2^24, enough for 2^21 keys, fast.
            let near_zero: Vec<u64> = random(1_400 + n, n).iter().map(|&k| (k as i64 >> 45) as u64).collect();
            check::<I64>(&gpu, &near_zero, Way::Narrow, false, &format!("|key| < 2^19, n = {n}")).await;
            let below_56: Vec<u64> = random(1_500 + n, n).iter().map(|k| k >> 8).collect();
            check::<U64>(&gpu, &below_56, Way::Fast, false, &format!("below 2^56, n = {n}")).await;
        }
    }

    /// A run of equal high words as long as the limit is sorted by the fast way, first or last in
    /// the order; one key more sends the sort to the fallback, which sorts everything again.
    async fn high_first_runs_at_the_limit(gpu) {
        for (n, seed) in [(1_000, 1_600), (70_001, 1_700)] {
            for high in [0, u32::MAX, 0x8000_0000] {
                for (run, way) in [(RUN_LIMIT, Way::Fast), (RUN_LIMIT + 1, Way::LongRun)] {
                    let keys = with_run(seed + run as u64, n, run, high);
                    let label = format!("a run of {run} with high word {high:#x}, n = {n}");
                    check::<U64>(&gpu, &keys, way, n == 1_000, &label).await;
                    check::<I64>(&gpu, &keys, way, false, &label).await;
                }
            }
        }
        let half = with_run(1_800, 20_000, 10_000, 7);
        check::<U64>(&gpu, &half, Way::LongRun, true, "half the keys one high word").await;
        // A long run, then random keys, recorded into one batch by one sort: the second sort
        // starts from a state of its own.
        let sort = eight_bit::<U64>(&gpu, SortOrder::Ascending);
        let (first, second): (Vec<U64>, Vec<U64>) = (half.iter().map(|&k| U64(k)).collect(), random(1_900, 5_000).into_iter().map(U64).collect());
        let (a, b) = (gpu.buffer_from(&first).expect("a"), gpu.buffer_from(&second).expect("b"));
        let mut commands = gpu.commands();
        sort.record(&mut commands, SortArgs { keys: &a }).expect("long run");
        sort.record(&mut commands, SortArgs { keys: &b }).expect("random");
        commands.submit().expect("submit");
        assert_eq!(a.read().await.expect("a"), sort_cpu(&first, SortOrder::Ascending));
        assert_eq!(b.read().await.expect("b"), sort_cpu(&second, SortOrder::Ascending));
        assert_eq!(sort.way().await, Way::Fast, "the batch's second sort");
    }

    /// Many short runs (high words drawn from n / 8 values spread 128 apart: runs of about 8,
    /// low words of 16 values: ties), and runs at the first and last of three keys: the fast way
    /// sorts them, keys, argsort and pairs, both orders, U64 and I64.
    async fn high_first_many_short_runs(gpu) {
        for n in [3, 511, 513, 16_385, 65_537] {
            let mut rng = Rng::new(2_000 + n);
            let keys: Vec<u64> = match n {
                3 => vec![7 << 32 | 5, 7 << 32 | 1, 1 << 40],
                _ => (0..n).map(|_| ((rng.next_u64() % (n / 8) * 128) << 32) | (rng.next_u64() % 16)).collect(),
            };
            let label = format!("short runs, n = {n}");
            check::<U64>(&gpu, &keys, Way::Fast, true, &label).await;
            check::<I64>(&gpu, &keys, Way::Fast, true, &label).await;
        }
        let at_the_end = [1 << 32, 9_000 << 32 | 3, 9_000 << 32 | 2];
        check::<U64>(&gpu, &at_the_end, Way::Fast, true, "a run last of three").await;
    }
}
