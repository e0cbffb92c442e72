//! [`WorkgroupScan`]: the OpenGL compute-shader lesson's work-group scan as it stands.

use shoal::{Buffer, Commands, Gpu, Result};

use super::{PER, ScanKernels, Tiling, check_pair};
use crate::wgsl::{self, Op, Scalar};

/// The OpenGL compute-shader lesson's work-group scan, as it stands: each block of 2 × WG elements is scanned
/// on its own in shared memory, with WG the largest power of two the device allows up to 1024.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{Op, WorkgroupScan, workgroup_scan_cpu};
/// let gpu = shoal::Gpu::blocking()?;
/// let scan = WorkgroupScan::<u32>::new(&gpu)?;
/// let values: Vec<u32> = (0..3000).map(|i| i % 5).collect();
/// let (input, output) = (gpu.buffer_from(&values)?, gpu.buffer_zeroed::<u32>(3000)?);
/// scan.run(&input, &output, Op::Sum, false)?; // each block of 2 x WG on its own
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

    /// The `Gpu` the kernel runs on.
    pub(crate) fn gpu(&self) -> &Gpu {
        self.kernels.gpu()
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

    /// Records the scan of each block of `input` into `output`.
    pub fn record(
        &self,
        commands: &mut Commands,
        input: &Buffer<T>,
        output: &Buffer<T>,
        op: Op,
        inclusive: bool,
    ) -> Result<()> {
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

    /// Scans each block and submits.
    pub fn run(
        &self,
        input: &Buffer<T>,
        output: &Buffer<T>,
        op: Op,
        inclusive: bool,
    ) -> Result<shoal::Submission> {
        let mut commands = self.kernels.gpu().commands();
        self.record(&mut commands, input, output, op, inclusive)?;
        commands.submit()
    }
}
