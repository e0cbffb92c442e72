//! The three operations of [`Segmented`], each a [`Record`] of its own arguments: a segmented
//! scan ([`SegmentedScanArgs`]), reduce-by-key ([`ReduceByKeyArgs`]) and run-length encoding
//! ([`RunLengthsArgs`], on `u32` keys).

use shoal::glam::UVec4;
use shoal::{Buffer, Commands, Family, Gpu, Kernel, Record, Result};

use super::{Io, Segmented};
use crate::buffers::{check_apart, named};
use crate::compact::CompactCount;
use crate::scan::ScanSpec;
use crate::wgsl::{self, Op, Scalar};

/// What one segmented scan reads and writes: each segment of `values` (starting at element 0
/// and wherever `heads[i] != 0`) scanned on its own into `output`.
#[derive(Debug, Clone, Copy)]
pub struct SegmentedScanArgs<'a, T: Scalar> {
    /// The values to scan.
    pub values: &'a Buffer<T>,
    /// One flag per value: non-zero where a segment starts.
    pub heads: &'a Buffer<u32>,
    /// Where the scans go: at least as long as `values`, apart from `values` and `heads`.
    pub output: &'a Buffer<T>,
    /// The operation.
    pub op: Op,
    /// Inclusive (`out[i]` includes `values[i]`) or exclusive (each segment starts from the
    /// identity).
    pub inclusive: bool,
}

/// What one reduce-by-key reads and writes: for each run of equal consecutive `keys`, its key
/// into `unique_keys` and `op` over its values into `reduced`, in order, and the number of runs
/// into `count`.
#[derive(Debug, Clone, Copy)]
pub struct ReduceByKeyArgs<'a, T: Scalar> {
    /// The keys: a run of equal consecutive keys is one segment.
    pub keys: &'a Buffer<u32>,
    /// One value per key.
    pub values: &'a Buffer<T>,
    /// Each run's key, in order: at least one element per key.
    pub unique_keys: &'a Buffer<u32>,
    /// Each run's reduced values, in order: at least one element per key.
    pub reduced: &'a Buffer<T>,
    /// The number of runs, on the GPU (its first word).
    pub count: &'a CompactCount,
    /// The operation.
    pub op: Op,
}

/// What one run-length encoding reads and writes: for each run of equal consecutive `keys`,
/// its key into `unique_keys` and its length into `lengths`, and the number of runs into `count`.
#[derive(Debug, Clone, Copy)]
pub struct RunLengthsArgs<'a> {
    /// The keys: a run of equal consecutive keys is one run.
    pub keys: &'a Buffer<u32>,
    /// Each run's key, in order: at least one element per key.
    pub unique_keys: &'a Buffer<u32>,
    /// Each run's length, in order: at least one element per key.
    pub lengths: &'a Buffer<u32>,
    /// The number of runs, on the GPU (its first word).
    pub count: &'a CompactCount,
}

impl<T: Scalar> Family for Segmented<T> {
    fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The kernels compiled so far: the segmented scan's, reduce-by-key's, then run-length
    /// encoding's (each compiled on first use).
    fn kernels(&self) -> Vec<&Kernel> {
        let mut kernels = self.scan.kernels();
        kernels.extend(self.by_key.kernels());
        if let Some(runs) = self.runs.get() {
            kernels.extend(runs.ends.kernels());
            kernels.extend([&runs.lengths, &runs.tail]);
        }
        kernels
    }
}

impl<T: Scalar> Record<SegmentedScanArgs<'_, T>> for Segmented<T> {
    /// Records the segmented scan of `values` into `output` with `op`: a segment starts at
    /// element 0 and wherever `heads[i] != 0`, and each is scanned on its own (exclusive: each
    /// segment starts from the identity).
    fn record(&self, commands: &mut Commands, args: SegmentedScanArgs<'_, T>) -> Result<()> {
        let SegmentedScanArgs {
            values,
            heads,
            output,
            op,
            inclusive,
        } = args;
        let commands = &mut commands.labelled("segmented_scan");
        // The output is written while the values and the heads are read (one buffer may be
        // both of those: it is only read).
        let why = "the kernels read the values and heads while writing the output";
        for input in [named("values", values), named("heads", heads)] {
            check_apart(
                &self.gpu,
                "segmented scan",
                &[input, named("output", output)],
                why,
            )?;
        }
        let n = self.check("segmented scan", values, heads, "heads (one per value)")?;
        wgsl::at_least("segmented scan: output buffer", values.len(), output.len())?;
        let (keys, count) = (self.stand_in("no keys")?, self.stand_in("no count")?);
        let values = values.view_as::<u32>();
        let output = output.view_as::<u32>();
        let io = Io {
            values: &values,
            heads,
            out: (&output, &keys, &count),
        };
        self.record_segments(commands, io, &self.scan, op, inclusive, n)
    }
}

