//! Warm-up: `prepare` compiles the kernels (and makes the scratch) an operation of a given size
//! uses, so its first real call does not. Shoal's families compile their kernels on first use,
//! per operator, tile and strategy; a first reduce-by-key round pays for every compilation.
//!
//! Each `prepare` records the operation, at that size, into a batch it drops unsubmitted: the
//! same code path as the call it warms, so it cannot compile less than the call needs, and
//! nothing runs on the GPU.

use shoal::{Buffer, Family, Gpu, Record, Result};

use crate::compact::{Compact, CompactArgs, CompactCount, Keep};
use crate::operator::Operation;
use crate::reduce::{Reduce, ReduceArgs};
use crate::scan::{Scan, ScanArgs, ScanSpec};
use crate::segmented::{ReduceByKeyArgs, Segmented, SegmentedScanArgs};
use crate::value::Value;
use crate::wgsl::{Op, Scalar};

/// A zeroed buffer of `n` elements (one at least: an operation of none compiles nothing).
fn zeroed<T: shoal::Element>(gpu: &Gpu, n: u64) -> Result<Buffer<T>> {
    gpu.buffer_zeroed::<T>(n.max(1))
}

impl<T: Value> Scan<T> {
    /// Compiles what a scan of `n` elements with `spec` uses (its strategy's kernels for this
    /// size, and its scratch), so that the first scan of that size ([`ScanArgs`]) does not.
    /// Nothing runs on the GPU.
    pub fn prepare(&self, n: u64, spec: ScanSpec) -> Result<()> {
        let gpu = self.gpu();
        let (input, output) = (zeroed::<T>(gpu, n)?, zeroed::<T>(gpu, n)?);
        let args = ScanArgs {
            input: &input,
            output: &output,
            spec,
        };
        self.record(&mut gpu.commands(), args)
    }
}

impl<T: Value> Reduce<T> {
    /// Compiles what a reduction of `n` elements with `op` uses (its levels' kernels and
    /// scratch), so that the first reduction of that size ([`ReduceArgs`]) does not. Nothing
    /// runs on the GPU.
    pub fn prepare(&self, n: u64, op: impl Into<Operation>) -> Result<()> {
        let gpu = self.gpu();
        let (input, output) = (zeroed::<T>(gpu, n)?, zeroed::<T>(gpu, 1)?);
        let args = ReduceArgs {
            input: &input,
            output: &output,
            op: op.into(),
        };
        self.record(&mut gpu.commands(), args)
    }
}

impl Compact {
    /// Compiles what compacting `n` values with `keep` uses, so that the first compaction of
    /// that size ([`CompactArgs`]) does not. Nothing runs on the GPU.
    pub fn prepare(&self, n: u64, keep: Keep<'_>) -> Result<()> {
        let gpu = self.gpu();
        let (values, output) = (zeroed::<u32>(gpu, n)?, zeroed::<u32>(gpu, n)?);
        let count = CompactCount::new(gpu)?;
        let args = CompactArgs {
            values: &values,
            keep,
            output: &output,
            count: &count,
            next_workgroup: 0,
        };
        self.record(&mut gpu.commands(), args)
    }
}

impl<T: Scalar> Segmented<T> {
    /// Compiles what reduce-by-key ([`ReduceByKeyArgs`]) of `n` keys with `op` uses, so that
    /// its first round does not. Nothing runs on the GPU.
    pub fn prepare_reduce_by_key(&self, n: u64, op: Op) -> Result<()> {
        let gpu = self.gpu();
        let keys = zeroed::<u32>(gpu, n)?;
        let values = zeroed::<T>(gpu, n)?;
        let (unique, reduced) = (zeroed::<u32>(gpu, n)?, zeroed::<T>(gpu, n)?);
        let count = CompactCount::new(gpu)?;
        let args = ReduceByKeyArgs {
            keys: &keys,
            values: &values,
            unique_keys: &unique,
            reduced: &reduced,
            count: &count,
            op,
        };
        self.record(&mut gpu.commands(), args)
    }

