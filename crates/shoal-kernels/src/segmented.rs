//! [`Segmented`]: segmented scans (a head flag starts each segment), reduce-by-key over runs of
//! equal keys, and run-length encoding, of `u32`, `i32` or `f32` values with the built-in
//! operations. The first two are one [`Scan`] of (heads so far, value) pairs with the segmented
//! form of the operation, an [`Operator`] on `vec2<u32>`, whose `io` block
//! (`wgsl/segmented.wgsl`) makes the pairs from the values and the flags (or keys) as it loads
//! them and stores the values, or each run's key and result at the run's index: one pass over
//! the input, like the scan. Run lengths are a scan of `u32` run ends (`wgsl/run_ends.wgsl`) and
//! a pass over the runs.

use shoal::glam::{UVec2, UVec4};
use std::sync::{Arc, Mutex};

use shoal::{Buffer, Commands, Gpu, Kernel, Result, Submission};

use crate::buffers::{check_apart, named};
use crate::compact::CompactCount;
use crate::operator::Operator;
use crate::scan::{Scan, ScanSpec, Tiling};
use crate::wgsl::{self, Op, Scalar, Scratch, Uniforms};

/// The `io` block of the scan's kernels (`wgsl/segmented.wgsl`, a snippet of [`crate::SNIPPETS`]).
const IO: &str = "#import segmented::io";
/// The `io` block of run-length encoding's scan of run ends (`wgsl/run_ends.wgsl`).
const RUN_ENDS: &str = "#import run_ends::io";
/// The kernel that turns the index after each run into its length.
const RUN_LENGTHS: shoal::Source = shoal::wgsl!("../wgsl/run_lengths.wgsl");
/// How the `io` block names its family in errors.
const FAMILY: &str = "wgsl/segmented.wgsl";

