//! Texture add (the Direct3D 12 book, §13.2): the sum of two images, read as sampled textures by index, written to
//! a storage image (`wgsl/texture_add.wgsl`).

use shoal::{Commands, Gpu, Image, Kernel, Result, Submission};

/// The texture-add kernel, compiled once.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal::wgpu::TextureFormat::Rgba32Float;
/// use shoal_kernels::texture_add::{TextureAdd, texture_add_cpu};
/// let gpu = shoal::Gpu::blocking()?;
/// let (a, b) = (vec![[1.0f32, 2.0, 3.0, 4.0]; 4], vec![[0.5f32; 4]; 4]);
/// let (ga, gb) = (gpu.image_from(2, 2, Rgba32Float, &a)?, gpu.image_from(2, 2, Rgba32Float, &b)?);
/// let sum = gpu.image_zeroed(2, 2, Rgba32Float)?;
/// TextureAdd::new(&gpu)?.run(&ga, &gb, &sum)?;
/// assert_eq!(sum.read_blocking::<[f32; 4]>()?, texture_add_cpu(&a, &b));
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct TextureAdd {
    kernel: Kernel,
}

impl TextureAdd {
    /// Compiles the kernel with the book's 16 x 16 groups where the device allows them (all
    /// it runs, so there is nothing to `prepare`).
    pub fn new(gpu: &Gpu) -> Result<Self> {
        let side = crate::plan_2d(gpu, 16);
        let kernel = gpu
            .kernel_builder(shoal::wgsl!("../wgsl/texture_add.wgsl"))
            .constant("WX", side)
            .constant("WY", side)
            .build()?;
        Ok(Self { kernel })
    }

    /// Records `output = a + b`: `a` and `b` any float format, `output` rgba32float, all of the
    /// same size.
    pub fn record(
        &self,
        commands: &mut Commands,
        a: &Image,
        b: &Image,
        output: &Image,
    ) -> Result<()> {
        let commands = &mut commands.labelled("texture_add");
        crate::same_size(self.kernel.name(), a, b)?;
        crate::same_size(self.kernel.name(), a, output)?;
        self.kernel
            .bind("input_a", a)
            .bind("input_b", b)
            .bind("output", output)
            .invocations_2d(output.size())
            .record(commands)
    }

    /// Runs it on its own: records into a fresh batch and submits it, without waiting.
    pub fn run(&self, a: &Image, b: &Image, output: &Image) -> Result<Submission> {
        let mut commands = self.kernel.gpu().commands();
        self.record(&mut commands, a, b, output)?;
        commands.submit()
    }
}

/// The CPU twin: the per-channel sum.
pub fn texture_add_cpu(a: &[[f32; 4]], b: &[[f32; 4]]) -> Vec<[f32; 4]> {
    a.iter()
        .zip(b)
        .map(|(a, b)| std::array::from_fn(|k| a[k] + b[k]))
        .collect()
}

#[cfg(test)]
mod tests;
