//! Sobel edge detection and the cartoon composite (002, exercise 6), WGSL in `wgsl/sobel.wgsl`.
//!
//! [`Sobel`] writes the inverted edge image of the document's SobelCS: per channel the Sobel
//! derivatives, their magnitude, then 1 − saturate(luminance) with the weights 0.299, 0.587,
//! 0.114, so edges are black. The document's `Gy` line repeats `c[2][1]` where the operator
//! has `c[2][2]`; Shoal implements the correct operator. [`Cartoon`] is the exercise's
//! stylised look: blur, Sobel on the blurred image, multiply the blurred image by the edges.

pub mod cpu;

use shoal::{Commands, Gpu, Image, Kernel, Result, Source};

use crate::blur::GaussianBlur;

/// The Sobel and multiply kernels.
#[derive(Debug, Clone)]
pub struct Sobel {
    gpu: Gpu,
    sobel: Kernel,
    multiply: Kernel,
}

impl Sobel {
    /// Compiles both kernels.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Self::from_source(gpu, shoal::wgsl!("../../../wgsl/sobel.wgsl"))
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

    /// Records the inverted edge image of `src` into `dst` (both `rgba32float`, same size).
    pub fn record_edges(&self, commands: &mut Commands, src: &Image, dst: &Image) -> Result<()> {
        crate::same_size("Sobel", src, dst)?;
        self.sobel
            .bind("src", src)
            .bind("dst", dst)
            .invocations_2d(src.size())
            .record(commands)
    }

    /// Records `dst = base × edges`.
    pub fn record_multiply(
        &self,
        commands: &mut Commands,
        base: &Image,
        edges: &Image,
        dst: &Image,
    ) -> Result<()> {
        crate::same_size("Sobel (multiply)", base, edges)?;
        crate::same_size("Sobel (multiply)", base, dst)?;
        self.multiply
            .bind("base", base)
            .bind("edges", edges)
            .bind("dst", dst)
            .invocations_2d(base.size())
            .record(commands)
    }

    /// Writes the inverted edge image of `src` into `dst`, submitted on its own.
    pub fn edges(&self, src: &Image, dst: &Image) -> Result<()> {
        let mut commands = self.gpu.commands();
        self.record_edges(&mut commands, src, dst)?;
        commands.submit()?;
        Ok(())
    }
}

/// The cartoon look: `passes` Gaussian blur passes, Sobel on the blurred image, and the blurred
/// image multiplied by its edges.
#[derive(Debug)]
pub struct Cartoon {
    gpu: Gpu,
    blur: GaussianBlur,
    sobel: Sobel,
    passes: u32,
    /// The blurred copy and the edge image, kept between runs of the same size.
    scratch: Option<(Image, Image)>,
}

impl Cartoon {
    /// A cartoon filter blurring with `sigma` for `passes` passes first (0 passes: edges of
    /// the original, as the exercise's first version).
    pub fn new(gpu: &Gpu, sigma: f32, passes: u32) -> Result<Self> {
        Ok(Self {
            gpu: gpu.clone(),
            blur: GaussianBlur::new(gpu, sigma)?,
            sobel: Sobel::new(gpu)?,
            passes,
            scratch: None,
        })
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

    /// Records the cartoon of `src` into `dst` (`src` is left as it was).
    pub fn record(&mut self, commands: &mut Commands, src: &Image, dst: &Image) -> Result<()> {
        if self
            .scratch
            .as_ref()
            .is_none_or(|(b, _)| b.size() != src.size() || b.format() != src.format())
        {
            let blurred = self.gpu.image(src.width(), src.height(), src.format())?;
            let edges = self.gpu.image(src.width(), src.height(), src.format())?;
            self.scratch = Some((blurred, edges));
        }
        let Some((blurred, edges)) = &self.scratch else {
            return Ok(());
        };
        copy_image(commands, src, blurred);
        self.blur.record(commands, blurred, self.passes)?;
        self.sobel.record_edges(commands, blurred, edges)?;
        self.sobel.record_multiply(commands, blurred, edges, dst)
    }

    /// Writes the cartoon of `src` into `dst`, submitted on its own.
    pub fn run(&mut self, src: &Image, dst: &Image) -> Result<()> {
        let mut commands = self.gpu.commands();
        self.record(&mut commands, src, dst)?;
        commands.submit()?;
        Ok(())
    }
}

/// Records a copy of `src` into `dst`, which has its size and format (made by the caller).
fn copy_image(commands: &mut Commands, src: &Image, dst: &Image) {
    let size = shoal::wgpu::Extent3d {
        width: src.width(),
        height: src.height(),
        depth_or_array_layers: 1,
    };
    commands.encoder().copy_texture_to_texture(
        src.raw().as_image_copy(),
        dst.raw().as_image_copy(),
        size,
    );
}

#[cfg(test)]
mod tests;
