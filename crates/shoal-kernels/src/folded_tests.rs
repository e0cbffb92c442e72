//! The folded dispatch, once per primitive (issue 14): 65,535 × tile + 1 elements need 65,536
//! work groups, one more than a grid dimension holds, so Shoal folds the grid over y and the
//! kernels find their work group with `group_index`. Each primitive runs with forced tiles of
//! 8 invocations × 1 element (so the size stays at 524,281 elements on every adapter; the
//! compactions, which take at least 2 elements per invocation, 8 × 2 and 1,048,561) and is
//! compared with its CPU twin.

use crate::radix_sort::Way;
use crate::test_support::*;
use crate::{Segmented, SortOrder, U64, reduce_by_key_cpu, segmented_scan_cpu, sort_cpu};

/// 8 invocations of 1 element each, in shared-memory work groups on every adapter.
const SMALL: Tiling = Tiling {
    per_invocation: 1,
    one_subgroup: false,
    workgroup: Some(8),
};
/// The first size whose tiles of [`SMALL`] need a folded grid.
const FOLDED: u64 = 65_535 * 8 + 1;
/// The compactions' smallest tiles: 8 invocations of 2 elements.
const PAIRS: Tiling = Tiling {
    per_invocation: 2,
    one_subgroup: false,
    workgroup: Some(8),
};