impl<T: Scalar> Record<ReduceByKeyArgs<'_, T>> for Segmented<T> {
    /// Records reduce-by-key: for each run of equal consecutive `keys`, its key into
    /// `unique_keys` and `op` over its values into `reduced`, in order, and the number of runs
    /// into `count` (on the GPU, its first word as [`Compact`](crate::Compact) leaves it; the
    /// dispatch arguments after it are zero, there being no next kernel to size). Both outputs
    /// hold at least one element per key; past the count their elements are overwritten (every
    /// key is stored somewhere, so that no store waits on a branch).
    fn record(&self, commands: &mut Commands, args: ReduceByKeyArgs<'_, T>) -> Result<()> {
        let ReduceByKeyArgs {
            keys,
            values,
            unique_keys,
            reduced,
            count,
            op,
        } = args;
        let commands = &mut commands.labelled("reduce_by_key");
        // Three outputs, apart from each other and from both inputs (which may be one buffer:
        // they are only read). All checked before anything is recorded.
        let why = "the kernels read the keys and values while writing the outputs and the count";
        for input in [named("keys", keys), named("values", values)] {
            let buffers = [
                input,
                named("unique keys", unique_keys),
                named("reduced", reduced),
                named("count", &count.buffer),
            ];
            check_apart(&self.gpu, "reduce by key", &buffers, why)?;
        }
        let n = self.check("reduce by key", values, keys, "keys (one per value)")?;
        let (values, reduced) = (values.view_as::<u32>(), reduced.view_as::<u32>());
        self.reduce_runs(
            commands,
            (&values, keys),
            (unique_keys, &reduced),
            count,
            op,
            n,
        )
    }
}

impl Record<RunLengthsArgs<'_>> for Segmented<u32> {
    /// Records run-length encoding: for each run of equal consecutive `keys`, its key into
    /// `unique_keys` and its length into `lengths`, and the number of runs into `count` (its first
    /// word; the dispatch arguments after it are zero). Both outputs hold at least one element
    /// per key; past the count they are left as they were.
    /// Two passes: a scan of `u32` run ends (keys loaded four at a time) that stores where each
    /// run ends, then four runs per invocation turning ends into lengths and reading their keys
    /// (and one invocation for the last runs' remainder of four).
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// use shoal_kernels::{CompactCount, Record, RunLengthsArgs, Segmented};
    /// let gpu = shoal::Gpu::blocking()?;
    /// let keys = gpu.buffer_from(&[5u32, 5, 5, 2, 9, 9])?;
    /// let (unique, lengths, count) = (gpu.buffer_zeroed::<u32>(6)?, gpu.buffer_zeroed::<u32>(6)?, CompactCount::new(&gpu)?);
    /// let args = RunLengthsArgs { keys: &keys, unique_keys: &unique, lengths: &lengths, count: &count };
    /// Segmented::<u32>::new(&gpu)?.run(args)?;
    /// assert_eq!(pollster::block_on(count.read())?, 3);
    /// assert_eq!(unique.read_blocking()?[..3], [5, 2, 9]);
    /// assert_eq!(lengths.read_blocking()?[..3], [3, 1, 2]);
    /// # Ok(()) }
    /// ```
    fn record(&self, commands: &mut Commands, args: RunLengthsArgs<'_>) -> Result<()> {
        let RunLengthsArgs {
            keys,
            unique_keys,
            lengths,
            count,
        } = args;
        let commands = &mut commands.labelled("run_lengths");
        // The scan reads the keys and writes the count, then the lengths' pass reads the keys
        // again and writes the outputs: no two of the four may be one buffer.
        let buffers = [
            named("keys", keys),
            named("count", &count.buffer),
            named("unique keys", unique_keys),
            named("lengths", lengths),
        ];
        let why = "the passes write each of them after or while another is read";
        check_apart(&self.gpu, "run lengths", &buffers, why)?;
        let n = wgsl::count_u32("run lengths", keys.len())?;
        wgsl::at_least("run lengths: unique keys", n as u64, unique_keys.len())?;
        wgsl::at_least("run lengths: lengths", n as u64, lengths.len())?;
        count.check("run lengths")?;
        // No runs leave the count (and the arguments) zero.
        commands.clear(&count.buffer);
        if n == 0 {
            return Ok(());
        }
        let runs = self.run_kernels()?;
        let after = self.scratch.get(&self.gpu, "run ends", n as u64)?;
        let keys4 = self.scratch.vec4s(&self.gpu, keys)?;
        let max_x = self.gpu.limits().max_compute_work_group_count[0];
        // `run_lengths` takes four runs per invocation.
        let params = self
            .uniforms
            .get(&self.gpu, [runs.workgroup * 4, max_x, 0, 0])?;
        let hooks: [(&'static str, &dyn shoal::Bindable); 6] = [
            ("run_ends", &params),
            ("run_keys", keys),
            ("run_keys4", &keys4),
            ("run_after", &after),
            ("run_count", &count.buffer),
            ("run_args", &runs.args.buffer),
        ];
        runs.ends
            .record_hooked(commands, n, ScanSpec::inclusive(Op::Sum), &hooks)?;
        // Four runs per invocation (none where n < 4, whose runs the tail takes; the vec4
        // views then hold nothing), then the last runs' remainder of four.
        if n >= 4 {
            runs.lengths
                .bind("run_args", &runs.args.buffer)
                .bind("run_after", &after)
                .bind("run_after4", &after.view_as::<UVec4>())
                .bind("keys", keys)
                .bind("lengths4", &lengths.view_as::<UVec4>())
                .bind("unique_keys4", &unique_keys.view_as::<UVec4>())
                .indirect(&runs.args.buffer, CompactCount::ARGS_OFFSET)
                .record(commands)?;
        }
        runs.tail
            .bind("run_args", &runs.args.buffer)
            .bind("run_after", &after)
            .bind("keys", keys)
            .bind("lengths", lengths)
            .bind("unique_keys", unique_keys)
            .groups([1, 1, 1])
            .record(commands)
    }
}