/// The segmented form of a built-in operation on `V`'s bits, as an operator on (heads, bits)
/// pairs: `(ca, a) ∘ (cb, b) = (ca + cb, cb > 0 ? b : a op b)`, associative whenever `op` is.
macro_rules! segmented {
    ($name:literal, $v:literal, $identity:literal, $combine:literal) => {
        Operator::new(
            $name,
            concat!(
                "alias V = ",
                $v,
                ";
var<private> infinity_bits: u32 = 0x7f800000u;
fn infinity() -> f32 { return bitcast<f32>(infinity_bits); }
fn identity() -> T { return vec2<u32>(0u, bitcast<u32>(V(",
                $identity,
                ")));}
fn combine(a: T, b: T) -> T {
    let x = bitcast<V>(a.y);
    let y = bitcast<V>(b.y);
    return vec2<u32>(a.x + b.x, select(bitcast<u32>(",
                $combine,
                "), b.y, b.x != 0u));
}"
            ),
        )
    };
}

/// The segmented operator of `op` on values of WGSL type `wgsl`.
fn segmented_operator(wgsl: &str, op: Op) -> Option<Operator> {
    Some(match (wgsl, op) {
        ("u32", Op::Sum) => segmented!("segmented u32 sum", "u32", "0u", "x + y"),
        ("u32", Op::Min) => segmented!("segmented u32 min", "u32", "4294967295u", "min(x, y)"),
        ("u32", Op::Max) => segmented!("segmented u32 max", "u32", "0u", "max(x, y)"),
        ("i32", Op::Sum) => segmented!("segmented i32 sum", "i32", "0i", "x + y"),
        ("i32", Op::Min) => segmented!("segmented i32 min", "i32", "2147483647i", "min(x, y)"),
        ("i32", Op::Max) => {
            segmented!("segmented i32 max", "i32", "-2147483647i - 1i", "max(x, y)")
        }
        ("f32", Op::Sum) => segmented!("segmented f32 sum", "f32", "0.0f", "x + y"),
        ("f32", Op::Min) => segmented!("segmented f32 min", "f32", "infinity()", "min(x, y)"),
        ("f32", Op::Max) => segmented!("segmented f32 max", "f32", "-infinity()", "max(x, y)"),
        _ => return None,
    })
}

/// The constants the `io` block is compiled with (`BY_KEYS`, `RUNS` in the WGSL), one scan each:
/// a segmented scan's segments start at head flags and it stores every element's result;
/// reduce-by-key's start where keys change, and it stores each run's key and result.
const SCAN_IO: &str = "const BY_KEYS = false;\nconst RUNS = false;";
const RUNS_IO: &str = "const BY_KEYS = true;\nconst RUNS = true;";

/// The `io` block with its constants before it.
fn io(path: &str, constants: &str) -> shoal::Source {
    shoal::Source::new(path, format!("{constants}\n{IO}"))
}

/// The sources segmented scans, reduce-by-key and run lengths compile on a device described by
/// `profile`, for every value type and built-in operation, for the kernel variants' check.
pub(crate) fn variants(profile: &shoal::DeviceProfile) -> Result<Vec<(String, shoal::Source)>> {
    use crate::scan::scan_source;
    let tiling = Tiling::plan_value::<UVec2>(profile);
    let subgroups = (tiling, profile.subgroups);
    let mut out = Vec::new();
    for wgsl in ["u32", "i32", "f32"] {
        for op in [Op::Sum, Op::Min, Op::Max] {
            let Some(operator) = segmented_operator(wgsl, op) else {
                continue;
            };
            for (what, io) in [
                ("segmented scan", io("<segmented scan io>", SCAN_IO)),
                ("reduce by key", io("<reduce by key io>", RUNS_IO)),
            ] {
                let source = scan_source::<UVec2>(
                    operator.into(),
                    "scan_tiles",
                    subgroups,
                    false,
                    Some(&io),
                )?;
                out.push((format!("{tiling:?}, {what} of {wgsl}, {op:?}"), source));
            }
        }
    }
    let ends = shoal::Source::new("<run ends io>", RUN_ENDS);
    let source = scan_source::<u32>(Op::Sum.into(), "scan_tiles", subgroups, false, Some(&ends))?;
    out.push((format!("{tiling:?}, run ends"), source));
    out.push(("run lengths".into(), RUN_LENGTHS));
    Ok(out)
}

/// Run-length encoding's kernels, compiled on first use: a scan of `u32` run ends (scalars,
/// loaded four at a time), the kernels
/// that turn the index after each run into its length, and the arguments they are dispatched by.
#[derive(Debug)]
struct RunKernels {
    ends: Scan<u32>,
    /// Four runs per invocation, over the runs' whole fours.
    lengths: Kernel,
    /// The runs past the last whole four, in one invocation.
    tail: Kernel,
    workgroup: u32,
    args: CompactCount,
}

/// Segmented scans, reduce-by-key and run-length encoding.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{CompactCount, Op, Segmented};
/// let gpu = shoal::Gpu::blocking()?;
/// let seg = Segmented::<u32>::new(&gpu)?;
/// // Segments start where the flag is set: [1 2 3] [4 5] [6].
/// let values = gpu.buffer_from(&[1u32, 2, 3, 4, 5, 6])?;
/// let heads = gpu.buffer_from(&[1u32, 0, 0, 1, 0, 1])?;
/// let sums = gpu.buffer_zeroed::<u32>(6)?;
/// seg.run_scan(&values, &heads, &sums, Op::Sum, true)?;
/// assert_eq!(sums.read_blocking()?, [1, 3, 6, 4, 9, 6]);
/// // Runs of equal keys reduced: key 7 sums 1 + 2, key 3 sums 3, key 7 again sums 4 + 5 + 6.
/// let keys = gpu.buffer_from(&[7u32, 7, 3, 7, 7, 7])?;
/// let (unique, reduced, count) = (gpu.buffer_zeroed::<u32>(6)?, gpu.buffer_zeroed::<u32>(6)?, CompactCount::new(&gpu)?);
/// seg.run_reduce_by_key(&keys, &values, &unique, &reduced, &count, Op::Sum)?;
/// assert_eq!(pollster::block_on(count.read())?, 3);
/// assert_eq!(unique.read_blocking()?[..3], [7, 3, 7]);
/// assert_eq!(reduced.read_blocking()?[..3], [3, 3, 15]);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Segmented<T: Scalar> {
    gpu: Gpu,
    tiling: Tiling,
    /// The segmented scan's kernels, and reduce-by-key's.
    scan: Scan<UVec2>,
    by_key: Scan<UVec2>,
    runs: Mutex<Option<Arc<RunKernels>>>,
    uniforms: Uniforms,
    scratch: Scratch,
    _element: std::marker::PhantomData<fn() -> T>,
}

impl<T: Scalar> Segmented<T> {
    /// The `Gpu` the kernels run on.
    pub(crate) fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// How many kernels the scans have compiled so far (for the warm-up's tests).
    #[cfg(test)]
    pub(crate) fn kernels_built(&self) -> usize {
        let runs = self
            .runs
            .lock()
            .map_or(0, |r| r.as_ref().map_or(0, |r| 2 + r.ends.kernels_built()));
        self.scan.kernels_built() + self.by_key.kernels_built() + runs
    }

    /// The kernels for `gpu` (compiled on first use of each operation), tiled as
    /// [`Tiling::for_value`] plans for the pairs they scan.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Self::with_tiling(gpu, Tiling::for_value::<UVec2>(gpu))
    }

    /// The kernels with `tiling` forced (a typed error where the device cannot run it; the
    /// pairs take shared-memory or one-subgroup tiles as for [`Scan`]): smaller tiles cross
    /// more work groups for the same input.
    pub fn with_tiling(gpu: &Gpu, tiling: Tiling) -> Result<Self> {
        Ok(Self {
            gpu: gpu.clone(),
            tiling,
            scan: Scan::with_io(gpu, tiling, io("<segmented scan io>", SCAN_IO))?,
            by_key: Scan::with_io(gpu, tiling, io("<reduce by key io>", RUNS_IO))?,
            runs: Mutex::new(None),
            uniforms: Uniforms::default(),
            scratch: Scratch::default(),
            _element: std::marker::PhantomData,
        })
    }

    /// Records the segmented scan of `values` into `output` with `op`: a segment starts at
    /// element 0 and wherever `heads[i] != 0`, and each is scanned on its own (exclusive: each
    /// segment starts from the identity).
    pub fn record_scan(
        &self,
        commands: &mut Commands,
        values: &Buffer<T>,
        heads: &Buffer<u32>,
        output: &Buffer<T>,
        op: Op,
        inclusive: bool,
    ) -> Result<()> {
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

    /// Segmented scan, submitted.
    pub fn run_scan(
        &self,
        values: &Buffer<T>,
        heads: &Buffer<u32>,
        output: &Buffer<T>,
        op: Op,
        inclusive: bool,
    ) -> Result<Submission> {
        let mut commands = self.gpu.commands();
        self.record_scan(&mut commands, values, heads, output, op, inclusive)?;
        commands.submit()
    }

    /// Records reduce-by-key: for each run of equal consecutive `keys`, its key into
    /// `unique_keys` and `op` over its values into `reduced`, in order, and the number of runs
    /// into `count` (on the GPU, its first word as [`Compact`](crate::Compact) leaves it; the
    /// dispatch arguments after it are zero, there being no next kernel to size). Both outputs
    /// hold at least one element per key; past the count their elements are overwritten (every
    /// key is stored somewhere, so that no store waits on a branch).
    #[expect(
        clippy::too_many_arguments,
        reason = "run_reduce_by_key's arguments and the batch: one per buffer, as there"
    )]
    pub fn record_reduce_by_key(
        &self,
        commands: &mut Commands,
        keys: &Buffer<u32>,
        values: &Buffer<T>,
        unique_keys: &Buffer<u32>,
        reduced: &Buffer<T>,
        count: &CompactCount,
        op: Op,
    ) -> Result<()> {
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

    /// Reduce-by-key, submitted.
    pub fn run_reduce_by_key(
        &self,
        keys: &Buffer<u32>,
        values: &Buffer<T>,
        unique_keys: &Buffer<u32>,
        reduced: &Buffer<T>,
        count: &CompactCount,
        op: Op,
    ) -> Result<Submission> {
        let mut commands = self.gpu.commands();
        self.record_reduce_by_key(&mut commands, keys, values, unique_keys, reduced, count, op)?;
        commands.submit()
    }

    /// Records the runs of `keys`: each one's key and result at its index, and their number.
    fn reduce_runs(
        &self,
        commands: &mut Commands,
        (values, keys): (&Buffer<u32>, &Buffer<u32>),
        (unique_keys, reduced): (&Buffer<u32>, &Buffer<u32>),
        count: &CompactCount,
        op: Op,
        n: u32,
    ) -> Result<()> {
        wgsl::at_least("reduce by key: unique keys", n as u64, unique_keys.len())?;
        wgsl::at_least("reduce by key: reduced values", n as u64, reduced.len())?;
        count.check("reduce by key")?;
        // No runs leave the count (and the arguments) zero.
        commands.clear(&count.buffer);
        let io = Io {
            values,
            heads: keys,
            out: (reduced, unique_keys, &count.buffer),
        };
        self.record_segments(commands, io, &self.by_key, op, true, n)
    }

    /// Records the one scan, `scan` (`self.scan` or `self.by_key`): the `io` block's bindings
    /// and its `Segments` uniform.
    fn record_segments(
        &self,
        commands: &mut Commands,
        io: Io<'_>,
        scan: &Scan<UVec2>,
        op: Op,
        inclusive: bool,
        n: u32,
    ) -> Result<()> {
        let Some(operator) = segmented_operator(T::WGSL, op) else {
            return Err(shoal::Error::Wgsl {
                kernel: FAMILY.into(),
                message: format!("no segmented form of {op:?} on {}", T::WGSL),
            });
        };
        let identity = op.identity::<T>().bits();
        let segments = self.uniforms.get(&self.gpu, [identity, 0, 0, 0])?;
        let (out, keys, count) = io.out;
        let values4 = self.scratch.vec4s(&self.gpu, io.values)?;
        let heads4 = self.scratch.vec4s(&self.gpu, io.heads)?;
        let hooks: [(&'static str, &dyn shoal::Bindable); 8] = [
            ("segments", &segments),
            ("seg_values", io.values),
            ("seg_heads", io.heads),
            ("seg_out", out),
            ("seg_keys", keys),
            ("seg_count", count),
            ("seg_values4", &values4),
            ("seg_heads4", &heads4),
        ];
        let spec = if inclusive {
            ScanSpec::inclusive(operator)
        } else {
            ScanSpec::exclusive(operator)
        };
        scan.record_hooked(commands, n, spec, &hooks)
    }

    /// A one-element buffer for an `io` binding a run does not write.
    fn stand_in(&self, name: &'static str) -> Result<Buffer<u32>> {
        self.scratch.get(&self.gpu, name, 1)
    }

    /// `values` and `heads` of one length that kernels can index; the length.
    fn check(
        &self,
        what: &str,
        values: &Buffer<T>,
        heads: &Buffer<u32>,
        name: &str,
    ) -> Result<u32> {
        let n = wgsl::count_u32(what, values.len())?;
        if heads.len() != values.len() {
            return Err(shoal::Error::Length {
                what: format!("{what}: {name}"),
                expected: values.len(),
                got: heads.len(),
            });
        }
        Ok(n)
    }
}

/// The buffers of one run's `io` block: values, flags or keys, and the outputs (results, keys,
/// count).
struct Io<'a> {
    values: &'a Buffer<u32>,
    heads: &'a Buffer<u32>,
    out: (&'a Buffer<u32>, &'a Buffer<u32>, &'a Buffer<u32>),
}

impl Segmented<u32> {
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
    /// use shoal_kernels::{CompactCount, Segmented};
    /// let gpu = shoal::Gpu::blocking()?;
    /// let keys = gpu.buffer_from(&[5u32, 5, 5, 2, 9, 9])?;
    /// let (unique, lengths, count) = (gpu.buffer_zeroed::<u32>(6)?, gpu.buffer_zeroed::<u32>(6)?, CompactCount::new(&gpu)?);
    /// Segmented::<u32>::new(&gpu)?.run_run_lengths(&keys, &unique, &lengths, &count)?;
    /// assert_eq!(pollster::block_on(count.read())?, 3);
    /// assert_eq!(unique.read_blocking()?[..3], [5, 2, 9]);
    /// assert_eq!(lengths.read_blocking()?[..3], [3, 1, 2]);
    /// # Ok(()) }
    /// ```
    pub fn record_run_lengths(
        &self,
        commands: &mut Commands,
        keys: &Buffer<u32>,
        unique_keys: &Buffer<u32>,
        lengths: &Buffer<u32>,
        count: &CompactCount,
    ) -> Result<()> {
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

    /// Run-length encoding's kernels, compiled on first use.
    fn run_kernels(&self) -> Result<Arc<RunKernels>> {
        let mut kept = self.runs.lock().map_err(|_| wgsl::poisoned())?;
        if let Some(k) = &*kept {
            return Ok(k.clone());
        }
        let workgroup = wgsl::plan_workgroup(&self.gpu, 256);
        let io = shoal::Source::new("<run ends io>", RUN_ENDS);
        let kernels = Arc::new(RunKernels {
            ends: Scan::with_io(&self.gpu, self.tiling, io)?,
            lengths: wgsl::builder(&self.gpu, RUN_LENGTHS)
                .entry("run_lengths")
                .constant("WG", workgroup)
                .build()?,
            tail: wgsl::builder(&self.gpu, RUN_LENGTHS)
                .entry("run_tail")
                .build()?,
            workgroup,
            args: CompactCount::new(&self.gpu)?,
        });
        *kept = Some(kernels.clone());
        Ok(kernels)
    }

    /// Run-length encoding, submitted.
    pub fn run_run_lengths(
        &self,
        keys: &Buffer<u32>,
        unique_keys: &Buffer<u32>,
        lengths: &Buffer<u32>,
        count: &CompactCount,
    ) -> Result<Submission> {
        let mut commands = self.gpu.commands();
        self.record_run_lengths(&mut commands, keys, unique_keys, lengths, count)?;
        commands.submit()
    }
}

/// The CPU twin of [`Segmented::record_scan`]: each segment (starting at 0 and where
/// `heads[i] != 0`) scanned on its own.
pub fn segmented_scan_cpu<T: Scalar>(
    values: &[T],
    heads: &[u32],
    op: Op,
    inclusive: bool,
) -> Vec<T> {
    let mut acc = op.identity::<T>();
    values
        .iter()
        .zip(heads)
        .enumerate()
        .map(|(i, (&x, &h))| {
            if i == 0 || h != 0 {
                acc = op.identity();
            }
            let before = acc;
            acc = op.apply(acc, x);
            if inclusive { acc } else { before }
        })
        .collect()
}

/// The CPU twin of [`Segmented::record_reduce_by_key`]: each run of equal consecutive keys,
/// its key and `op` over its values.
pub fn reduce_by_key_cpu<T: Scalar>(keys: &[u32], values: &[T], op: Op) -> (Vec<u32>, Vec<T>) {
    let mut out: (Vec<u32>, Vec<T>) = (Vec::new(), Vec::new());
    for (i, (&k, &v)) in keys.iter().zip(values).enumerate() {
        if i == 0 || keys[i - 1] != k {
            out.0.push(k);
            out.1.push(v);
        } else if let Some(last) = out.1.last_mut() {
            *last = op.apply(*last, v);
        }
    }
    out
}

#[cfg(test)]
mod tests;
