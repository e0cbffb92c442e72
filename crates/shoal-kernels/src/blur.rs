//! The separable Gaussian blur (the Direct3D 12 book, §13.7), WGSL in `wgsl/blur.wgsl`.
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
//! ```
//! # fn main() -> Result<(), shoal::Error> {
//! use shoal_kernels::{BlurArgs, BlurParams, GaussianBlur, Record};
//! let gpu = shoal::Gpu::blocking()?;
//! let image = gpu.image_zeroed(64, 48, shoal::wgpu::TextureFormat::Rgba32Float)?;
//! let blur = GaussianBlur::new(&gpu, BlurParams { sigma: 2.5, ..BlurParams::default() })?;
//! blur.run(BlurArgs { image: &image, passes: 3 })?.wait_blocking()?; // three passes, in place
//! let mut commands = gpu.commands();
//! blur.record(&mut commands, BlurArgs { image: &image, passes: 1 })?; // or one more, in a batch of your own
//! commands.submit()?;
//! # Ok(()) }
//! ```

pub mod cpu;

use std::sync::Mutex;

use encase::ShaderType;
use glam::Vec4;
use shoal::{Buffer, Commands, Error, Family, Gpu, Image, Kernel, Record, Result, Source};

pub use cpu::gaussian_blur_cpu;

/// The largest radius: the document's `gMaxBlurRadius`.
pub const MAX_RADIUS: u32 = 15;

/// The document's work-group size N.
pub const DOCUMENT_N: u32 = 256;

/// The most passes one call records (two dispatches each): more is recorded in several calls.
/// Without a bound, `u32::MAX` passes would record for hours and run out of memory before anything
/// reached the GPU.
pub const MAX_PASSES: u32 = 4096;

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
    let weights: Vec<f32> = g.into_iter().map(|w| w / sum).collect();
    // A sigma so small that 2 sigma^2 is 0 in f32 (below about 1e-23) makes the centre tap 0 / 0.
    if !weights.iter().all(|w| w.is_finite()) {
        return Err(Error::InvalidParameter {
            kernel: "GaussianBlur".into(),
            parameter: "sigma".into(),
            value: sigma.to_string(),
            rule: "sigma must be large enough that 2 sigma^2 is not 0 in f32 (the weights are \
                   not finite otherwise); below about 0.2 the blur is the identity anyway"
                .into(),
        });
    }
    Ok(weights)
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

/// What a blur is built with: its σ and, optionally, its work-group size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlurParams {
    /// σ of the Gaussian, in texels: the radius is R = ⌈2σ⌉, at most [`MAX_RADIUS`] (σ ≤ 7.5).
    pub sigma: f32,
    /// Invocations per work group along the blurred axis (N). `None`: the document's 256, or as
    /// many as the device allows. The document's figure 13.8 uses 8; N must be at least R, so
    /// the first and last R invocations can load the margins.
    pub workgroup_size: Option<u32>,
}

impl Default for BlurParams {
    /// σ = 1 (the document's five weights 0.0545, 0.2442, 0.4026, 0.2442, 0.0545), N planned
    /// from the device.
    fn default() -> Self {
        Self {
            sigma: 1.0,
            workgroup_size: None,
        }
    }
}

/// A Gaussian blur of `rgba32float` images: its four pipelines, its weights and a scratch image.
#[derive(Debug)]
pub struct GaussianBlur {
    gpu: Gpu,
    n: u32,
    cached: [Kernel; 2],
    naive: [Kernel; 2],
    sigma: f32,
    weights: Vec<f32>,
    uniform: Buffer<BlurUniform>,
    /// The horizontal pass's output, kept between records of the same size and format.
    scratch: Mutex<Option<Image>>,
    variant: BlurVariant,
}

impl GaussianBlur {
    /// A blur with the weights of `params.sigma` and work groups of `params.workgroup_size`
    /// invocations along a row (by default the document's 256, or as many as the device allows).
    /// Its kernels are compiled here, so there is nothing to `prepare`.
    pub fn new(gpu: &Gpu, params: BlurParams) -> Result<Self> {
        Self::from_source(gpu, shoal::wgsl!("../wgsl/blur.wgsl"), params)
    }

