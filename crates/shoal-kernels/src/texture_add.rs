//! Texture add (the Direct3D 12 book, §13.2): the sum of two images, read as sampled textures by index, written to
//! a storage image (`wgsl/texture_add.wgsl`).

use shoal::{Commands, Family, Gpu, Image, Kernel, Record, Result};

/// The texture-add kernel, compiled once.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal::wgpu::TextureFormat::Rgba32Float;
/// use shoal_kernels::texture_add::texture_add_cpu;
/// use shoal_kernels::{Record, TextureAdd, TextureAddArgs};
/// let gpu = shoal::Gpu::blocking()?;
/// let (a, b) = (vec![[1.0f32, 2.0, 3.0, 4.0]; 4], vec![[0.5f32; 4]; 4]);
/// let (ga, gb) = (gpu.image_from(2, 2, Rgba32Float, &a)?, gpu.image_from(2, 2, Rgba32Float, &b)?);
/// let sum = gpu.image_zeroed(2, 2, Rgba32Float)?;
/// TextureAdd::new(&gpu)?.run(TextureAddArgs { a: &ga, b: &gb, output: &sum })?;
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
}

/// What one texture add reads and writes, all three of the same size.
#[derive(Debug, Clone, Copy)]
pub struct TextureAddArgs<'a> {
    /// The first image, any float format, read as a sampled texture.
    pub a: &'a Image,
    /// The second image, any float format.
    pub b: &'a Image,
    /// The sum, rgba32float.
    pub output: &'a Image,
}

impl Family for TextureAdd {
    fn gpu(&self) -> &Gpu {
        self.kernel.gpu()
    }

    fn kernels(&self) -> Vec<&Kernel> {
        vec![&self.kernel]
    }
}

impl Record<TextureAddArgs<'_>> for TextureAdd {
    /// Records `output = a + b`.
    fn record(&self, commands: &mut Commands, args: TextureAddArgs<'_>) -> Result<()> {
        let TextureAddArgs { a, b, output } = args;
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
