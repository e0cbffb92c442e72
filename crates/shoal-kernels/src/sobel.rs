//! Sobel edge detection and the cartoon composite (the Direct3D 12 book, exercise 6), WGSL in `wgsl/sobel.wgsl`.
//!
//! [`Sobel`] writes the inverted edge image of the document's SobelCS: per channel the Sobel
//! derivatives, their magnitude, then 1 − saturate(luminance) with the weights 0.299, 0.587,
//! 0.114, so edges are black. The document's `Gy` line repeats `c[2][1]` where the operator
//! has `c[2][2]`; Shoal implements the correct operator. [`Cartoon`] is the exercise's
//! stylised look: blur, Sobel on the blurred image, multiply the blurred image by the edges.

pub mod cpu;

use std::sync::Mutex;

use shoal::{Commands, Family, Gpu, Image, Kernel, Record, Result, Source};

use crate::blur::{BlurArgs, BlurParams, GaussianBlur};

pub use cpu::{cartoon_cpu, composite_multiply_cpu, sobel_cpu};

/// The Sobel and multiply kernels.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal::{glam::Vec4, wgpu::TextureFormat::Rgba32Float};
/// use shoal_kernels::sobel::sobel_cpu;
/// use shoal_kernels::{Record, Sobel, SobelArgs};
/// let gpu = shoal::Gpu::blocking()?;
/// let texels: Vec<Vec4> = (0..64).map(|i| Vec4::splat(((i % 8) / 4) as f32)).collect();
/// let picture = gpu.image_from(8, 8, Rgba32Float, &texels)?; // a vertical edge
/// let edges = gpu.image_zeroed(8, 8, Rgba32Float)?;
/// Sobel::new(&gpu)?.run(SobelArgs { src: &picture, dst: &edges })?;
/// let got: Vec<Vec4> = edges.read_blocking()?;
/// let cpu = sobel_cpu(&texels, 8, 8);
/// assert!(got.iter().zip(&cpu).all(|(g, c)| g.abs_diff_eq(*c, 1e-5)));
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Sobel {
    gpu: Gpu,
    sobel: Kernel,
    multiply: Kernel,
}

impl Sobel {
    /// Compiles both kernels (all it runs, so there is nothing to `prepare`).
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Self::from_source(gpu, shoal::wgsl!("../wgsl/sobel.wgsl"))
    }

    /// Compiles both kernels from `source`, an edited copy of `wgsl/sobel.wgsl` with the same
    /// entry points and bindings (hot reload). A WGSL error is [`shoal::Error::Wgsl`] naming
    /// the source's file and line.
    pub fn from_source(gpu: &Gpu, source: impl Into<Source>) -> Result<Self> {
        let source = source.into();
        let build = |entry: &str| gpu.kernel_builder(source.clone()).entry(entry).build();
        Ok(Self {
            gpu: gpu.clone(),
            sobel: build("sobel")?,
            multiply: build("composite_multiply")?,
        })
    }

    /// Recompiles both kernels from `source`; on an error the old ones stay.
    pub fn set_source(&mut self, source: impl Into<Source>) -> Result<()> {
        *self = Self::from_source(&self.gpu, source)?;
        Ok(())
    }
}

/// What one edge detection reads and writes, both `rgba32float` of the same size.
#[derive(Debug, Clone, Copy)]
pub struct SobelArgs<'a> {
    /// The image whose edges are found.
    pub src: &'a Image,
    /// The inverted edge image: edges black.
    pub dst: &'a Image,
}

/// What one multiply reads and writes: `dst = base × edges`, texel by texel, all three the
/// same size.
#[derive(Debug, Clone, Copy)]
pub struct MultiplyArgs<'a> {
    /// The picture.
    pub base: &'a Image,
    /// Its inverted edge image (a [`SobelArgs::dst`]).
    pub edges: &'a Image,
    /// The product.
    pub dst: &'a Image,
}

impl Family for Sobel {
    fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The edge kernel, then the multiply.
    fn kernels(&self) -> Vec<&Kernel> {
        vec![&self.sobel, &self.multiply]
    }
}

impl Record<SobelArgs<'_>> for Sobel {
    /// Records the inverted edge image of `src` into `dst`.
    fn record(&self, commands: &mut Commands, args: SobelArgs<'_>) -> Result<()> {
        let SobelArgs { src, dst } = args;
        let commands = &mut commands.labelled("sobel");
        crate::same_size("Sobel", src, dst)?;
        self.sobel
            .bind("src", src)
            .bind("dst", dst)
            .invocations_2d(src.size())
            .record(commands)
    }
}

impl Record<MultiplyArgs<'_>> for Sobel {
    /// Records `dst = base × edges`.
    fn record(&self, commands: &mut Commands, args: MultiplyArgs<'_>) -> Result<()> {
        let MultiplyArgs { base, edges, dst } = args;
        let commands = &mut commands.labelled("sobel");
        crate::same_size("Sobel (multiply)", base, edges)?;
        crate::same_size("Sobel (multiply)", base, dst)?;
        self.multiply
            .bind("base", base)
            .bind("edges", edges)
            .bind("dst", dst)
            .invocations_2d(base.size())
            .record(commands)
    }
}

/// What a [`Cartoon`] is built with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CartoonParams {
    /// σ of the Gaussian blur before the edges (see [`BlurParams::sigma`]).
    pub sigma: f32,
    /// Blur passes before the edges (0: edges of the original, as the exercise's first version).
    pub passes: u32,
}

