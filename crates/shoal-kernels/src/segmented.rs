//! [`Segmented`]: segmented scans (a head flag starts each segment), reduce-by-key over runs of
//! equal keys, and run-length encoding, of `u32`, `i32` or `f32` values with the built-in
//! operations. Each is the [`Scan`] of (flag, value) pairs with the segmented form of the
//! operation, an [`Operator`] on `vec2<u32>`, between a pass that packs the pairs and one that
//! unpacks them (`wgsl/segmented.wgsl`); reduce-by-key then keeps the last value of every run
//! with the [`Compact`] family.

use shoal::glam::UVec2;
use shoal::{Buffer, Commands, Gpu, Kernel, Result, Submission};

use crate::compact::{Compact, CompactCount, Keep};
use crate::operator::Operator;
use crate::scan::{Scan, ScanSpec};
use crate::wgsl::{self, Op, Scalar, Scratch, Uniforms};

const SOURCE: shoal::Source = shoal::wgsl!("../wgsl/segmented.wgsl");

/// The segmented form of a built-in operation on `V`'s bits, as an operator on (flag, bits)
/// pairs: `(fa, a) ∘ (fb, b) = (fa | fb, fb ? b : a op b)`, associative whenever `op` is.
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
    if b.x != 0u { return b; }
    let x = bitcast<V>(a.y);
    let y = bitcast<V>(b.y);
    return vec2<u32>(a.x, bitcast<u32>(",
                $combine,
                "));
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

/// Where segments start: head flags, or keys whose runs are the segments.
#[derive(Debug, Clone, Copy)]
enum Heads<'a> {
    Flags(&'a Buffer<u32>),
    Keys(&'a Buffer<u32>),
    /// Keys, with every value 1 (the run lengths).
    KeysCounted(&'a Buffer<u32>),
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
    pack: Kernel,
    unpack: Kernel,
    run_ends: Kernel,
    scan: Scan<UVec2>,
    compact: Compact,
    uniforms: Uniforms,
    scratch: Scratch,
    _element: std::marker::PhantomData<fn() -> T>,
}

impl<T: Scalar> Segmented<T> {
    /// The kernels for `gpu`.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        let wg = wgsl::plan_workgroup(gpu, 256);
        let build = |entry| {
            wgsl::builder(gpu, SOURCE)
                .entry(entry)
                .constant("WG", wg)
                .build()
        };
        Ok(Self {
            gpu: gpu.clone(),
            pack: build("pack")?,
            unpack: build("unpack")?,
            run_ends: build("run_ends")?,
            scan: Scan::new(gpu)?,
            compact: Compact::new(gpu)?,
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
        let n = self.check("segmented scan", values, heads, "heads (one per value)")?;
        crate::scan::check_pair("segmented scan", values, output)?;
        let bits = values.view_as::<u32>();
        let Some(scanned) = self.scan_pairs(commands, &bits, Heads::Flags(heads), op, n)? else {
            return Ok(());
        };
        let params = self.params(n, 0, inclusive, op)?;
        self.unpack
            .bind("params", &params)
            .bind("heads", heads)
            .bind("scanned", &scanned)
            .bind("output", &output.view_as::<u32>())
            .invocations(n as u64)
            .record(commands)
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
    /// into `count` (on the GPU, as [`Compact`] leaves it). Both outputs hold at least one
    /// element per key.
    pub fn record_reduce_by_key(
        &self,
        commands: &mut Commands,
        keys: &Buffer<u32>,
        values: &Buffer<T>,
        (unique_keys, reduced): (&Buffer<u32>, &Buffer<T>),
        count: &CompactCount,
        op: Op,
    ) -> Result<()> {
        let n = self.check("reduce by key", values, keys, "keys (one per value)")?;
        let reduced = reduced.view_as::<u32>();
        let values = values.view_as::<u32>();
        let outputs = (unique_keys, &reduced);
        self.reduce_runs(commands, (&values, keys, false), outputs, count, op, n)
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
        self.record_reduce_by_key(
            &mut commands,
            keys,
            values,
            (unique_keys, reduced),
            count,
            op,
        )?;
        commands.submit()
    }

    /// Records the scan of (head, value) pairs, then keeps each run's key and last value.
    fn reduce_runs(
        &self,
        commands: &mut Commands,
        (values, keys, counted): (&Buffer<u32>, &Buffer<u32>, bool),
        (unique_keys, reduced): (&Buffer<u32>, &Buffer<u32>),
        count: &CompactCount,
        op: Op,
        n: u32,
    ) -> Result<()> {
        wgsl::at_least("reduce by key: unique keys", n as u64, unique_keys.len())?;
        wgsl::at_least("reduce by key: reduced values", n as u64, reduced.len())?;
        let heads = if counted {
            Heads::KeysCounted(keys)
        } else {
            Heads::Keys(keys)
        };
        let Some(scanned) = self.scan_pairs(commands, values, heads, op, n)? else {
            // No runs: the count and the arguments are zero.
            commands.clear(&count.buffer);
            return Ok(());
        };
        let inclusive = self.scratch.get(&self.gpu, "inclusive", n as u64)?;
        let ends = self.scratch.get(&self.gpu, "ends", n as u64)?;
        let params = self.params(n, 1, true, op)?;
        self.run_ends
            .bind("params", &params)
            .bind("heads", keys)
            .bind("scanned", &scanned)
            .bind("output", &inclusive)
            .bind("ends", &ends)
            .invocations(n as u64)
            .record(commands)?;
        self.compact
            .record(commands, &inclusive, Keep::Flags(&ends), reduced, count, 0)?;
        self.compact
            .record(commands, keys, Keep::Flags(&ends), unique_keys, count, 0)
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

    fn params(
        &self,
        n: u32,
        mode: u32,
        inclusive: bool,
        op: Op,
    ) -> Result<Buffer<shoal::glam::UVec4>> {
        self.uniforms.get(
            &self.gpu,
            [n, mode, inclusive as u32, op.identity::<T>().bits()],
        )
    }

    /// Records packing and scanning (flag, value) pairs; the scanned pairs, or `None` for no
    /// elements.
    fn scan_pairs(
        &self,
        commands: &mut Commands,
        values: &Buffer<u32>,
        heads: Heads<'_>,
        op: Op,
        n: u32,
    ) -> Result<Option<Buffer<UVec2>>> {
        if n == 0 {
            return Ok(None);
        }
        let Some(operator) = segmented_operator(T::WGSL, op) else {
            return Err(shoal::Error::Wgsl {
                kernel: SOURCE.path().to_string(),
                message: format!("no segmented form of {op:?} on {}", T::WGSL),
            });
        };
        let (mode, heads) = match heads {
            Heads::Flags(h) => (0, h),
            Heads::Keys(k) => (1, k),
            Heads::KeysCounted(k) => (2, k),
        };
        let pairs = self
            .scratch
            .get(&self.gpu, "pairs", 2 * n as u64)?
            .view_as::<UVec2>();
        let scanned = self
            .scratch
            .get(&self.gpu, "scanned", 2 * n as u64)?
            .view_as::<UVec2>();
        let params = self.params(n, mode, true, op)?;
        self.pack
            .bind("params", &params)
            .bind("values", values)
            .bind("heads", heads)
            .bind("pairs", &pairs)
            .invocations(n as u64)
            .record(commands)?;
        self.scan
            .record(commands, &pairs, &scanned, ScanSpec::inclusive(operator))?;
        Ok(Some(scanned))
    }
}

impl Segmented<u32> {
    /// Records run-length encoding: for each run of equal consecutive `keys`, its key into
    /// `unique_keys` and its length into `lengths`, and the number of runs into `count`.
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
        (unique_keys, lengths): (&Buffer<u32>, &Buffer<u32>),
        count: &CompactCount,
    ) -> Result<()> {
        let n = wgsl::count_u32("run lengths", keys.len())?;
        // The keys stand in for the values, which the kernel does not read.
        let outputs = (unique_keys, lengths);
        self.reduce_runs(commands, (keys, keys, true), outputs, count, Op::Sum, n)
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
        self.record_run_lengths(&mut commands, keys, (unique_keys, lengths), count)?;
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
