//! [`Segmented`]: segmented scans (a head flag starts each segment), reduce-by-key over runs of
//! equal keys, and run-length encoding, of `u32`, `i32` or `f32` values with the built-in
//! operations. The first two are one [`Scan`] of (heads so far, value) pairs with the segmented
//! form of the operation, an [`Operator`] on `vec2<u32>`, whose `io` block
//! (`wgsl/segmented.wgsl`) makes the pairs from the values and the flags (or keys) as it loads
//! them and stores the values, or each run's key and result at the run's index: one pass over
//! the input, like the scan. Run lengths are a scan of `u32` run ends (`wgsl/run_ends.wgsl`) and
//! a pass over the runs.

use shoal::glam::UVec2;
use std::sync::OnceLock;

use shoal::{Buffer, Commands, Gpu, Kernel, Result};

use crate::compact::CompactCount;
use crate::operator::Operator;
use crate::scan::{Scan, ScanSpec, Tiling};
use crate::wgsl::{self, Op, Scalar, Scratch, Uniforms};

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
                ";\n",
                include_str!("../wgsl/f32_infinity.wgsl"),
                "fn identity() -> T { return vec2<u32>(0u, bitcast<u32>(V(",
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

/// The `io` blocks of the scan's kernels, one scan each: the constants the segmented family's
/// `io` (`wgsl/segmented.wgsl`, a snippet of [`crate::SNIPPETS`]) is compiled with, then that
/// file. A segmented scan's segments start at head flags and it stores every element's result;
/// reduce-by-key's start where keys change, and it stores each run's key and result.
pub(crate) const SCAN_IO: shoal::Source = shoal::wgsl!("../wgsl/segmented_scan_io.wgsl");
/// The `io` block of reduce-by-key (see [`SCAN_IO`]).
pub(crate) const RUNS_IO: shoal::Source = shoal::wgsl!("../wgsl/segmented_runs_io.wgsl");

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
            for (what, io) in [("segmented scan", SCAN_IO), ("reduce by key", RUNS_IO)] {
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

/// Segmented scans, reduce-by-key and run-length encoding: three operations, each a
/// [`Record`](shoal::Record) of its own arguments ([`SegmentedScanArgs`], [`ReduceByKeyArgs`],
/// [`RunLengthsArgs`]).
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{CompactCount, Op, Record, ReduceByKeyArgs, Segmented, SegmentedScanArgs};
/// let gpu = shoal::Gpu::blocking()?;
/// let seg = Segmented::<u32>::new(&gpu)?;
/// // Segments start where the flag is set: [1 2 3] [4 5] [6].
/// let values = gpu.buffer_from(&[1u32, 2, 3, 4, 5, 6])?;
/// let heads = gpu.buffer_from(&[1u32, 0, 0, 1, 0, 1])?;
/// let sums = gpu.buffer_zeroed::<u32>(6)?;
/// let (op, inclusive) = (Op::Sum, true);
/// seg.run(SegmentedScanArgs { values: &values, heads: &heads, output: &sums, op, inclusive })?;
/// assert_eq!(sums.read_blocking()?, [1, 3, 6, 4, 9, 6]);
/// // Runs of equal keys reduced: key 7 sums 1 + 2, key 3 sums 3, key 7 again sums 4 + 5 + 6.
/// let keys = gpu.buffer_from(&[7u32, 7, 3, 7, 7, 7])?;
/// let (unique, reduced, count) = (gpu.buffer_zeroed::<u32>(6)?, gpu.buffer_zeroed::<u32>(6)?, CompactCount::new(&gpu)?);
/// seg.run(ReduceByKeyArgs {
///     keys: &keys,
///     values: &values,
///     unique_keys: &unique,
///     reduced: &reduced,
///     count: &count,
///     op,
/// })?;
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
    runs: OnceLock<RunKernels>,
    uniforms: Uniforms,
    scratch: Scratch,
    _element: std::marker::PhantomData<fn() -> T>,
}

impl<T: Scalar> Segmented<T> {
    /// How many kernels the scans have compiled so far (for the warm-up's tests).
    #[cfg(test)]
    pub(crate) fn kernels_built(&self) -> usize {
        let runs = self.runs.get().map_or(0, |r| 2 + r.ends.kernels_built());
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
            scan: Scan::with_io(gpu, tiling, SCAN_IO)?,
            by_key: Scan::with_io(gpu, tiling, RUNS_IO)?,
            runs: OnceLock::new(),
            uniforms: Uniforms::default(),
            scratch: Scratch::default(),
            _element: std::marker::PhantomData,
        })
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
    /// Run-length encoding's kernels, compiled on first use.
    fn run_kernels(&self) -> Result<&RunKernels> {
        if let Some(kernels) = self.runs.get() {
            return Ok(kernels);
        }
        let workgroup = wgsl::plan_workgroup(&self.gpu, 256);
        let io = shoal::Source::new("<run ends io>", RUN_ENDS);
        let kernels = RunKernels {
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
        };
        // Two first calls at once may both compile: one set is kept, the other dropped.
        Ok(self.runs.get_or_init(|| kernels))
    }
}

/// The CPU twin of a segmented scan ([`SegmentedScanArgs`]): each segment (starting at 0 and where
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

/// The CPU twin of reduce-by-key ([`ReduceByKeyArgs`]): each run of equal consecutive keys,
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

mod args;

pub use args::{ReduceByKeyArgs, RunLengthsArgs, SegmentedScanArgs};

#[cfg(test)]
mod tests;
