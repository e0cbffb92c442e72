//! [`Matmul`]: `C = A × B` for row-major `f32` matrices, tiled through shared memory in a
//! [`MatmulTiling`] planned per adapter, with the naive one-invocation-per-element kernel kept as
//! the baseline.

use std::fmt::Write as _;

use shoal::{Buffer, Commands, Error, Family, Gpu, Kernel, Record, Result};

use crate::wgsl::Uniforms;

const SOURCE: shoal::Source = shoal::wgsl!("../wgsl/matmul.wgsl");

/// How the tiled kernel cuts C: work groups of `tile × tile` invocations, each computing `rows ×
/// cols` outputs in registers, with panels of A and B `k_step` deep in shared memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatmulTiling {
    /// Invocations along each side of the work group.
    pub tile: u32,
    /// Rows of C per invocation: a multiple of 4 (one vec4 of A's panel per 4 rows).
    pub rows: u32,
    /// Columns of C per invocation: a multiple of 4.
    pub cols: u32,
    /// Columns of A (rows of B) per shared-memory panel.
    pub k_step: u32,
}

impl MatmulTiling {
    /// The shape of a GPU: 16 × 16 invocations of 4 × 4 outputs (a 64 × 64 block of C), panels
    /// 16 deep. Registers are what a GPU runs short of, so each invocation keeps 16 sums.
    pub const GPU: Self = Self {
        tile: 16,
        rows: 4,
        cols: 4,
        k_step: 16,
    };

    /// The shape of a software adapter (lavapipe, llvmpipe, SwiftShader): 8 × 8 invocations of
    /// 16 × 16 outputs (a 128 × 128 block of C), panels 8 deep (8 KiB of shared memory). Such an
    /// adapter runs each load lane by lane and the arithmetic a SIMD row at a time, so each k's
    /// 16 + 16 loaded values (eight vec4s) feed 256 sums, which it keeps on the stack: on
    /// lavapipe faster than [`GPU`](Self::GPU)'s shape and than 8 × 8 outputs per invocation
    /// (docs/primitives.md, "Matmul"; the figures: docs/bench/*.md).
    pub const SOFTWARE: Self = Self {
        tile: 8,
        rows: 16,
        cols: 16,
        k_step: 8,
    };

    /// What Shoal picks for `gpu`: [`SOFTWARE`](Self::SOFTWARE) on a software adapter, else
    /// [`GPU`](Self::GPU), each shrunk to the device's work-group limit.
    pub fn for_gpu(gpu: &Gpu) -> Self {
        Self::plan(&gpu.into())
    }

    /// [`for_gpu`](Self::for_gpu) for a device described by `profile` (no device needed).
    pub fn plan(profile: &shoal::DeviceProfile) -> Self {
        let mut shape = if profile.is_software() {
            Self::SOFTWARE
        } else {
            Self::GPU
        };
        while shape.tile > 1 && shape.invocations() > profile.max_workgroup_1d(u32::MAX) as u64 {
            shape.tile /= 2;
        }
        shape
    }

    /// `matmul.wgsl` in this shape: both kernels' source.
    pub(crate) fn source(self) -> shoal::Source {
        SOURCE
            .block("shape", shoal::Source::from(self.shape_block()))
            .block("step", shoal::Source::from(self.step_block()))
    }

    /// Rows (and columns) of C one work group computes.
    fn span(self) -> [u32; 2] {
        [self.tile * self.rows, self.tile * self.cols]
    }

    fn invocations(self) -> u64 {
        self.tile as u64 * self.tile as u64
    }

    /// Bytes of shared memory: both panels, as vec4s of `f32`.
    fn shared_bytes(self) -> u64 {
        let [r, c] = self.span();
        self.k_step as u64 * (r as u64 + c as u64) * 4
    }

    /// A typed error where the shape is malformed or exceeds the device's limits.
    fn check(self, gpu: &Gpu) -> Result<()> {
        let bad = |reason: String| {
            Err(Error::Override {
                kernel: SOURCE.path().to_string(),
                message: reason,
            })
        };
        if self.tile == 0 || self.k_step == 0 || self.rows == 0 || self.cols == 0 {
            return bad(format!(
                "matmul tiling {self:?}: every dimension must be positive"
            ));
        }
        if !self.rows.is_multiple_of(4)
            || !self.cols.is_multiple_of(4)
            || self.rows > 16
            || self.cols > 16
        {
            return bad(format!(
                "matmul tiling {self:?}: rows and columns per invocation must be 4, 8, 12 or 16"
            ));
        }
        let limits = gpu.limits();
        let max = limits.max_compute_work_group_invocations as u64;
        let side = limits.max_compute_work_group_size[0].min(limits.max_compute_work_group_size[1]);
        if self.invocations() > max || self.tile > side {
            return bad(format!(
                "matmul tiling {self:?}: {0} x {0} invocations exceed the device's work-group limit ({max}, {side} a side)",
                self.tile
            ));
        }
        let shared = limits.max_compute_shared_memory_size as u64;
        if self.k_step > 64 || self.shared_bytes() > shared {
            return bad(format!(
                "matmul tiling {self:?}: panels of {} bytes exceed the device's {shared} bytes of shared memory (or k_step > 64)",
                self.shared_bytes()
            ));
        }
        Ok(())
    }