    /// A blur like [`GaussianBlur::new`] whose kernels are compiled from `source`, an edited
    /// copy of `wgsl/blur.wgsl` with the same entry points and bindings (hot reload). A WGSL
    /// error is [`Error::Wgsl`] naming the source's file and line.
    pub fn from_source(gpu: &Gpu, source: impl Into<Source>, params: BlurParams) -> Result<Self> {
        // The largest N the device allows along a row (x) and along a column (y).
        let limit = gpu
            .max_workgroup_1d(u32::MAX)
            .min(gpu.limits().max_compute_work_group_size[1]);
        let n = params.workgroup_size.unwrap_or(limit.min(DOCUMENT_N));
        if !(1..=limit).contains(&n) {
            return Err(Error::InvalidParameter {
                kernel: "GaussianBlur".into(),
                parameter: "workgroup_size".into(),
                value: n.to_string(),
                rule: format!(
                    "must be at least 1 and at most the device's {limit} invocations along a row or column"
                ),
            });
        }
        let weights = gaussian_weights(params.sigma)?;
        let (cached, naive) = Self::compile(gpu, &source.into(), n)?;
        let mut blur = Self {
            gpu: gpu.clone(),
            n,
            cached,
            naive,
            sigma: params.sigma,
            weights: Vec::new(),
            uniform: gpu.uniform(&BlurUniform {
                weights: [Vec4::ZERO; 8],
                radius: 0,
            })?,
            scratch: Mutex::new(None),
            variant: BlurVariant::Cached,
        };
        blur.set_weights(weights)?;
        Ok(blur)
    }

    /// The cached and the naive kernels of `source` for work groups of `n`.
    fn compile(gpu: &Gpu, source: &Source, n: u32) -> Result<([Kernel; 2], [Kernel; 2])> {
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
        (self.cached, self.naive) = Self::compile(&self.gpu, &source.into(), self.n)?;
        Ok(())
    }

    /// Uses the weights of `sigma` from now on (batches recorded earlier keep theirs). On an
    /// error (σ ≤ 0, a radius above 15 or above N) the blur keeps its weights.
    pub fn set_sigma(&mut self, sigma: f32) -> Result<()> {
        self.set_weights(gaussian_weights(sigma)?)?;
        self.sigma = sigma;
        Ok(())
    }

    /// σ of the weights in use.
    pub fn sigma(&self) -> f32 {
        self.sigma
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
    pub fn set_variant(&mut self, variant: BlurVariant) -> Result<()> {
        self.variant = variant;
        Ok(())
    }

    /// The kernels the passes run.
    pub fn variant(&self) -> BlurVariant {
        self.variant
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

    /// The scratch image for `image`: the kept one if it has its size and format.
    fn scratch(&self, image: &Image) -> Result<Image> {
        let mut kept = self.scratch.lock().map_err(|_| crate::wgsl::poisoned())?;
        match &*kept {
            Some(s) if s.size() == image.size() && s.format() == image.format() => Ok(s.clone()),
            _ => {
                let s = self
                    .gpu
                    .image_zeroed(image.width(), image.height(), image.format())?;
                *kept = Some(s.clone());
                Ok(s)
            }
        }
    }
}

/// What one blur reads and writes: `passes` passes over `image`, in place.
#[derive(Debug, Clone, Copy)]
pub struct BlurArgs<'a> {
    /// An `rgba32float` image usable as a storage image, blurred in place.
    pub image: &'a Image,
    /// Passes, each a horizontal blur into the scratch image and a vertical one back; at most
    /// [`MAX_PASSES`] per call.
    pub passes: u32,
}

impl Family for GaussianBlur {
    fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The cached kernels, then the naive ones.
    fn kernels(&self) -> Vec<&Kernel> {
        self.cached.iter().chain(&self.naive).collect()
    }
}

impl Record<BlurArgs<'_>> for GaussianBlur {
    /// Records the passes with the kernels of [`GaussianBlur::variant`]. More than
    /// [`MAX_PASSES`] is [`Error::InvalidParameter`] (record them in several calls).
    fn record(&self, commands: &mut Commands, args: BlurArgs<'_>) -> Result<()> {
        let BlurArgs { image, passes } = args;
        let commands = &mut commands.labelled("blur");
        if passes > MAX_PASSES {
            return Err(Error::InvalidParameter {
                kernel: "GaussianBlur".into(),
                parameter: "passes".into(),
                value: passes.to_string(),
                rule: format!(
                    "at most {MAX_PASSES} per call (two dispatches each): record more in \
                     several calls"
                ),
            });
        }
        let scratch = self.scratch(image)?;
        let [horizontal, vertical] = match self.variant {
            BlurVariant::Cached => &self.cached,
            BlurVariant::Naive => &self.naive,
        };
        let (w, h, n) = (image.width(), image.height(), self.n);
        for _ in 0..passes {
            horizontal
                .bind("src", image)
                .bind("dst", &scratch)
                .bind("blur", &self.uniform)
                .groups([w.div_ceil(n), h, 1])
                .record(commands)?;
            vertical
                .bind("src", &scratch)
                .bind("dst", image)
                .bind("blur", &self.uniform)
                .groups([w, h.div_ceil(n), 1])
                .record(commands)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
