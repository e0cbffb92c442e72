//! The separable Gaussian blur (002 §13.7), WGSL in `wgsl/blur.wgsl`.
//!
//! Weights from σ as the document computes them: radius R = ⌈2σ⌉ (at most 15, what the
//! document's cache and its 8 × vec4 weight table hold), G(x) = exp(−x²/2σ²) for x in −R..=R,
//! normalised to sum to 1; σ = 1 gives 0.0545, 0.2442, 0.4026, 0.2442, 0.0545. One blur pass is
//! a horizontal 1D blur into a scratch image and a vertical one back; passes repeat.
//!
//! The cached kernels give each work group of N invocations an N + 2R texel workgroup cache,
//! filled with one load per invocation plus one more by each of the first and last R, clamped at
//! the border, so images of any size work (the document's 28 x 14 figure with N = 8 is one of
//! the tests). N is the document's 256, or less where the device allows less. The naive kernels
//! read all 2R + 1 taps from the texture: the baseline.
//!
//! ```no_run
//! # fn main() -> Result<(), shoal::Error> {
//! use shoal_kernels::blur::GaussianBlur;
//! let gpu = shoal::Gpu::blocking()?;
//! let image = gpu.image(640, 480, shoal::wgpu::TextureFormat::Rgba32Float)?;
//! let mut blur = GaussianBlur::new(&gpu, 2.5)?;
//! blur.run(&image, 3)?; // three passes, in place
//! # Ok(()) }
//! ```

pub mod cpu;

use encase::ShaderType;
use glam::Vec4;
use shoal::{Buffer, Commands, Error, Gpu, Image, Kernel, Result, Source};

/// The largest radius: the document's `gMaxBlurRadius`.
pub const MAX_RADIUS: u32 = 15;

/// The document's work-group size N.
pub const DOCUMENT_N: u32 = 256;

/// The normalised Gaussian weights for `sigma`, 2R + 1 of them with R = ⌈2σ⌉ ≤ 15.
pub fn gaussian_weights(sigma: f32) -> Result<Vec<f32>> {
    let radius = (2.0 * sigma).ceil();
    if !(sigma > 0.0 && radius <= MAX_RADIUS as f32) {
        return Err(Error::InvalidParameter {
            kernel: "GaussianBlur".into(),
            parameter: "sigma".into(),
            value: sigma.to_string(),
            rule: format!(
                "sigma must be > 0 and give a radius ceil(2 sigma) <= {MAX_RADIUS} (sigma <= 7.5), the cache's margin"
            ),
        });
    }
    let r = radius as i32;
    let two_sigma2 = 2.0 * sigma * sigma;
    let g: Vec<f32> = (-r..=r)
        .map(|x| (-((x * x) as f32) / two_sigma2).exp())
        .collect();
    let sum: f32 = g.iter().sum();
    Ok(g.into_iter().map(|w| w / sum).collect())
}

/// Which kernels a blur runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BlurVariant {
    /// The document's kernels, with the N + 2R workgroup cache.
    #[default]
    Cached,
    /// Every tap read from the texture.
    Naive,
}

/// The WGSL `Blur` uniform: weights four to a vec4, and the radius.
#[derive(Debug, Clone, Copy, ShaderType)]
struct BlurUniform {
    weights: [Vec4; 8],
    radius: i32,
}

/// A Gaussian blur of `rgba32float` images: its four pipelines, its weights and a scratch image.
#[derive(Debug)]
pub struct GaussianBlur {
    gpu: Gpu,
    n: u32,
    cached: [Kernel; 2],
    naive: [Kernel; 2],
    weights: Vec<f32>,
    uniform: Buffer<BlurUniform>,
    scratch: Option<Image>,
    variant: BlurVariant,
}

impl GaussianBlur {
    /// A blur with the weights of `sigma`, with work groups of the document's 256 along a row or
    /// as many as the device allows.
    pub fn new(gpu: &Gpu, sigma: f32) -> Result<Self> {
        Self::from_source(gpu, shoal::wgsl!("../../../wgsl/blur.wgsl"), sigma)
    }

    /// A blur like [`GaussianBlur::new`] whose kernels are compiled from `source`, an edited
    /// copy of `wgsl/blur.wgsl` with the same entry points and bindings (hot reload). A WGSL
    /// error is [`Error::Wgsl`] naming the source's file and line.
    pub fn from_source(gpu: &Gpu, source: impl Into<Source>, sigma: f32) -> Result<Self> {
        let l = gpu.limits();
        let n = gpu
            .max_workgroup_1d(DOCUMENT_N)
            .min(l.max_compute_work_group_size[1]);
        Self::build(gpu, source.into(), sigma, n)
    }

