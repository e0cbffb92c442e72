//! [`Reduce`]: the sum, minimum or maximum of a buffer, on the GPU, with the scan's up-sweep
//! (`reduce_tiles` in `wgsl/scan.wgsl`): each work group folds a tile of WG × 16 elements
//! (subgroup operations where the adapter has them), level after level until one value is left.

use std::sync::Mutex;

use shoal::{Buffer, Commands, Gpu, Result, Submission};

use crate::scan::{ScanKernels, Tiling, grow_levels};
use crate::wgsl::{self, Op, Scalar};

/// Reductions of `u32`, `i32` or `f32` buffers with [`Op::Sum`], [`Op::Min`] or [`Op::Max`].
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{Op, Reduce};
/// let gpu = shoal::Gpu::blocking()?;
/// let input = gpu.buffer_from(&(1..=1000).collect::<Vec<u32>>())?;
/// let total = gpu.buffer_zeroed::<u32>(1)?;
/// Reduce::<u32>::new(&gpu)?.run(&input, &total, Op::Sum)?;
/// assert_eq!(total.read_blocking()?, [500_500]);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Reduce<T: Scalar> {
    kernels: ScanKernels<T>,
    levels: Mutex<Vec<Buffer<T>>>,
}

impl<T: Scalar> Reduce<T> {
    /// A reduction for `gpu`, tiled as [`Tiling::for_gpu`] plans.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Self::with_tiling(gpu, Tiling::for_gpu(gpu))
    }

    /// A reduction with `tiling` forced (a typed error where the device cannot run it).
    pub fn with_tiling(gpu: &Gpu, tiling: Tiling) -> Result<Self> {
        Ok(Self {
            kernels: ScanKernels::new(gpu, tiling)?,
            levels: Mutex::new(Vec::new()),
        })
    }

    /// Records writing `op` over every element of `input` (the identity when it is empty) to
    /// `output[0]`.
    pub fn record(
        &self,
        commands: &mut Commands,
        input: &Buffer<T>,
        output: &Buffer<T>,
        op: Op,
    ) -> Result<()> {
        let n = wgsl::count_u32("reduce", input.len())?;
        wgsl::at_least("reduce: output buffer", 1, output.len())?;
        let lens = self.kernels.level_lens(n);
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
                .record_reduce_tiles(commands, op, below.0, below.1, partials)?;
            below = (partials, *len);
        }
        self.kernels
            .record_reduce_tiles(commands, op, below.0, below.1, output)
    }

    /// Reduces `input` with `op` into `output[0]` and submits.
    pub fn run(&self, input: &Buffer<T>, output: &Buffer<T>, op: Op) -> Result<Submission> {
        let mut commands = self.kernels.gpu().commands();
        self.record(&mut commands, input, output, op)?;
        commands.submit()
    }

    /// Reduces `input` with `op` and reads the value back.
    pub async fn value(&self, input: &Buffer<T>, op: Op) -> Result<T> {
        let output = self.kernels.gpu().buffer_zeroed::<T>(1)?;
        self.run(input, &output, op)?;
        let v = output.read().await?;
        Ok(v.first().copied().unwrap_or(op.identity()))
    }
}

/// The CPU twin of [`Reduce`]: a sequential fold.
pub fn reduce_cpu<T: Scalar>(input: &[T], op: Op) -> T {
    input.iter().fold(op.identity(), |acc, &x| op.apply(acc, x))
}

#[cfg(test)]
mod tests;
