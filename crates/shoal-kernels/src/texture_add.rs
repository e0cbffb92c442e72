//! Texture add (002 §13.2): the sum of two images, read as sampled textures by index, written to
//! a storage image (`wgsl/texture_add.wgsl`).

use shoal::{Commands, Gpu, Image, Kernel, Result};

/// The texture-add kernel, compiled once.
#[derive(Debug, Clone)]
pub struct TextureAdd {
    kernel: Kernel,
}

impl TextureAdd {
    /// Compiles the kernel with the book's 16 x 16 groups where the device allows them.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        let side = crate::plan_2d(gpu, 16);
        let kernel = gpu
            .kernel_builder(shoal::wgsl!("../../../wgsl/texture_add.wgsl"))
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
        crate::same_size(self.kernel.name(), a, b)?;
        crate::same_size(self.kernel.name(), a, output)?;
        self.kernel
            .bind("input_a", a)
            .bind("input_b", b)
            .bind("output", output)
            .invocations_2d(output.size())
            .record(commands)
    }

    /// Runs it on its own.
    pub fn run(&self, a: &Image, b: &Image, output: &Image) -> Result<()> {
        let mut commands = self.kernel.gpu().commands();
        self.record(&mut commands, a, b, output)?;
        commands.submit().map(drop)
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
mod tests {
    use super::*;
    use shoal::wgpu::TextureFormat;
    use shoal_conformance::gpu_test;
    use shoal_conformance::rng::Rng;

    gpu_test! {
        /// Every pixel equals the CPU twin's exactly for rgba32float inputs. For rgba8unorm
        /// inputs the GPU's unorm-to-float conversion may differ from c / 255 in the last bits
        /// (lavapipe's does), so there the sums agree within 1e-6.
        async fn texture_add_matches_the_cpu_exactly(gpu) {
            let add = TextureAdd::new(&gpu).expect("kernel");
            let mut rng = Rng::new(2);
            for (w, h) in [(1, 1), (16, 16), (63, 17), (200, 75)] {
                let a: Vec<[f32; 4]> = (0..w * h).map(|_| std::array::from_fn(|_| rng.range_f32(-100.0, 100.0))).collect();
                let b: Vec<[f32; 4]> = (0..w * h).map(|_| std::array::from_fn(|_| rng.range_f32(-1.0, 1.0))).collect();
                let (ia, ib) = (
                    gpu.image_from(w, h, TextureFormat::Rgba32Float, &a).expect("a"),
                    gpu.image_from(w, h, TextureFormat::Rgba32Float, &b).expect("b"),
                );
                let out = gpu.image(w, h, TextureFormat::Rgba32Float).expect("out");
                add.run(&ia, &ib, &out).expect("run");
                assert_eq!(out.read::<[f32; 4]>().await.expect("read"), texture_add_cpu(&a, &b), "{w}x{h}");
            }
            let bytes: Vec<[u8; 4]> = (0..64).map(|i| [i as u8, 255 - i as u8, 128, 255]).collect();
            let ia = gpu.image_from(8, 8, TextureFormat::Rgba8Unorm, &bytes).expect("a");
            let out = gpu.image(8, 8, TextureFormat::Rgba32Float).expect("out");
            add.run(&ia, &ia, &out).expect("run");
            let unorm: Vec<[f32; 4]> = bytes.iter().map(|t| t.map(|c| c as f32 / 255.0)).collect();
            let got = out.read::<[f32; 4]>().await.expect("read");
            for (g, c) in got.iter().zip(texture_add_cpu(&unorm, &unorm)) {
                assert!((0..4).all(|k| (g[k] - c[k]).abs() <= 1e-6), "{g:?} vs {c:?}");
            }
        }
    }
}