    /// A blur whose work groups hold `n` invocations along the blurred axis (the document's
    /// figure 13.8 uses 8); `n` must be at least R so the first and last R invocations can load
    /// the margins.
    pub fn with_workgroup_size(gpu: &Gpu, sigma: f32, n: u32) -> Result<Self> {
        Self::build(gpu, shoal::wgsl!("../../../wgsl/blur.wgsl"), sigma, n)
    }

    /// The cached and the naive kernels of `source` for work groups of `n`.
    fn kernels(gpu: &Gpu, source: &Source, n: u32) -> Result<([Kernel; 2], [Kernel; 2])> {
        let build = |entry: &str| {
            gpu.kernel_builder(source.clone())
                .entry(entry)
                .constant("N", n)
                .build()
        };
        let cached = [build("blur_horizontal")?, build("blur_vertical")?];
        let naive = [
            build("blur_naive_horizontal")?,
            build("blur_naive_vertical")?,
        ];
        Ok((cached, naive))
    }

    /// Recompiles the kernels from `source` (an edited `wgsl/blur.wgsl`), keeping the weights
    /// and the scratch image. On an error the blur keeps its old kernels.
    pub fn set_source(&mut self, source: impl Into<Source>) -> Result<()> {
        (self.cached, self.naive) = Self::kernels(&self.gpu, &source.into(), self.n)?;
        Ok(())
    }

    fn build(gpu: &Gpu, source: Source, sigma: f32, n: u32) -> Result<Self> {
        let weights = gaussian_weights(sigma)?;
        let (cached, naive) = Self::kernels(gpu, &source, n)?;
        let mut blur = Self {
            gpu: gpu.clone(),
            n,
            cached,
            naive,
            weights: Vec::new(),
            uniform: gpu.uniform(&BlurUniform {
                weights: [Vec4::ZERO; 8],
                radius: 0,
            })?,
            scratch: None,
            variant: BlurVariant::Cached,
        };
        blur.set_weights(weights)?;
        Ok(blur)
    }

    /// Uses the weights of `sigma` from now on.
    pub fn set_sigma(&mut self, sigma: f32) -> Result<()> {
        self.set_weights(gaussian_weights(sigma)?)
    }

    fn set_weights(&mut self, weights: Vec<f32>) -> Result<()> {
        let radius = (weights.len() / 2) as u32;
        if radius > self.n {
            return Err(Error::InvalidParameter {
                kernel: "GaussianBlur".into(),
                parameter: "radius".into(),
                value: radius.to_string(),
                rule: format!(
                    "the first and last R of the {} invocations of a work group load the margins: R <= N",
                    self.n
                ),
            });
        }
        let mut packed = [Vec4::ZERO; 8];
        for (i, w) in weights.iter().enumerate() {
            packed[i / 4][i % 4] = *w;
        }
        // A fresh buffer, not a write into the old one: batches recorded earlier keep theirs.
        self.uniform = self.gpu.uniform(&BlurUniform {
            weights: packed,
            radius: radius as i32,
        })?;
        self.weights = weights;
        Ok(())
    }

    /// Chooses the kernels the next passes run.
    pub fn set_variant(&mut self, variant: BlurVariant) {
        self.variant = variant;
    }

    /// The weights, tap −R first.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The radius R.
    pub fn radius(&self) -> u32 {
        (self.weights.len() / 2) as u32
    }

    /// Invocations per work group along the blurred axis (N).
    pub fn workgroup_size(&self) -> u32 {
        self.n
    }

    /// Records `passes` blur passes of `image` (an `rgba32float` image usable as a storage
    /// image), in place: each pass blurs horizontally into the scratch image and vertically back.
    pub fn record(&mut self, commands: &mut Commands, image: &Image, passes: u32) -> Result<()> {
        if self
            .scratch
            .as_ref()
            .is_none_or(|s| s.size() != image.size() || s.format() != image.format())
        {
            self.scratch = Some(
                self.gpu
                    .image(image.width(), image.height(), image.format())?,
            );
        }
        let Some(scratch) = &self.scratch else {
            return Ok(());
        };
        let [horizontal, vertical] = match self.variant {
            BlurVariant::Cached => &self.cached,
            BlurVariant::Naive => &self.naive,
        };
        let (w, h, n) = (image.width(), image.height(), self.n);
        for _ in 0..passes {
            horizontal
                .bind("src", image)
                .bind("dst", scratch)
                .bind("blur", &self.uniform)
                .groups([w.div_ceil(n), h, 1])
                .record(commands)?;
            vertical
                .bind("src", scratch)
                .bind("dst", image)
                .bind("blur", &self.uniform)
                .groups([w, h.div_ceil(n), 1])
                .record(commands)?;
        }
        Ok(())
    }

    /// Runs `passes` passes of `image` in place, submitted on their own.
    pub fn run(&mut self, image: &Image, passes: u32) -> Result<()> {
        let mut commands = self.gpu.commands();
        self.record(&mut commands, image, passes)?;
        commands.submit()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