    /// Compiles what a segmented scan ([`SegmentedScanArgs`]) of `n` values with `op` uses.
    /// Nothing runs on the GPU.
    pub fn prepare_scan(&self, n: u64, op: Op, inclusive: bool) -> Result<()> {
        let gpu = self.gpu();
        let (values, heads) = (zeroed::<T>(gpu, n)?, zeroed::<u32>(gpu, n)?);
        let output = zeroed::<T>(gpu, n)?;
        let args = SegmentedScanArgs {
            values: &values,
            heads: &heads,
            output: &output,
            op,
            inclusive,
        };
        self.record(&mut gpu.commands(), args)
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::*;
    use crate::{Segmented, reduce_by_key_cpu};

    shoal_conformance::gpu_test! {
        async fn a_prepared_reduce_by_key_compiles_nothing_more_and_sums_right(gpu) {
            for n in [1u64, 64, 65, 1000, 5000] {
                let seg = Segmented::<u32>::new(&gpu).expect("segmented");
                let before = seg.kernels_built();
                seg.prepare_reduce_by_key(n, Op::Sum).expect("prepare");
                let prepared = seg.kernels_built();
                assert!(prepared > before, "{n}: prepare compiled the round's kernels");
                let keys: Vec<u32> = (0..n as u32).map(|i| i / 5).collect();
                let values = random_u32(9, n, 1000);
                let (k, v) = (gpu.buffer_from(&keys).expect("keys"), gpu.buffer_from(&values).expect("values"));
                let (unique, reduced) = (gpu.buffer_zeroed::<u32>(n).expect("unique"), gpu.buffer_zeroed::<u32>(n).expect("reduced"));
                let count = CompactCount::new(&gpu).expect("count");
                seg.run(ReduceByKeyArgs { keys: &k, values: &v, unique_keys: &unique, reduced: &reduced, count: &count, op: Op::Sum }).expect("run");
                assert_eq!(seg.kernels_built(), prepared, "{n}: the first round compiled nothing");
                let (want_keys, want_sums) = reduce_by_key_cpu(&keys, &values, Op::Sum);
                let runs = count.read().await.expect("count") as usize;
                assert_eq!(unique.read().await.expect("unique")[..runs], want_keys, "{n}");
                assert_eq!(reduced.read().await.expect("reduced")[..runs], want_sums, "{n}");
            }
        }

        async fn a_prepared_reduction_and_compaction_compile_nothing_more(gpu) {
            for n in [1u64, 255, 256, 257, 10_000] {
                let data = random_u32(4, n, 100);
                let input = gpu.buffer_from(&data).expect("input");
                let reduce = Reduce::<u32>::new(&gpu).expect("reduce");
                reduce.prepare(n, Op::Max).expect("prepare");
                let prepared = reduce.kernels_built();
                let output = gpu.buffer_zeroed::<u32>(1).expect("output");
                reduce.run(ReduceArgs { input: &input, output: &output, op: Op::Max.into() }).expect("reduce");
                assert_eq!(reduce.kernels_built(), prepared, "{n}: the first reduction compiled nothing");
                assert_eq!(output.read().await.expect("read"), [reduce_cpu(&data, Op::Max)], "{n}");

                let compact = Compact::new(&gpu).expect("compact");
                let flags: Vec<u32> = data.iter().map(|v| v % 2).collect();
                let flags = gpu.buffer_from(&flags).expect("flags");
                compact.prepare(n, Keep::Flags(&flags)).expect("prepare");
                let prepared = compact.kernels_built();
                let (kept, count) = (gpu.buffer_zeroed::<u32>(n).expect("kept"), CompactCount::new(&gpu).expect("count"));
                compact.run(CompactArgs { values: &input, keep: Keep::Flags(&flags), output: &kept, count: &count, next_workgroup: 0 }).expect("compact");
                assert_eq!(compact.kernels_built(), prepared, "{n}: the first compaction compiled nothing");
                let want = compact_cpu(&data, |v, _| v % 2 == 1);
                assert_eq!(count.read().await.expect("count") as usize, want.len(), "{n}");
                assert_eq!(kept.read().await.expect("kept")[..want.len()], want, "{n}");
            }
        }

        async fn a_prepared_scan_compiles_nothing_more_and_scans_right(gpu) {
            for n in [1u64, 255, 256, 257, 10_000] {
                let scan = Scan::<u32>::new(&gpu).expect("scan");
                let spec = ScanSpec::inclusive(Op::Sum);
                scan.prepare(n, spec).expect("prepare");
                let prepared = scan.kernels_built();
                let data = random_u32(3, n, 100);
                let (input, output) = (gpu.buffer_from(&data).expect("input"), gpu.buffer_zeroed::<u32>(n).expect("output"));
                scan.run(ScanArgs { input: &input, output: &output, spec }).expect("scan");
                assert_eq!(scan.kernels_built(), prepared, "{n}: the first scan compiled nothing");
                assert_eq!(output.read().await.expect("read"), scan_cpu(&data, Op::Sum, true), "{n}");
            }
        }
    }
}
