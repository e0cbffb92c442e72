//! Invert (the OpenGL compute-shader lesson): `1 - texel` of an rgba32float image into another (`wgsl/invert.wgsl`).

use shoal::{Commands, Family, Gpu, Image, Kernel, Record, Result};

/// The invert kernel, compiled once.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal::wgpu::TextureFormat::Rgba32Float;
/// use shoal_kernels::invert::invert_cpu;
/// use shoal_kernels::{Invert, InvertArgs, Record};
/// let gpu = shoal::Gpu::blocking()?;
/// let texels = vec![[0.25f32, 0.5, 1.0, 1.0]; 6];
/// let input = gpu.image_from(3, 2, Rgba32Float, &texels)?;
/// let output = gpu.image_zeroed(3, 2, Rgba32Float)?;
/// Invert::new(&gpu)?.run(InvertArgs { input: &input, output: &output })?;
/// assert_eq!(output.read_blocking::<[f32; 4]>()?, invert_cpu(&texels));
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Invert {
    kernel: Kernel,
}

impl Invert {
    /// Compiles the kernel with work groups planned from the device (the document's 32 x 32
    /// where allowed): all it runs, so there is nothing to `prepare`.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        let side = crate::plan_2d(gpu, 32);
        let kernel = gpu
            .kernel_builder(shoal::wgsl!("../wgsl/invert.wgsl"))
            .constant("WX", side)
            .constant("WY", side)
            .build()?;
        Ok(Self { kernel })
    }

    /// An invert whose kernel is compiled from `source`: an edited `wgsl/invert.wgsl`, or its GLSL
    /// twin (`shoal::glsl!("…/wgsl/glsl/invert.comp")`), binding `img_input` and `img_output`.
    /// Its work-group size is the source's (no override constants are set).
    pub fn from_source(gpu: &Gpu, source: impl Into<shoal::Source>) -> Result<Self> {
        Ok(Self {
            kernel: gpu.kernel(source)?,
        })
    }
}

/// What one invert reads and writes: two rgba32float images of the same size.
#[derive(Debug, Clone, Copy)]
pub struct InvertArgs<'a> {
    /// The image read.
    pub input: &'a Image,
    /// The image written, `1 - input`.
    pub output: &'a Image,
}

impl Family for Invert {
    fn gpu(&self) -> &Gpu {
        self.kernel.gpu()
    }

    fn kernels(&self) -> Vec<&Kernel> {
        vec![&self.kernel]
    }
}

impl Record<InvertArgs<'_>> for Invert {
    /// Records `output = 1 - input`.
    fn record(&self, commands: &mut Commands, args: InvertArgs<'_>) -> Result<()> {
        let InvertArgs { input, output } = args;
        let commands = &mut commands.labelled("invert");
        crate::same_size(self.kernel.name(), input, output)?;
        self.kernel
            .bind("img_input", input)
            .bind("img_output", output)
            .invocations_2d(output.size())
            .record(commands)
    }
}

/// The CPU twin: `vec4(1.0) - texel` for every texel.
pub fn invert_cpu(texels: &[[f32; 4]]) -> Vec<[f32; 4]> {
    texels.iter().map(|t| t.map(|c| 1.0 - c)).collect()
}

#[cfg(test)]
mod tests;
