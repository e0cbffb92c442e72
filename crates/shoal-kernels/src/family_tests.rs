//! The primitives through the kernel-family contract alone: a generic helper that knows only
//! [`Record`] runs each operation of each family, every result is compared with its CPU twin,
//! and [`Family::kernels`] lists what each compiled (the lazily compiled families, once run).

use shoal::{Buffer, Family, Record};

use crate::test_support::*;
use crate::{
    CompactCount, Segmented, SortOrder, argsort_cpu, reduce_by_key_cpu, segmented_scan_cpu,
    sort_cpu,
};

/// Runs one operation through the trait and returns how many kernels the family then lists.
fn run_op<F: Record<A>, A>(family: &F, args: A) -> usize {
    family.run(args).expect("run");
    family.kernels().len()
}

async fn read(buffer: &Buffer<u32>) -> Vec<u32> {
    buffer.read().await.expect("read")
}

shoal_conformance::gpu_test! {
    async fn every_primitive_runs_through_the_trait_and_lists_its_kernels(gpu) {
        let n = 1000u64;
        let data = random_u32(40, n, 13);
        let input = gpu.buffer_from(&data).expect("input");
        let zeroed = || gpu.buffer_zeroed::<u32>(n).expect("output");

        let scan = Scan::<u32>::new(&gpu).expect("scan");
        assert!(scan.kernels().is_empty(), "a scan compiles on first use");
        let output = zeroed();
        let spec = ScanSpec::inclusive(Op::Sum);
        assert!(run_op(&scan, ScanArgs { input: &input, output: &output, spec }) > 0);
        assert_eq!(read(&output).await, scan_cpu(&data, Op::Sum, true), "scan");

        let blocks = WorkgroupScan::<u32>::new(&gpu).expect("workgroup scan");
        let args = WorkgroupScanArgs { input: &input, output: &output, op: Op::Max, inclusive: false };
        assert_eq!(run_op(&blocks, args), 1, "one kernel per operation");
        let block = blocks.block() as usize;
        assert_eq!(read(&output).await, workgroup_scan_cpu(&data, block, Op::Max, false), "blocks");

        let reduce = Reduce::<u32>::new(&gpu).expect("reduce");
        let total = gpu.buffer_zeroed::<u32>(1).expect("total");
        assert!(run_op(&reduce, ReduceArgs { input: &input, output: &total, op: Op::Sum.into() }) > 0);
        assert_eq!(read(&total).await, [reduce_cpu(&data, Op::Sum)], "reduce");

        let histogram = Histogram::new(&gpu).expect("histogram");
        assert!(histogram.kernels().is_empty(), "a histogram compiles per bin count");
        let counts = gpu.buffer_zeroed::<u32>(16).expect("counts");
        assert_eq!(run_op(&histogram, HistogramArgs { input: &input, counts: &counts }), 1);
        assert_eq!(read(&counts).await, histogram_cpu(&data, 16), "histogram");

        let compact = Compact::new(&gpu).expect("compact");
        assert!(!compact.kernels().is_empty(), "the flags' first kernel is compiled in new");
        let flags: Vec<u32> = data.iter().map(|&x| x % 2).collect();
        let flag_buffer = gpu.buffer_from(&flags).expect("flags");
        let (kept, count) = (zeroed(), CompactCount::new(&gpu).expect("count"));
        let args = CompactArgs { values: &input, keep: Keep::Flags(&flag_buffer), output: &kept, count: &count, next_workgroup: 0 };
        run_op(&compact, args);
        let want = compact_cpu(&data, |_, i| flags[i] != 0);
        assert_eq!(read(&kept).await[..want.len()], want[..], "compact");

        let seg = Segmented::<u32>::new(&gpu).expect("segmented");
        let heads: Vec<u32> = (0..n as usize).map(|i| u32::from(i == 0 || data[i] != data[i - 1])).collect();
        let head_buffer = gpu.buffer_from(&heads).expect("heads");
        let args = SegmentedScanArgs { values: &input, heads: &head_buffer, output: &output, op: Op::Sum, inclusive: true };
        let after_scan = run_op(&seg, args);
        assert_eq!(read(&output).await, segmented_scan_cpu(&data, &heads, Op::Sum, true), "segmented scan");
        let (unique, reduced) = (zeroed(), zeroed());
        let args = ReduceByKeyArgs { keys: &input, values: &input, unique_keys: &unique, reduced: &reduced, count: &count, op: Op::Sum };
        assert!(run_op(&seg, args) > after_scan, "reduce-by-key's kernels join the list");
        let (want_keys, want_sums) = reduce_by_key_cpu(&data, &data, Op::Sum);
        let runs = count.read().await.expect("count") as usize;
        assert_eq!(runs, want_keys.len(), "runs");
        assert_eq!(read(&unique).await[..runs], want_keys[..], "reduce-by-key keys");
        assert_eq!(read(&reduced).await[..runs], want_sums[..], "reduce-by-key sums");
        let lengths = zeroed();
        run_op(&seg, RunLengthsArgs { keys: &input, unique_keys: &unique, lengths: &lengths, count: &count });
        let want_lengths: Vec<u32> = {
            let mut l = Vec::new();
            for &h in &heads {
                if h != 0 {
                    l.push(0);
                }
                *l.last_mut().expect("a run") += 1;
            }
            l
        };
        assert_eq!(read(&lengths).await[..runs], want_lengths[..], "run lengths");

        let sort = RadixSort::<u32>::new(&gpu, SortParams::default()).expect("sort");
        assert!(!sort.kernels().is_empty(), "the passes are compiled in new");
        let keys = gpu.buffer_from(&data).expect("keys");
        run_op(&sort, SortArgs { keys: &keys });
        assert_eq!(read(&keys).await, sort_cpu(&data, SortOrder::Ascending), "sort");
        let (keys, indices) = (gpu.buffer_from(&data).expect("keys"), zeroed());
        run_op(&sort, ArgsortArgs { keys: &keys, indices: &indices });
        assert_eq!(read(&indices).await, argsort_cpu(&data, SortOrder::Ascending), "argsort");
        let values: Vec<u32> = (0..n as u32).collect();
        let value_buffer = gpu.buffer_from(&values).expect("values");
        run_op(&sort, SortPairsArgs { keys: &keys, values: &value_buffer });
        assert_eq!(read(&value_buffer).await, argsort_cpu(&data, SortOrder::Ascending), "pairs");
        let by_low_bit = sort.key_function::<u32>("alias Element = u32;\nfn sort_key(e: Element) -> u32 { return e & 1u; }").expect("key function");
        let elements = gpu.buffer_from(&data).expect("elements");
        run_op(&sort, SortByArgs { elements: &elements, key: &by_low_bit });
        let mut want = data.clone();
        want.sort_by_key(|x| x & 1);
        assert_eq!(read(&elements).await, want, "sort by key");

        let matmul = Matmul::new(&gpu).expect("matmul");
        assert_eq!(matmul.kernels().len(), 2, "both kernels compiled in new");
        let [m, k, nn] = [9u32, 5, 7];
        let a: Vec<f32> = (0..m * k).map(|i| (i % 5) as f32).collect();
        let b: Vec<f32> = (0..k * nn).map(|i| (i % 3) as f32).collect();
        let (ab, bb) = (gpu.buffer_from(&a).expect("a"), gpu.buffer_from(&b).expect("b"));
        let c = gpu.buffer_zeroed::<f32>((m * nn) as u64).expect("c");
        for kernel in [MatmulKernel::Tiled, MatmulKernel::Naive] {
            assert_eq!(run_op(&matmul, MatmulArgs { a: &ab, b: &bb, c: &c, dims: [m, k, nn], kernel }), 2);
            let want = matmul_cpu(&a, &b, [m as usize, k as usize, nn as usize]);
            assert_eq!(c.read().await.expect("c"), want, "{kernel:?}");
        }
    }
}