impl Default for CartoonParams {
    /// Two passes of σ = 1.5: soft regions and clean, closed outlines on the test picture.
    fn default() -> Self {
        Self {
            sigma: 1.5,
            passes: 2,
        }
    }
}

/// The cartoon look: `passes` Gaussian blur passes, Sobel on the blurred image, and the blurred
/// image multiplied by its edges.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal::{glam::Vec4, wgpu::TextureFormat::Rgba32Float};
/// use shoal_kernels::sobel::cartoon_cpu;
/// use shoal_kernels::{Cartoon, CartoonArgs, CartoonParams, Record};
/// let gpu = shoal::Gpu::blocking()?;
/// let texels: Vec<Vec4> = (0..256).map(|i| Vec4::splat(((i % 16) / 8) as f32)).collect();
/// let picture = gpu.image_from(16, 16, Rgba32Float, &texels)?;
/// let out = gpu.image_zeroed(16, 16, Rgba32Float)?;
/// let params = CartoonParams::default(); // two blur passes, then edges, then multiply
/// Cartoon::new(&gpu, params)?.run(CartoonArgs { src: &picture, dst: &out })?;
/// let got: Vec<Vec4> = out.read_blocking()?;
/// let cpu = cartoon_cpu(&texels, 16, 16, &params)?;
/// assert!(got.iter().zip(&cpu).all(|(g, c)| g.abs_diff_eq(*c, 1e-4)));
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Cartoon {
    gpu: Gpu,
    blur: GaussianBlur,
    sobel: Sobel,
    passes: u32,
    /// The blurred copy and the edge image, kept between records of the same size and format.
    scratch: Mutex<Option<(Image, Image)>>,
}

impl Cartoon {
    /// A cartoon filter blurring with `params.sigma` for `params.passes` passes first.
    /// Its kernels are compiled here, so there is nothing to `prepare`.
    pub fn new(gpu: &Gpu, params: CartoonParams) -> Result<Self> {
        let blur = BlurParams {
            sigma: params.sigma,
            ..BlurParams::default()
        };
        Ok(Self {
            gpu: gpu.clone(),
            blur: GaussianBlur::new(gpu, blur)?,
            sobel: Sobel::new(gpu)?,
            passes: params.passes,
            scratch: Mutex::new(None),
        })
    }

    /// The σ and passes in use.
    pub fn params(&self) -> CartoonParams {
        CartoonParams {
            sigma: self.blur.sigma(),
            passes: self.passes,
        }
    }

    /// Recompiles the blur's kernels from `source` (an edited `wgsl/blur.wgsl`); on an error the
    /// old ones stay.
    pub fn set_blur_source(&mut self, source: impl Into<Source>) -> Result<()> {
        self.blur.set_source(source)
    }

    /// Recompiles the edge and multiply kernels from `source` (an edited `wgsl/sobel.wgsl`); on
    /// an error the old ones stay.
    pub fn set_sobel_source(&mut self, source: impl Into<Source>) -> Result<()> {
        self.sobel.set_source(source)
    }

    /// The blurred copy and the edge image for `src`: the kept ones if they have its size and
    /// format.
    fn scratch(&self, src: &Image) -> Result<(Image, Image)> {
        let mut kept = self.scratch.lock().map_err(|_| crate::wgsl::poisoned())?;
        match &*kept {
            Some((b, e)) if b.size() == src.size() && b.format() == src.format() => {
                Ok((b.clone(), e.clone()))
            }
            _ => {
                let image = || {
                    self.gpu
                        .image_zeroed(src.width(), src.height(), src.format())
                };
                let pair = (image()?, image()?);
                *kept = Some(pair.clone());
                Ok(pair)
            }
        }
    }
}

/// What one cartoon reads and writes, both `rgba32float` of the same size.
#[derive(Debug, Clone, Copy)]
pub struct CartoonArgs<'a> {
    /// The picture, left as it was.
    pub src: &'a Image,
    /// Its cartoon.
    pub dst: &'a Image,
}

impl Family for Cartoon {
    fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The blur's kernels, then the edge and multiply kernels.
    fn kernels(&self) -> Vec<&Kernel> {
        let mut kernels = self.blur.kernels();
        kernels.extend(self.sobel.kernels());
        kernels
    }
}

impl Record<CartoonArgs<'_>> for Cartoon {
    /// Records the cartoon of `src` into `dst`: a copy of `src` blurred, its edges, the product.
    fn record(&self, commands: &mut Commands, args: CartoonArgs<'_>) -> Result<()> {
        let CartoonArgs { src, dst } = args;
        let commands = &mut commands.labelled("cartoon");
        crate::same_size("Cartoon", src, dst)?;
        let (blurred, edges) = self.scratch(src)?;
        commands.copy_image(src, &blurred)?;
        let (image, passes) = (&blurred, self.passes);
        self.blur.record(commands, BlurArgs { image, passes })?;
        let sobel = SobelArgs {
            src: &blurred,
            dst: &edges,
        };
        self.sobel.record(commands, sobel)?;
        let multiply = MultiplyArgs {
            base: &blurred,
            edges: &edges,
            dst,
        };
        self.sobel.record(commands, multiply)
    }
}

#[cfg(test)]
mod tests;
