//! Invert (000): `1 - texel` of an rgba32float image into another (`wgsl/invert.wgsl`).

use shoal::{Commands, Gpu, Image, Kernel, Result};

/// The invert kernel, compiled once.
#[derive(Debug, Clone)]
pub struct Invert {
    kernel: Kernel,
}

impl Invert {
    /// Compiles the kernel with work groups planned from the device (the document's 32 x 32
    /// where allowed).
    pub fn new(gpu: &Gpu) -> Result<Self> {
        let side = crate::plan_2d(gpu, 32);
        let kernel = gpu
            .kernel_builder(shoal::wgsl!("../../../wgsl/invert.wgsl"))
            .constant("WX", side)
            .constant("WY", side)
            .build()?;
        Ok(Self { kernel })
    }

    /// Records `output = 1 - input` (two rgba32float images of the same size).
    pub fn record(&self, commands: &mut Commands, input: &Image, output: &Image) -> Result<()> {
        crate::same_size(self.kernel.name(), input, output)?;
        self.kernel
            .bind("img_input", input)
            .bind("img_output", output)
            .invocations_2d(output.size())
            .record(commands)
    }

    /// Runs it on its own.
    pub fn run(&self, input: &Image, output: &Image) -> Result<()> {
        let mut commands = self.kernel.gpu().commands();
        self.record(&mut commands, input, output)?;
        commands.submit().map(drop)
    }
}

/// The CPU twin: `vec4(1.0) - texel` for every texel.
pub fn invert_cpu(texels: &[[f32; 4]]) -> Vec<[f32; 4]> {
    texels.iter().map(|t| t.map(|c| 1.0 - c)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shoal::wgpu::TextureFormat;
    use shoal_conformance::gpu_test;
    use shoal_conformance::rng::Rng;

    gpu_test! {
        /// Every pixel equals the CPU twin's, at sizes that are and are not multiples of the
        /// work group.
        async fn invert_matches_the_cpu_exactly(gpu) {
            let invert = Invert::new(&gpu).expect("kernel");
            let mut rng = Rng::new(1);
            for (w, h) in [(1, 1), (32, 32), (65, 33), (256, 100)] {
                let texels: Vec<[f32; 4]> = (0..w * h).map(|_| std::array::from_fn(|_| rng.range_f32(-2.0, 2.0))).collect();
                let input = gpu.image_from(w, h, TextureFormat::Rgba32Float, &texels).expect("input");
                let output = gpu.image(w, h, TextureFormat::Rgba32Float).expect("output");
                invert.run(&input, &output).expect("run");
                assert_eq!(output.read::<[f32; 4]>().await.expect("read"), invert_cpu(&texels), "{w}x{h}");
            }
            let small = gpu.image(4, 4, TextureFormat::Rgba32Float).expect("image");
            let big = gpu.image(5, 4, TextureFormat::Rgba32Float).expect("image");
            assert!(matches!(invert.run(&small, &big), Err(shoal::Error::Length { .. })));
        }
    }
}
