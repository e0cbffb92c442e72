//! Warm-up for the sort, the histogram, run-length encoding and the work-group scan, as
//! `prepare.rs` does for the scan, reduction, compaction and segmented families: each records
//! the operation at that size into a batch it drops unsubmitted, so it compiles what the call
//! it warms compiles and nothing runs on the GPU. ([`Matmul`](crate::Matmul) and the image and
//! simulation families compile every kernel in `new`: they have nothing to prepare.)

use shoal::{Element, Family, Record, Result};

use crate::compact::CompactCount;
use crate::histogram::{Histogram, HistogramArgs};
use crate::radix_sort::{ArgsortArgs, RadixSort, SortArgs, SortKey, SortPairsArgs};
use crate::scan::{WorkgroupScan, WorkgroupScanArgs};
use crate::segmented::{RunLengthsArgs, Segmented};
use crate::wgsl::{Op, Scalar};

impl<K: SortKey> RadixSort<K> {
    /// Compiles what sorting `n` keys in place uses (the scan between its passes, for this
    /// size, and its scratch), so that the first sort of that size ([`SortArgs`]) does not.
    /// Nothing runs on the GPU.
    pub fn prepare(&self, n: u64) -> Result<()> {
        let gpu = self.gpu();
        let keys = gpu.buffer_zeroed::<K>(n.max(2))?;
        self.record(&mut gpu.commands(), SortArgs { keys: &keys })
    }

    /// Compiles what sorting `n` keys with values of `V` uses (see [`SortPairsArgs`]).
    /// Nothing runs on the GPU.
    pub fn prepare_pairs<V: Element>(&self, n: u64) -> Result<()> {
        let gpu = self.gpu();
        let (keys, values) = (
            gpu.buffer_zeroed::<K>(n.max(2))?,
            gpu.buffer_zeroed::<V>(n.max(2))?,
        );
        let args = SortPairsArgs {
            keys: &keys,
            values: &values,
        };
        self.record(&mut gpu.commands(), args)
    }

    /// Compiles what the permutation of `n` keys uses (see [`ArgsortArgs`], and the permutation
    /// a sort by a computed key, [`SortByArgs`](crate::SortByArgs), sorts by). Nothing runs on
    /// the GPU.
    pub fn prepare_argsort(&self, n: u64) -> Result<()> {
        let gpu = self.gpu();
        let keys = gpu.buffer_zeroed::<K>(n.max(2))?;
        let indices = gpu.buffer_zeroed::<u32>(n.max(2))?;
        let args = ArgsortArgs {
            keys: &keys,
            indices: &indices,
        };
        self.record(&mut gpu.commands(), args)
    }
}

impl Histogram {
    /// Compiles the kernel counting `n` values into `bins` bins (its values per invocation
    /// depend on `n` on a software adapter), so that the first count of that size
    /// ([`HistogramArgs`]) does not. Bins outside 1 to
    /// [`max_bins`](Self::max_bins) are the [`shoal::Error::InvalidParameter`] `record` gives.
    /// Nothing runs on the GPU.
    pub fn prepare(&self, n: u64, bins: u32) -> Result<()> {
        let gpu = self.gpu();
        let input = gpu.buffer_zeroed::<u32>(n.max(1))?;
        let counts = gpu.buffer_zeroed::<u32>(u64::from(bins))?;
        let args = HistogramArgs {
            input: &input,
            counts: &counts,
        };
        self.record(&mut gpu.commands(), args)
    }
}

impl Segmented<u32> {
    /// Compiles what run-length encoding ([`RunLengthsArgs`]) of `n` keys uses, so that its
    /// first call does not. Nothing runs on the GPU.
    pub fn prepare_run_lengths(&self, n: u64) -> Result<()> {
        let gpu = self.gpu();
        let keys = gpu.buffer_zeroed::<u32>(n.max(1))?;
        let (unique, lengths) = (
            gpu.buffer_zeroed::<u32>(n.max(1))?,
            gpu.buffer_zeroed::<u32>(n.max(1))?,
        );
        let count = CompactCount::new(gpu)?;
        let args = RunLengthsArgs {
            keys: &keys,
            unique_keys: &unique,
            lengths: &lengths,
            count: &count,
        };
        self.record(&mut gpu.commands(), args)
    }
}

impl<T: Scalar> WorkgroupScan<T> {
    /// Compiles the kernel scanning blocks with `op` (one per operator, whatever the size or
    /// `inclusive`), so that the first scan with it ([`WorkgroupScanArgs`]) does not. Nothing
    /// runs on the GPU.
    pub fn prepare(&self, n: u64, op: Op, inclusive: bool) -> Result<()> {
        let gpu = self.gpu();
        let (input, output) = (
            gpu.buffer_zeroed::<T>(n.max(1))?,
            gpu.buffer_zeroed::<T>(n.max(1))?,
        );
        let args = WorkgroupScanArgs {
            input: &input,
            output: &output,
            op,
            inclusive,
        };
        self.record(&mut gpu.commands(), args)
    }
}

#[cfg(test)]
mod tests;
