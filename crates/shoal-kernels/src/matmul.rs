//! [`Matmul`]: `C = A × B` for row-major `f32` matrices, tiled through shared memory, with the
//! naive one-invocation-per-element kernel kept as the baseline.

use shoal::{Buffer, Commands, Error, Gpu, Kernel, Result};

use crate::wgsl::Uniforms;

const SOURCE: shoal::Source = shoal::wgsl!("../wgsl/matmul.wgsl");
/// Outputs per invocation along each axis in the tiled kernel (`BLOCK` in the WGSL).
const BLOCK: u32 = 4;

/// Which kernel multiplies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MatmulKernel {
    /// Shared-memory tiles, 4 × 4 outputs per invocation.
    #[default]
    Tiled,
    /// One invocation per output, operands from global memory.
    Naive,
}

/// Matrix products of row-major `f32` matrices.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{Matmul, MatmulKernel, matmul_cpu};
/// let gpu = shoal::Gpu::blocking()?;
/// let [m, k, n] = [20u32, 30, 10];
/// let a: Vec<f32> = (0..m * k).map(|i| (i % 5) as f32).collect();
/// let b: Vec<f32> = (0..k * n).map(|i| (i % 3) as f32).collect();
/// let (ga, gb) = (gpu.buffer_from(&a)?, gpu.buffer_from(&b)?);
/// let c = gpu.buffer_zeroed::<f32>((m * n) as u64)?;
/// Matmul::new(&gpu)?.run(&ga, &gb, &c, [m, k, n], MatmulKernel::Tiled)?;
/// assert_eq!(c.read_blocking()?, matmul_cpu(&a, &b, [m as usize, k as usize, n as usize]));
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Matmul {
    gpu: Gpu,
    tile: u32,
    tiled: Kernel,
    naive: Kernel,
    uniforms: Uniforms,
}

impl Matmul {
    /// Both kernels for `gpu`, with 16 × 16 work groups (8 × 8 where the device allows fewer
    /// than 256 invocations).
    pub fn new(gpu: &Gpu) -> Result<Self> {
        let tile = if gpu.limits().max_compute_work_group_invocations >= 256 {
            16
        } else {
            8
        };
        let build = |entry| {
            gpu.kernel_builder(SOURCE)
                .entry(entry)
                .constant("TILE", tile)
                .build()
        };
        Ok(Self {
            gpu: gpu.clone(),
            tile,
            tiled: build("matmul_tiled")?,
            naive: build("matmul_naive")?,
            uniforms: Uniforms::default(),
        })
    }

    /// Records `c = a × b` where `a` is `m × k` and `b` is `k × n` (row-major), `c` is `m × n`.
    #[allow(
        clippy::too_many_arguments,
        reason = "three matrices and their three dimensions"
    )]
    pub fn record(
        &self,
        commands: &mut Commands,
        a: &Buffer<f32>,
        b: &Buffer<f32>,
        c: &Buffer<f32>,
        [m, k, n]: [u32; 3],
        kernel: MatmulKernel,
    ) -> Result<()> {
        let dims = |what: &str, buffer: &Buffer<f32>, rows: u32, cols: u32| {
            let want = rows as u64 * cols as u64;
            if buffer.len() != want {
                return Err(Error::Length {
                    what: format!("matmul: {what} is {rows} x {cols}"),
                    expected: want,
                    got: buffer.len(),
                });
            }
            Ok(())
        };
        dims("A", a, m, k)?;
        dims("B", b, k, n)?;
        dims("C", c, m, n)?;
        if m == 0 || n == 0 {
            return Ok(());
        }
        if k == 0 {
            commands.clear(c);
            return Ok(());
        }
        let params = self.uniforms.get(&self.gpu, [m, k, n, 0])?;
        let (pipeline, per) = match kernel {
            MatmulKernel::Tiled => (&self.tiled, self.tile * BLOCK),
            MatmulKernel::Naive => (&self.naive, self.tile),
        };
        pipeline
            .bind("dims", &params)
            .bind("a", a)
            .bind("b", b)
            .bind("c", c)
            .groups([n.div_ceil(per), m.div_ceil(per), 1])
            .record(commands)
    }

    /// Multiplies and submits.
    pub fn run(
        &self,
        a: &Buffer<f32>,
        b: &Buffer<f32>,
        c: &Buffer<f32>,
        mkn: [u32; 3],
        kernel: MatmulKernel,
    ) -> Result<shoal::Submission> {
        let mut commands = self.gpu.commands();
        self.record(&mut commands, a, b, c, mkn, kernel)?;
        commands.submit()
    }
}

/// The CPU twin of [`Matmul`]: the triple loop, accumulating in `f64`.
pub fn matmul_cpu(a: &[f32], b: &[f32], [m, k, n]: [usize; 3]) -> Vec<f32> {
    let mut c = vec![0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k)
                .map(|p| a[i * k + p] as f64 * b[p * n + j] as f64)
                .sum::<f64>() as f32;
        }
    }
    c
}

#[cfg(test)]
mod tests;
