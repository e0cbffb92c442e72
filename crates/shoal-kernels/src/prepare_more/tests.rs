//! Each family prepared at a size, then run at it: the run compiles nothing more and matches
//! its CPU twin.

use crate::test_support::*;
use crate::{Segmented, SortOrder, argsort_cpu, sort_cpu};

/// The small sizes the warm-ups are tried at: one, around a software work group, around 256,
/// and a ragged few tiles.
const PREPARED: [u64; 6] = [1, 7, 8, 255, 257, 5000];

shoal_conformance::gpu_test! {
    async fn a_prepared_sort_compiles_nothing_more_and_sorts_right(gpu) {
        for n in PREPARED {
            let keys = random_u32(11, n, 0);
            let sort = RadixSort::<u32>::new(&gpu, SortParams::default()).expect("sort");
            sort.prepare(n).expect("prepare");
            let prepared = sort.kernels_built();
            let buffer = gpu.buffer_from(&keys).expect("keys");
            sort.run(SortArgs { keys: &buffer }).expect("sort");
            assert_eq!(sort.kernels_built(), prepared, "{n}: the first sort compiled nothing");
            assert_eq!(buffer.read().await.expect("read"), sort_cpu(&keys, SortOrder::Ascending), "{n}");

            let sort = RadixSort::<u32>::new(&gpu, SortParams::default()).expect("sort");
            sort.prepare_pairs::<[u32; 2]>(n).expect("prepare pairs");
            let prepared = sort.kernels_built();
            let values: Vec<[u32; 2]> = (0..n as u32).map(|i| [i, !i]).collect();
            let (k, v) = (gpu.buffer_from(&keys).expect("keys"), gpu.buffer_from(&values).expect("values"));
            sort.run(SortPairsArgs { keys: &k, values: &v }).expect("sort pairs");
            assert_eq!(sort.kernels_built(), prepared, "{n}: the first pairs' sort compiled nothing");
            let (want_keys, want_values) = sort_pairs_cpu(&keys, &values);
            assert_eq!(k.read().await.expect("keys"), want_keys, "{n}");
            assert_eq!(v.read().await.expect("values"), want_values, "{n}");

            let sort = RadixSort::<u32>::new(&gpu, SortParams::default()).expect("sort");
            sort.prepare_argsort(n).expect("prepare argsort");
            let prepared = sort.kernels_built();
            let (k, indices) = (gpu.buffer_from(&keys).expect("keys"), gpu.buffer_zeroed::<u32>(n).expect("indices"));
            sort.run(ArgsortArgs { keys: &k, indices: &indices }).expect("argsort");
            assert_eq!(sort.kernels_built(), prepared, "{n}: the first argsort compiled nothing");
            assert_eq!(indices.read().await.expect("indices"), argsort_cpu(&keys, SortOrder::Ascending), "{n}");
        }
    }

    async fn a_prepared_histogram_compiles_nothing_more_and_counts_right(gpu) {
        for n in PREPARED {
            for bins in [1u32, 16, 100] {
                let histogram = Histogram::new(&gpu).expect("histogram");
                histogram.prepare(n, bins).expect("prepare");
                let prepared = histogram.kernels_built();
                assert_eq!(prepared, 1, "{n}, {bins}: prepare compiled the kernel");
                let data = random_u32(12, n, bins + 3);
                let (input, counts) = (gpu.buffer_from(&data).expect("input"), gpu.buffer_zeroed::<u32>(bins as u64).expect("counts"));
                histogram.run(HistogramArgs { input: &input, counts: &counts }).expect("histogram");
                assert_eq!(histogram.kernels_built(), prepared, "{n}, {bins}: the first count compiled nothing");
                assert_eq!(counts.read().await.expect("read"), histogram_cpu(&data, bins as usize), "{n}, {bins}");
            }
        }
    }

    async fn a_prepared_histogram_of_no_bins_is_the_error_record_gives(gpu) {
        let histogram = Histogram::new(&gpu).expect("histogram");
        let error = histogram.prepare(10, 0).expect_err("no bins");
        assert!(matches!(error, shoal::Error::InvalidParameter { .. }), "{error}");
        assert!(error.to_string().contains("bins"), "{error}");
    }

    async fn prepared_run_lengths_compile_nothing_more_and_count_right(gpu) {
        for n in PREPARED {
            let seg = Segmented::<u32>::new(&gpu).expect("segmented");
            seg.prepare_run_lengths(n).expect("prepare");
            let prepared = seg.kernels_built();
            assert!(prepared > 0, "{n}: prepare compiled the passes");
            let keys: Vec<u32> = random_u32(13, n, 3);
            let k = gpu.buffer_from(&keys).expect("keys");
            let (unique, lengths) = (gpu.buffer_zeroed::<u32>(n).expect("unique"), gpu.buffer_zeroed::<u32>(n).expect("lengths"));
            let count = CompactCount::new(&gpu).expect("count");
            seg.run(RunLengthsArgs { keys: &k, unique_keys: &unique, lengths: &lengths, count: &count }).expect("run lengths");
            assert_eq!(seg.kernels_built(), prepared, "{n}: the first encoding compiled nothing");
            let mut want: Vec<(u32, u32)> = Vec::new();
            for &key in &keys {
                match want.last_mut() {
                    Some((last, length)) if *last == key => *length += 1,
                    _ => want.push((key, 1)),
                }
            }
            let runs = count.read().await.expect("count") as usize;
            assert_eq!(runs, want.len(), "{n}");
            let (want_keys, want_lengths): (Vec<u32>, Vec<u32>) = want.into_iter().unzip();
            assert_eq!(unique.read().await.expect("unique")[..runs], want_keys, "{n}");
            assert_eq!(lengths.read().await.expect("lengths")[..runs], want_lengths, "{n}");
        }
    }

    async fn a_prepared_workgroup_scan_compiles_nothing_more_and_scans_right(gpu) {
        for n in PREPARED {
            let scan = WorkgroupScan::<u32>::new(&gpu).expect("scan");
            scan.prepare(n, Op::Max, true).expect("prepare");
            let prepared = scan.kernels_built();
            assert!(prepared > 0, "{n}: prepare compiled the kernel");
            let data = random_u32(14, n, 1000);
            let (input, output) = (gpu.buffer_from(&data).expect("input"), gpu.buffer_zeroed::<u32>(n).expect("output"));
            scan.run(WorkgroupScanArgs { input: &input, output: &output, op: Op::Max, inclusive: true }).expect("scan");
            assert_eq!(scan.kernels_built(), prepared, "{n}: the first scan compiled nothing");
            let want = workgroup_scan_cpu(&data, scan.block() as usize, Op::Max, true);
            assert_eq!(output.read().await.expect("read"), want, "{n}");
        }
    }
}
