//! [`WorkgroupScan`]: the OpenGL compute-shader lesson's work-group scan as it stands.

use shoal::{Buffer, Commands, Family, Gpu, Kernel, Record, Result};

use super::{PER, ScanKernels, Tiling, check_pair};
use crate::wgsl::{self, Op, Scalar};

/// The OpenGL compute-shader lesson's work-group scan, as it stands: each block of 2 × WG elements is scanned
/// on its own in shared memory, with WG the largest power of two the device allows up to 1024.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{Op, Record, WorkgroupScan, WorkgroupScanArgs, workgroup_scan_cpu};
/// let gpu = shoal::Gpu::blocking()?;
/// let scan = WorkgroupScan::<u32>::new(&gpu)?;
/// let values: Vec<u32> = (0..3000).map(|i| i % 5).collect();
/// let (input, output) = (gpu.buffer_from(&values)?, gpu.buffer_zeroed::<u32>(3000)?);
/// // Each block of 2 x WG on its own, exclusive.
/// scan.run(WorkgroupScanArgs { input: &input, output: &output, op: Op::Sum, inclusive: false })?;
/// let block = scan.block() as usize;
/// assert_eq!(output.read_blocking()?, workgroup_scan_cpu(&values, block, Op::Sum, false));
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct WorkgroupScan<T: Scalar> {
    kernels: ScanKernels<T>,
    wg: u32,
}

impl<T: Scalar> WorkgroupScan<T> {
    /// The kernel planned for `gpu`.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Ok(Self {
            kernels: ScanKernels::new(
                gpu,
                Tiling {
                    per_invocation: PER,
                    one_subgroup: false,
                    workgroup: None,
                },
            )?,
            wg: wgsl::plan_workgroup(gpu, 1024),
        })
    }

    /// How many kernels are compiled so far (for the warm-up's tests).
    #[cfg(test)]
    pub(crate) fn kernels_built(&self) -> usize {
        self.kernels.built()
    }

    /// Elements per block: 2 × WG (2048 where 1024 invocations are allowed, as in the document).
    pub fn block(&self) -> u32 {
        2 * self.wg
    }
}

/// What one [`WorkgroupScan`] reads and writes: each block of `input` scanned into `output`.
#[derive(Debug, Clone, Copy)]
pub struct WorkgroupScanArgs<'a, T: Scalar> {
    /// The elements to scan, block by block.
    pub input: &'a Buffer<T>,
    /// Where the scans go: another buffer than `input`, at least as long.
    pub output: &'a Buffer<T>,
    /// The operation.
    pub op: Op,
    /// Inclusive (`out[i]` includes `in[i]`) or exclusive (each block starts with the identity).
    pub inclusive: bool,
}

impl<T: Scalar> Family for WorkgroupScan<T> {
    fn gpu(&self) -> &Gpu {
        self.kernels.gpu()
    }

    /// The kernels compiled so far: one per operation, compiled on its first use.
    fn kernels(&self) -> Vec<&Kernel> {
        self.kernels.compiled()
    }
}

impl<T: Scalar> Record<WorkgroupScanArgs<'_, T>> for WorkgroupScan<T> {
    /// Records the scan of each block of `input` into `output`.
    fn record(&self, commands: &mut Commands, args: WorkgroupScanArgs<'_, T>) -> Result<()> {
        let WorkgroupScanArgs {
            input,
            output,
            op,
            inclusive,
        } = args;
        let commands = &mut commands.labelled("workgroup_scan");
        let n = check_pair(self.kernels.gpu(), "workgroup scan", input, output)?;
        if n == 0 {
            return Ok(());
        }
        let kernel = self
            .kernels
            .kernel(op.into(), "scan_workgroup", self.wg, false, 1, false)?;
        let params = self
            .kernels
            .uniforms
            .get(self.kernels.gpu(), [n, inclusive as u32, 0, 0])?;
        kernel
            .bind("params", &params)
            .bind("input", input)
            .bind("output", output)
            .invocations(n.div_ceil(self.block()) as u64 * self.wg as u64)
            .record(commands)
    }
}
