//! What the primitives' tests share: the sizes the issue lists, seeded random sizes and data, the
//! turn every test takes, and the names they use (a prelude for `src/<family>/tests.rs`).

pub(crate) use shoal::{Gpu, Usage};
pub(crate) use shoal_conformance::rng::Rng;

pub(crate) use crate::{
    ArgsortArgs, Compact, CompactArgs, CompactCount, Histogram, HistogramArgs, Keep, Matmul,
    MatmulArgs, MatmulKernel, MatmulTiling, Op, PartitionArgs, RadixSort, Record, Reduce,
    ReduceArgs, ReduceByKeyArgs, RunLengthsArgs, SOFTWARE_WORKGROUP, Scalar, Scan, ScanArgs,
    ScanSpec, SegmentedScanArgs, SortArgs, SortByArgs, SortCounters, SortPairsArgs, SortParams,
    SortTiling, Strategy, Tiling, WorkgroupScan, WorkgroupScanArgs, compact_cpu, histogram_cpu,
    matmul_cpu, reduce_cpu, scan_cpu, sort_pairs_cpu, workgroup_scan_cpu,
};

/// The sizes every primitive is tested at: around one work group of a software adapter's tiles
/// (8 invocations), around one and two work groups of 256 and 1024, around the tiles of 8 x 64
/// (a forced tiling), 8 x 512 and 8 x 1024 (earlier software tiles; the histogram), 8 x 2048
/// (every software adapter's scan tiles, `ROLLED_PER`, and its sort's), around 65536, and one that
/// needs several tiles per level and a ragged end.
pub(crate) const SIZES: &[u64] = &[
    0, 1, 7, 8, 9, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096,
    4097, 8191, 8192, 8193, 16383, 16384, 16385, 65535, 65536, 65537, 1_000_003,
];

/// `count` seeded random sizes below `max`.
pub(crate) fn random_sizes(seed: u64, count: usize, max: u64) -> Vec<u64> {
    let mut rng = Rng::new(seed);
    (0..count).map(|_| rng.next_u64() % max).collect()
}

/// `n` random u32 below `bound` (all bits when `bound` is 0).
pub(crate) fn random_u32(seed: u64, n: u64, bound: u32) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            if bound == 0 {
                rng.next_u32()
            } else {
                rng.next_u32() % bound
            }
        })
        .collect()
}

/// The first index where `a` and `b` differ, with both values, for messages.
pub(crate) fn first_difference<T: PartialEq + std::fmt::Debug>(a: &[T], b: &[T]) -> Option<String> {
    if a.len() != b.len() {
        return Some(format!("lengths {} and {}", a.len(), b.len()));
    }
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .map(|i| format!("index {i}: gpu {:?}, cpu {:?}", a[i], b[i]))
}