shoal_conformance::gpu_test! {
    /// Scan (both strategies) and reduce over 65,536 tiles.
    async fn scan_and_reduce_over_a_folded_grid(gpu) {
        let data = random_u32(31, FOLDED, 1000);
        let input = gpu.buffer_from(&data).expect("input");
        let output = gpu.buffer_zeroed::<u32>(FOLDED).expect("output");
        let scan = Scan::<u32>::with_tiling(&gpu, SMALL).expect("scan");
        assert_eq!(scan.tile(), 8);
        let want = scan_cpu(&data, Op::Sum, true);
        for strategy in [Strategy::LookBack, Strategy::MultiLevel] {
            scan.run(ScanArgs { input: &input, output: &output, spec: ScanSpec::inclusive(Op::Sum).with_strategy(strategy) }).expect("scan");
            let got = output.read().await.expect("read");
            assert_eq!(first_difference(&got, &want), None, "{strategy:?}");
        }
        let reduce = Reduce::<u32>::with_tiling(&gpu, SMALL).expect("reduce");
        let total = gpu.buffer_zeroed::<u32>(1).expect("total");
        reduce.run(ReduceArgs { input: &input, output: &total, op: Op::Max.into() }).expect("reduce");
        assert_eq!(total.read().await.expect("read"), [reduce_cpu(&data, Op::Max)]);
    }

    /// Segmented scan (head flags of 1, 2 and 0xffffffff), reduce-by-key and run lengths over
    /// 65,536 tiles.
    async fn segmented_over_a_folded_grid(gpu) {
        let seg = Segmented::<u32>::with_tiling(&gpu, SMALL).expect("segmented");
        let values = random_u32(32, FOLDED, 1000);
        // Runs of 1 to 40 equal keys.
        let keys: Vec<u32> = random_u32(33, FOLDED, 40).iter().scan((0u32, 0u32), |(key, left), &r| {
            if *left == 0 { *key += 1; *left = r + 1; }
            *left -= 1;
            Some(*key)
        }).collect();
        // Head flags where the key changes, of 1, 2 and 0xffffffff in turn: any non-zero flag
        // starts a segment.
        let heads: Vec<u32> = (0..keys.len()).map(|i| if i == 0 || keys[i] != keys[i - 1] { [1, 2, u32::MAX][i % 3] } else { 0 }).collect();
        let (vb, hb, kb) = (gpu.buffer_from(&values).expect("values"), gpu.buffer_from(&heads).expect("heads"), gpu.buffer_from(&keys).expect("keys"));
        let out = gpu.buffer_zeroed::<u32>(FOLDED).expect("out");
        seg.run(SegmentedScanArgs { values: &vb, heads: &hb, output: &out, op: Op::Sum, inclusive: true }).expect("segmented scan");
        // Running sums restarted at every non-zero flag, written here.
        let mut sum = 0u32;
        let want: Vec<u32> = values.iter().zip(&heads).map(|(&v, &h)| { sum = if h != 0 { v } else { sum.wrapping_add(v) }; sum }).collect();
        assert_eq!(first_difference(&want, &segmented_scan_cpu(&values, &heads, Op::Sum, true)), None, "the CPU twin");
        assert_eq!(first_difference(&out.read().await.expect("read"), &want), None);
        let (unique, reduced, count) = (gpu.buffer_zeroed::<u32>(FOLDED).expect("unique"), gpu.buffer_zeroed::<u32>(FOLDED).expect("reduced"), CompactCount::new(&gpu).expect("count"));
        seg.run(ReduceByKeyArgs { keys: &kb, values: &vb, unique_keys: &unique, reduced: &reduced, count: &count, op: Op::Sum }).expect("reduce by key");
        let (want_keys, want_sums) = reduce_by_key_cpu(&keys, &values, Op::Sum);
        let runs = count.read().await.expect("count") as usize;
        assert_eq!(runs, want_keys.len());
        assert_eq!(first_difference(&unique.read().await.expect("read")[..runs], &want_keys), None);
        assert_eq!(first_difference(&reduced.read().await.expect("read")[..runs], &want_sums), None);
        // Run lengths: a scan of u32 run ends over the same tiles, then four runs per invocation.
        let lengths = gpu.buffer_zeroed::<u32>(FOLDED).expect("lengths");
        seg.run(RunLengthsArgs { keys: &kb, unique_keys: &unique, lengths: &lengths, count: &count }).expect("run lengths");
        let (want_keys, want_lengths) = reduce_by_key_cpu(&keys, &vec![1u32; keys.len()], Op::Sum);
        assert_eq!(count.read().await.expect("count") as usize, want_keys.len());
        assert_eq!(first_difference(&unique.read().await.expect("read")[..runs], &want_keys), None);
        assert_eq!(first_difference(&lengths.read().await.expect("read")[..runs], &want_lengths), None);
    }

    /// The radix sort over 65,536 tiles: keys and (key, index) pairs.
    async fn sort_over_a_folded_grid(gpu) {
        let sort = RadixSort::<u32>::with_tiling(&gpu, SMALL, SortParams::default()).expect("sort");
        let keys = random_u32(34, FOLDED, 0);
        let kb = gpu.buffer_from(&keys).expect("keys");
        let vb = gpu.buffer_from(&(0..FOLDED as u32).collect::<Vec<_>>()).expect("values");
        sort.run(SortPairsArgs { keys: &kb, values: &vb }).expect("sort");
        let (want_keys, want_values) = sort_pairs_cpu(&keys, &(0..FOLDED as u32).collect::<Vec<_>>());
        assert_eq!(first_difference(&kb.read().await.expect("keys"), &want_keys), None);
        assert_eq!(first_difference(&vb.read().await.expect("values"), &want_values), None);
    }

    /// The 8-bit sort (with the adapter's counters) over 65,536 tiles of one invocation and 4 keys (its smallest:
    /// 256 counts per tile, 16.7 million in all): pairs, and 64-bit keys both ways.
    async fn eight_bit_sort_over_a_folded_grid(gpu) {
        let tiling = Tiling { per_invocation: 4, one_subgroup: false, workgroup: Some(1) };
        let sort = RadixSort::<u32>::with_tiling(&gpu, SortTiling { tiling, digit_bits: 8, counters: SortTiling::for_gpu(&gpu).counters }, SortParams::default()).expect("sort");
        let n = 65_535 * 4 + 1;
        let keys = random_u32(36, n, 0);
        let kb = gpu.buffer_from(&keys).expect("keys");
        let vb = gpu.buffer_from(&(0..n as u32).collect::<Vec<_>>()).expect("values");
        sort.run(SortPairsArgs { keys: &kb, values: &vb }).expect("sort");
        let (want_keys, want_values) = sort_pairs_cpu(&keys, &(0..n as u32).collect::<Vec<_>>());
        assert_eq!(first_difference(&kb.read().await.expect("keys"), &want_keys), None);
        assert_eq!(first_difference(&vb.read().await.expect("values"), &want_values), None);
        // 64-bit keys, whose passes the GPU arms with folded arguments: random ones take four
        // passes by the high word, keys below 2^32 the eight of the fallback.
        let sort = RadixSort::<U64>::with_tiling(&gpu, SortTiling { tiling, digit_bits: 8, counters: SortTiling::for_gpu(&gpu).counters }, SortParams::default()).expect("sort");
        let mut rng = Rng::new(37);
        let wide: Vec<U64> = (0..n).map(|_| U64(rng.next_u64())).collect();
        for (keys, way) in [(wide.clone(), Way::Fast), (wide.iter().map(|k| U64(k.0 >> 32)).collect(), Way::Narrow)] {
            let kb = gpu.buffer_from(&keys).expect("keys");
            sort.run(SortArgs { keys: &kb }).expect("sort");
            assert_eq!(first_difference(&kb.read().await.expect("keys"), &sort_cpu(&keys, SortOrder::Ascending)), None, "{way:?}");
            assert_eq!(sort.way().await, way);
        }
    }

    /// Unique and the stable partition (both compactions) over 65,536 tiles.
    async fn unique_and_partition_over_a_folded_grid(gpu) {
        let n = 65_535 * 16 + 1;
        let compact = Compact::with_tiling(&gpu, PAIRS).expect("compact");
        // Runs of equal values (for unique), every third a multiple of 3 (for the partition).
        let values: Vec<u32> = random_u32(35, n, 0).iter().enumerate().map(|(i, &r)| (i as u32 / 3) ^ (r & 1)).collect();
        let vb = gpu.buffer_from(&values).expect("values");
        let (a, b) = (gpu.buffer_zeroed::<u32>(n).expect("a"), gpu.buffer_zeroed::<u32>(n).expect("b"));
        let (ca, cb) = (CompactCount::new(&gpu).expect("count"), CompactCount::new(&gpu).expect("count"));
        compact.run(CompactArgs { values: &vb, keep: crate::Keep::Predicate(&compact.unique().expect("unique")), output: &a, count: &ca, next_workgroup: 0 }).expect("unique");
        let want = compact_cpu(&values, |x, i| i == 0 || values[i - 1] != x);
        assert_eq!(ca.read().await.expect("count") as usize, want.len());
        assert_eq!(first_difference(&a.read().await.expect("read")[..want.len()], &want), None);
        let split = compact.partition("x % 3u == 0u").expect("partition");
        let mut commands = gpu.commands();
        compact.record(&mut commands, PartitionArgs { values: &vb, partition: &split, kept: &a, rejected: &b, kept_count: &ca, rejected_count: &cb, next_workgroup: 0 }).expect("partition");
        commands.submit().expect("submit");
        let (kept, rejected) = (compact_cpu(&values, |x, _| x % 3 == 0), compact_cpu(&values, |x, _| x % 3 != 0));
        assert_eq!((ca.read().await.expect("count") as usize, cb.read().await.expect("count") as usize), (kept.len(), rejected.len()));
        assert_eq!(first_difference(&a.read().await.expect("read")[..kept.len()], &kept), None);
        assert_eq!(first_difference(&b.read().await.expect("read")[..rejected.len()], &rejected), None);
    }
}