    /// The `shape` block of `matmul.wgsl`.
    fn shape_block(self) -> String {
        format!(
            "const TILE: u32 = {}u;\nconst BR: u32 = {}u;\nconst BC: u32 = {}u;\nconst KSTEP: u32 = {}u;",
            self.tile, self.rows, self.cols, self.k_step
        )
    }

    /// The `step` block, unrolled: one k's rows as `rows / 4` vec4s of the A panel, its columns
    /// as `cols / 4` of the B panel, and every sum updated with a constant index (so the sums
    /// stay in registers on every compiler).
    fn step_block(self) -> String {
        let (rq, cq) = (self.rows / 4, self.cols / 4);
        let mut s = String::from("fn step(kk: u32, ty: u32, tx: u32) {\n");
        for i in 0..rq {
            let _ = writeln!(s, "    let a{i} = sh_a[kk * AQ + ty + {i}u];");
        }
        for j in 0..cq {
            let _ = writeln!(s, "    let b{j} = sh_b[kk * BQ + tx + {j}u];");
        }
        for i in 0..rq {
            for (r, lane) in ["x", "y", "z", "w"].iter().enumerate() {
                for j in 0..cq {
                    let sum = (i * 4 + r as u32) * cq + j;
                    let _ = writeln!(s, "    acc[{sum}] += a{i}.{lane} * b{j};");
                }
            }
        }
        s.push_str("}\nfn store(row: u32, col: u32) {\n");
        for i in 0..self.rows {
            for j in 0..self.cols {
                let (sum, lane) = (i * cq + j / 4, ["x", "y", "z", "w"][j as usize % 4]);
                let _ = writeln!(
                    s,
                    "    store_one(row + {i}u, col + {j}u, acc[{sum}].{lane});"
                );
            }
        }
        s.push_str("}\nfn load(row: u32, col: u32) {\n");
        for i in 0..self.rows {
            for q in 0..cq {
                let lanes: Vec<String> = (0..4)
                    .map(|l| format!("load_one(row + {i}u, col + {}u)", 4 * q + l))
                    .collect();
                let _ = writeln!(
                    s,
                    "    acc[{}] = vec4<f32>({});",
                    i * cq + q,
                    lanes.join(", ")
                );
            }
        }
        s.push('}');
        s
    }

    /// Columns of A (rows of B) one dispatch of the tiled kernel sums where an invocation may run
    /// `trips` loop iterations: whole panels, as many as fit. Each panel costs one trip of the loop
    /// over panels, the loops that fill the A and B panels (`k_step × rows × tile / 4` vec4s shared
    /// by `tile²` invocations, each loop one trip more than its iterations for its final test) and
    /// the `k_step + 1` trips of the loop over the panel: 20 trips per 8 columns in
    /// [`SOFTWARE`](Self::SOFTWARE), which is what llvmpipe measured (its sums stopped at k =
    /// 26,213 ≈ 65,535 / 20 × 8).
    fn k_chunk(self, trips: u32) -> u32 {
        let invocations = self.tile * self.tile;
        let fill = |per_k: u32| (self.k_step * per_k).div_ceil(invocations) + 1;
        let per_panel =
            1 + fill(self.tile * self.rows / 4) + fill(self.tile * self.cols / 4) + self.k_step + 1;
        (trips / per_panel).max(1) * self.k_step
    }
}

/// Loop trips the kernels plan per dispatch where the device ends loops past a budget
/// ([`Gpu::loop_iteration_budget`]: llvmpipe, which cuts every loop of an invocation off
/// silently past 65,535 trips in all, so a sum over a longer inner dimension would stop short):
/// half the budget, a margin for a compiler that shapes the loops with more trips than counted
/// here (llvmpipe's GL cut the tiled sums at 26,209 where lavapipe cut them at 26,213). A
/// longer inner dimension is split into chunks, one dispatch each ([`MatmulArgs`]).
fn planned_trips(budget: u32) -> u32 {
    budget / 2
}

/// Which kernel multiplies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MatmulKernel {
    /// Shared-memory panels, several outputs per invocation ([`MatmulTiling`]).
    #[default]
    Tiled,
    /// One invocation per output, operands from global memory.
    Naive,
}

/// Matrix products of row-major `f32` matrices.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{Matmul, MatmulArgs, MatmulKernel, Record, matmul_cpu};
/// let gpu = shoal::Gpu::blocking()?;
/// let [m, k, n] = [20u32, 30, 10];
/// let a: Vec<f32> = (0..m * k).map(|i| (i % 5) as f32).collect();
/// let b: Vec<f32> = (0..k * n).map(|i| (i % 3) as f32).collect();
/// let (ga, gb) = (gpu.buffer_from(&a)?, gpu.buffer_from(&b)?);
/// let c = gpu.buffer_zeroed::<f32>((m * n) as u64)?;
/// let args = MatmulArgs { a: &ga, b: &gb, c: &c, dims: [m, k, n], kernel: MatmulKernel::Tiled };
/// Matmul::new(&gpu)?.run(args)?;
/// assert_eq!(c.read_blocking()?, matmul_cpu(&a, &b, [m as usize, k as usize, n as usize]));
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Matmul {
    gpu: Gpu,
    shape: MatmulTiling,
    tiled: Kernel,
    naive: Kernel,
    uniforms: Uniforms,
}

