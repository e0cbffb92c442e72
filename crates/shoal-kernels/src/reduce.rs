//! [`Reduce`]: the sum, minimum or maximum of a buffer, or its fold by any associative
//! [`Operator`](crate::Operator), on the GPU, with the scan's up-sweep (`reduce_tiles` in
//! `wgsl/scan.wgsl`): each work group folds `REDUCE_SPAN` (16) tiles of the scan's tiling, then
//! reduces across its invocations (subgroup operations where the adapter has them, else shared
//! memory; in element order, through the work-group scan, for an operator), level after level
//! until one value is left.

use std::sync::Mutex;

use shoal::{Buffer, Commands, Family, Gpu, Kernel, Record, Result};

use crate::buffers::{check_apart, named};
use crate::operator::Operation;
use crate::scan::{ScanKernels, Tiling, grow_levels};
use crate::value::Value;
use crate::wgsl::{self, Op, Scalar};

/// Tiles of the scan's tiling each work group of a reduction folds before its one work-group
/// reduction: the reduction needs no registers per element, so its work groups take several
/// tiles and pay their barriers (or subgroup operations) once for all of them. On llvmpipe's GL
/// and lavapipe (`cargo xtask bench -- reduce`) the time fell up to 8 tiles and barely moved
/// beyond 16.
const REDUCE_SPAN: u32 = 16;

/// Reductions of `u32`, `i32` or `f32` buffers (or their vectors) with [`Op::Sum`], [`Op::Min`]
/// or [`Op::Max`], or of any [`Value`] with an [`Operator`](crate::Operator).
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{Op, Record, Reduce, ReduceArgs};
/// let gpu = shoal::Gpu::blocking()?;
/// let input = gpu.buffer_from(&(1..=1000).collect::<Vec<u32>>())?;
/// let total = gpu.buffer_zeroed::<u32>(1)?;
/// let reduce = Reduce::<u32>::new(&gpu)?;
/// reduce.run(ReduceArgs { input: &input, output: &total, op: Op::Sum.into() })?;
/// assert_eq!(total.read_blocking()?, [500_500]);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Reduce<T: Value> {
    kernels: ScanKernels<T>,
    levels: Mutex<Vec<Buffer<T>>>,
    /// Tiles each work group folds before its work-group reduction ([`REDUCE_SPAN`]).
    span: u32,
}

impl<T: Value> Reduce<T> {
    /// How many kernels are compiled so far (for the warm-up's tests).
    #[cfg(test)]
    pub(crate) fn kernels_built(&self) -> usize {
        self.kernels.built()
    }

    /// A reduction for `gpu`, tiled as [`Tiling::for_value`] plans.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Self::with_tiling(gpu, Tiling::for_value::<T>(gpu))
    }

    /// A reduction with `tiling` forced (a typed error where the device cannot run it).
    pub fn with_tiling(gpu: &Gpu, tiling: Tiling) -> Result<Self> {
        Ok(Self {
            kernels: ScanKernels::new(gpu, tiling)?,
            levels: Mutex::new(Vec::new()),
            span: REDUCE_SPAN,
        })
    }

    /// Reduces `input` with `op` and reads the value back.
    pub async fn value(&self, input: &Buffer<T>, op: impl Into<Operation>) -> Result<T> {
        let output = self.kernels.gpu().buffer_zeroed::<T>(1)?;
        let op = op.into();
        self.run(ReduceArgs {
            input,
            output: &output,
            op,
        })?;
        let v = output.read().await?;
        v.first().copied().ok_or_else(|| shoal::Error::Length {
            what: "reduce: the value read back".into(),
            expected: 1,
            got: 0,
        })
    }
}

/// What one [`Reduce`] reads and writes: `op` over every element of `input` into `output[0]`.
#[derive(Debug, Clone, Copy)]
pub struct ReduceArgs<'a, T: Value> {
    /// The elements to reduce (the result is the identity when there are none).
    pub input: &'a Buffer<T>,
    /// Where the result goes, at index 0: another buffer than `input`.
    pub output: &'a Buffer<T>,
    /// The operation: a built-in [`Op`] or an [`Operator`](crate::Operator) (`.into()` either).
    pub op: Operation,
}

impl<T: Value> Family for Reduce<T> {
    fn gpu(&self) -> &Gpu {
        self.kernels.gpu()
    }

    /// The kernels compiled so far (one per operation and level shape, on first use).
    fn kernels(&self) -> Vec<&Kernel> {
        self.kernels.compiled()
    }
}

impl<T: Value> Record<ReduceArgs<'_, T>> for Reduce<T> {
    /// Records writing `op` (an [`Op`] or an [`Operator`](crate::Operator)) over every element
    /// of `input` (the identity when it is empty) to `output[0]`. An `output` in `input`'s
    /// buffer (itself, a view, a slice) is [`shoal::Error::BindingKind`], a buffer of another
    /// `Gpu` [`shoal::Error::WrongGpu`]; nothing is recorded then.
    fn record(&self, commands: &mut Commands, args: ReduceArgs<'_, T>) -> Result<()> {
        let ReduceArgs { input, output, op } = args;
        let commands = &mut commands.labelled("reduce");
        // One answer whatever the size: the last level writes the output while it reads the
        // input (or a level of scratch), so the two are apart always.
        let buffers = [named("input", input), named("output", output)];
        let why = "the kernels read the input while writing the output";
        check_apart(self.kernels.gpu(), "reduce", &buffers, why)?;
        let n = wgsl::count_u32("reduce", input.len())?;
        wgsl::at_least("reduce: output buffer", 1, output.len())?;
        let lens = self.kernels.level_lens(n, self.span);
        let scratch = {
            let mut kept = self.levels.lock().map_err(|_| wgsl::poisoned())?;
            let gpu = self.kernels.gpu();
            grow_levels(&mut kept, &lens, Buffer::len, |len| {
                gpu.buffer_zeroed::<T>(len)
            })?;
            kept[..lens.len()].to_vec()
        };
        // WGSL arrays are never empty: an empty input is read as one ignored element of a
        // stand-in, and the kernel writes the identity.
        let stand_in;
        let input = if n == 0 {
            stand_in = self.kernels.gpu().buffer_zeroed::<T>(1)?;
            &stand_in
        } else {
            input
        };
        let mut below = (input, n);
        for (len, partials) in lens.iter().zip(&scratch) {
            self.kernels
                .record_reduce_tiles(commands, op, below, partials, self.span, None)?;
            below = (partials, *len);
        }
        self.kernels
            .record_reduce_tiles(commands, op, below, output, self.span, None)
    }
}

/// The CPU twin of [`Reduce`] with a built-in operation: a sequential fold.
pub fn reduce_cpu<T: Scalar>(input: &[T], op: Op) -> T {
    input.iter().fold(op.identity(), |acc, &x| op.apply(acc, x))
}

#[cfg(test)]
mod tests;
