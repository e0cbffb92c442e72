//! The bilateral blur (the Direct3D 12 book, exercise 4), WGSL in `wgsl/bilateral.wgsl`: a Gaussian in space
//! times a Gaussian in colour difference, so flat regions smooth and edges stay sharp.
//!
//! The spatial σ sets the window as the Gaussian blur does (R = ⌈2σs⌉ ≤ 15); the range σ says
//! how different (in RGB distance) a neighbour may be and still count.

pub mod cpu;

use encase::ShaderType;
use shoal::{Buffer, Commands, Error, Family, Gpu, Image, Kernel, Record, Result, Source};

pub use cpu::bilateral_cpu;

use crate::blur::MAX_RADIUS;

/// The two sigmas.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BilateralParams {
    /// σ of the spatial Gaussian, in texels (the window's radius is ⌈2σ⌉).
    pub spatial_sigma: f32,
    /// σ of the range Gaussian, in RGB distance (colours in [0, 1]).
    pub range_sigma: f32,
}

impl Default for BilateralParams {
    /// A window of radius 6 (σs = 3) and σr = 0.15: flat regions smooth, the test picture's
    /// edges stay.
    fn default() -> Self {
        Self {
            spatial_sigma: 3.0,
            range_sigma: 0.15,
        }
    }
}

impl BilateralParams {
    /// The window's radius, ⌈2σs⌉.
    pub fn radius(&self) -> u32 {
        (2.0 * self.spatial_sigma).ceil() as u32
    }

    /// 1 / (2σs²) and 1 / (2σr²), what the kernel multiplies by.
    pub fn coefficients(&self) -> (f32, f32) {
        let inv = |s: f32| 1.0 / (2.0 * s * s);
        (inv(self.spatial_sigma), inv(self.range_sigma))
    }

    fn check(&self) -> Result<()> {
        let bad = |parameter: &str, value: f32, rule: &str| {
            Err(Error::InvalidParameter {
                kernel: "Bilateral".into(),
                parameter: parameter.into(),
                value: value.to_string(),
                rule: rule.into(),
            })
        };
        if !(self.spatial_sigma > 0.0 && (2.0 * self.spatial_sigma).ceil() <= MAX_RADIUS as f32) {
            return bad(
                "spatial_sigma",
                self.spatial_sigma,
                "must be > 0 with a radius ceil(2 sigma) <= 15",
            );
        }
        if !(self.range_sigma > 0.0 && self.range_sigma.is_finite()) {
            return bad(
                "range_sigma",
                self.range_sigma,
                "must be a finite number > 0",
            );
        }
        // A sigma so small that 1 / (2 sigma^2) overflows f32 (below about 4e-20) makes the
        // window's centre 0 * inf: every pixel NaN.
        let (spatial, range) = self.coefficients();
        for (parameter, value, coefficient) in [
            ("spatial_sigma", self.spatial_sigma, spatial),
            ("range_sigma", self.range_sigma, range),
        ] {
            if !coefficient.is_finite() {
                return bad(
                    parameter,
                    value,
                    "must be large enough that 1 / (2 sigma^2) is finite in f32 (about 4e-20)",
                );
            }
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, ShaderType)]
struct BilateralUniform {
    spatial: f32,
    range: f32,
    radius: i32,
}

/// A bilateral filter of `rgba32float` images.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal::{glam::Vec4, wgpu::TextureFormat::Rgba32Float};
/// use shoal_kernels::bilateral::bilateral_cpu;
/// use shoal_kernels::{Bilateral, BilateralArgs, BilateralParams, Record};
/// let gpu = shoal::Gpu::blocking()?;
/// let texels: Vec<Vec4> = (0..64).map(|i| Vec4::splat((i * 7 % 11) as f32 / 10.0)).collect();
/// let picture = gpu.image_from(8, 8, Rgba32Float, &texels)?;
/// let out = gpu.image_zeroed(8, 8, Rgba32Float)?;
/// let params = BilateralParams::default();
/// Bilateral::new(&gpu, params)?.run(BilateralArgs { src: &picture, dst: &out })?;
/// let got: Vec<Vec4> = out.read_blocking()?;
/// let cpu = bilateral_cpu(&texels, 8, 8, &params);
/// assert!(got.iter().zip(&cpu).all(|(g, c)| g.abs_diff_eq(*c, 1e-4)));
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Bilateral {
    gpu: Gpu,
    kernel: Kernel,
    params: BilateralParams,
    uniform: Buffer<BilateralUniform>,
}

impl Bilateral {
    /// Compiles the kernel for `params` (all it runs, so there is nothing to `prepare`).
    pub fn new(gpu: &Gpu, params: BilateralParams) -> Result<Self> {
        Self::from_source(gpu, shoal::wgsl!("../wgsl/bilateral.wgsl"), params)
    }

    /// Compiles the kernel from `source`, an edited copy of `wgsl/bilateral.wgsl` with the same
    /// entry point and bindings (hot reload). A WGSL error is [`Error::Wgsl`] naming the
    /// source's file and line.
    pub fn from_source(
        gpu: &Gpu,
        source: impl Into<Source>,
        params: BilateralParams,
    ) -> Result<Self> {
        let uniform = Self::uniform(gpu, &params)?;
        let kernel = gpu.kernel(source)?;
        Ok(Self {
            gpu: gpu.clone(),
            kernel,
            params,
            uniform,
        })
    }

    /// The uniform of `params`, or why they are refused.
    fn uniform(gpu: &Gpu, params: &BilateralParams) -> Result<Buffer<BilateralUniform>> {
        params.check()?;
        let (spatial, range) = params.coefficients();
        gpu.uniform(&BilateralUniform {
            spatial,
            range,
            radius: params.radius() as i32,
        })
    }

    /// Uses `params` from now on (batches recorded earlier keep theirs). On an error the filter
    /// keeps its sigmas.
    pub fn set_params(&mut self, params: BilateralParams) -> Result<()> {
        // A fresh buffer, not a write into the old one.
        self.uniform = Self::uniform(&self.gpu, &params)?;
        self.params = params;
        Ok(())
    }

    /// Recompiles the kernel from `source`; on an error the old one stays.
    pub fn set_source(&mut self, source: impl Into<Source>) -> Result<()> {
        self.kernel = self.gpu.kernel(source)?;
        Ok(())
    }

    /// The sigmas.
    pub fn params(&self) -> &BilateralParams {
        &self.params
    }
}

/// What one bilateral filter reads and writes, both `rgba32float` of the same size.
#[derive(Debug, Clone, Copy)]
pub struct BilateralArgs<'a> {
    /// The image filtered.
    pub src: &'a Image,
    /// The filtered image.
    pub dst: &'a Image,
}

impl Family for Bilateral {
    fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    fn kernels(&self) -> Vec<&Kernel> {
        vec![&self.kernel]
    }
}

impl Record<BilateralArgs<'_>> for Bilateral {
    /// Records the filtered `src` into `dst`.
    fn record(&self, commands: &mut Commands, args: BilateralArgs<'_>) -> Result<()> {
        let BilateralArgs { src, dst } = args;
        let commands = &mut commands.labelled("bilateral");
        crate::same_size("Bilateral", src, dst)?;
        self.kernel
            .bind("src", src)
            .bind("dst", dst)
            .bind("params", &self.uniform)
            .invocations_2d(src.size())
            .record(commands)
    }
}

#[cfg(test)]
mod tests;
