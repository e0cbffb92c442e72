//! Vector lengths through append and consume buffers (the Direct3D 12 book, exercise 3): each invocation consumes
//! a vector and appends its length, in no particular order (`wgsl/vector_lengths.wgsl`).

use glam::Vec3;
use shoal::{AppendBuffer, Commands, Family, Gpu, Kernel, Record, Result};

/// The vector-lengths kernel, compiled once.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal::glam::Vec3;
/// use shoal_kernels::{Record, VectorLengths, VectorLengthsArgs};
/// let gpu = shoal::Gpu::blocking()?;
/// let vectors = gpu.append_buffer_from(&[Vec3::new(3.0, 4.0, 0.0), Vec3::new(0.0, 0.0, 2.0)], 2)?;
/// let lengths = gpu.append_buffer::<f32>(2)?;
/// VectorLengths::new(&gpu)?.run(VectorLengthsArgs { vectors: &vectors, lengths: &lengths })?;
/// let mut got = lengths.read_blocking()?; // appended in any order
/// got.sort_by(f32::total_cmp);
/// assert_eq!(got, [2.0, 5.0]);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct VectorLengths {
    kernel: Kernel,
}

impl VectorLengths {
    /// Compiles the kernel with a 1D work group planned from the device (all it runs, so
    /// there is nothing to `prepare`).
    pub fn new(gpu: &Gpu) -> Result<Self> {
        let kernel = gpu
            .kernel_builder(shoal::wgsl!("../wgsl/vector_lengths.wgsl"))
            .constant("WG", gpu.max_workgroup_1d(64))
            .build()?;
        Ok(Self { kernel })
    }
}

/// What one run consumes and appends to.
#[derive(Debug, Clone, Copy)]
pub struct VectorLengthsArgs<'a> {
    /// The vectors, consumed: one invocation per slot of its capacity.
    pub vectors: &'a AppendBuffer<Vec3>,
    /// Each length is appended here, in no particular order.
    pub lengths: &'a AppendBuffer<f32>,
}

impl Family for VectorLengths {
    fn gpu(&self) -> &Gpu {
        self.kernel.gpu()
    }

    fn kernels(&self) -> Vec<&Kernel> {
        vec![&self.kernel]
    }
}

impl Record<VectorLengthsArgs<'_>> for VectorLengths {
    /// Records consuming every vector and appending its length.
    fn record(&self, commands: &mut Commands, args: VectorLengthsArgs<'_>) -> Result<()> {
        let VectorLengthsArgs { vectors, lengths } = args;
        let commands = &mut commands.labelled("vector_lengths");
        self.kernel
            .bind("vectors", vectors)
            .bind("lengths", lengths)
            .invocations(vectors.capacity())
            .record(commands)
    }
}

/// The CPU twin: the lengths, computed as the WGSL does.
pub fn vector_lengths_cpu(vectors: &[Vec3]) -> Vec<f32> {
    vectors
        .iter()
        .map(|v| (v.x * v.x + v.y * v.y + v.z * v.z).sqrt())
        .collect()
}

/// The exercise's input: `n` vectors in random directions with lengths in [1, 10].
pub fn exercise_vectors(n: usize, seed: u64) -> Vec<Vec3> {
    // SplitMix64, so the input is the same everywhere without a dependency.
    let mut rng = shoal::SplitMix64::new(seed);
    let mut unit = move || rng.next_f32();
    (0..n)
        .map(|_| {
            let dir = loop {
                let d = Vec3::new(unit() * 2.0 - 1.0, unit() * 2.0 - 1.0, unit() * 2.0 - 1.0);
                if d.length() > 0.1 && d.length() <= 1.0 {
                    break d.normalize();
                }
            };
            dir * (1.0 + 9.0 * unit())
        })
        .collect()
}

/// Sorts floats for comparing multisets.
pub fn sorted(mut v: Vec<f32>) -> Vec<f32> {
    v.sort_by(f32::total_cmp);
    v
}

#[cfg(test)]
mod tests;