impl Matmul {
    /// Both kernels for `gpu`, the tiled one in the shape [`MatmulTiling::for_gpu`] plans.
    /// Both are compiled here, so there is nothing to `prepare`: the first multiplication of
    /// any size compiles nothing.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Self::with_tiling(gpu, MatmulTiling::for_gpu(gpu))
    }

    /// Both kernels, the tiled one in `shape` (an [`Error::Override`] where `shape` is malformed
    /// or exceeds the device's limits). The naive kernel runs `tile × tile` work groups.
    pub fn with_tiling(gpu: &Gpu, shape: MatmulTiling) -> Result<Self> {
        shape.check(gpu)?;
        let source = shape.source();
        let build = |entry| gpu.kernel_builder(source.clone()).entry(entry).build();
        Ok(Self {
            gpu: gpu.clone(),
            shape,
            tiled: build("matmul_tiled")?,
            naive: build("matmul_naive")?,
            uniforms: Uniforms::default(),
        })
    }
}

/// What one [`Matmul`] reads and writes: `c = a × b`.
///
/// The kernel is chosen per multiplication rather than when the family is built: both are
/// compiled by [`Matmul::new`], so the choice only changes what is recorded (the benchmark and
/// the tests run both on one family).
#[derive(Debug, Clone, Copy)]
pub struct MatmulArgs<'a> {
    /// `m × k`, row-major.
    pub a: &'a Buffer<f32>,
    /// `k × n`, row-major.
    pub b: &'a Buffer<f32>,
    /// `m × n`, row-major: the product.
    pub c: &'a Buffer<f32>,
    /// `[m, k, n]`.
    pub dims: [u32; 3],
    /// Which kernel multiplies.
    pub kernel: MatmulKernel,
}

impl Family for Matmul {
    fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// Both kernels, compiled with the family: the tiled one, then the naive one.
    fn kernels(&self) -> Vec<&Kernel> {
        vec![&self.tiled, &self.naive]
    }
}

impl Record<MatmulArgs<'_>> for Matmul {
    /// Records `c = a × b` where `a` is `m × k` and `b` is `k × n` (row-major), `c` is `m × n`.
    ///
    /// Each element of C is summed in `f32` in order of `p = 0 .. k` (the tiled kernel adds a
    /// panel of `k_step` columns at a time, in the same order). Where the device ends loops past
    /// a budget ([`Gpu::loop_iteration_budget`]: llvmpipe) a long inner dimension is split into
    /// chunks so that no invocation runs more loop iterations than it allows: the first dispatch
    /// stores its sums in C, each later one continues from them, so the result is the one a
    /// single dispatch gives (one dispatch there up to k = 13,104 tiled and 32,766 naive; on
    /// other adapters always one).
    fn record(&self, commands: &mut Commands, args: MatmulArgs<'_>) -> Result<()> {
        let MatmulArgs {
            a,
            b,
            c,
            dims: [m, k, n],
            kernel,
        } = args;
        let commands = &mut commands.labelled("matmul");
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
        let ([rows, cols], pipeline) = match kernel {
            MatmulKernel::Tiled => (self.shape.span(), &self.tiled),
            MatmulKernel::Naive => ([self.shape.tile; 2], &self.naive),
        };
        // The naive kernel's one loop takes a trip per column and one for its final test.
        let chunk = match (self.gpu.loop_iteration_budget().map(planned_trips), kernel) {
            (None, _) => k,
            (Some(trips), MatmulKernel::Tiled) => self.shape.k_chunk(trips),
            (Some(trips), MatmulKernel::Naive) => trips - 1,
        };
        // A grid wider or taller than a dispatch allows is several dispatches, each told the
        // work groups before its first.
        let groups = [n.div_ceil(cols), m.div_ceil(rows)];
        let max = self.gpu.limits().max_compute_work_group_count;
        for begin in (0..k).step_by(chunk as usize) {
            let end = begin.saturating_add(chunk).min(k);
            for y in (0..groups[1]).step_by(max[1] as usize) {
                for x in (0..groups[0]).step_by(max[0] as usize) {
                    let range = self.uniforms.get(&self.gpu, [begin, end, x, y])?;
                    let count = [(groups[0] - x).min(max[0]), (groups[1] - y).min(max[1]), 1];
                    pipeline
                        .bind("dims", &params)
                        .bind("k_range", &range)
                        .bind("a", a)
                        .bind("b", b)
                        .bind("c", c)
                        .groups(count)
                        .record(commands)?;
                }
            }
        }
        Ok(())
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
