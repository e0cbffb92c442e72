//! Grid (the OpenGL compute-shader lesson): a 1280 x 720 image of 16 x 16 orange and blue patches, one per work group
//! (`wgsl/grid.wgsl`).
//!
//! Two things in the document are not followed. Its comment puts orange where the work group's
//! x and y parities differ; its shader condition `((wid.x & 1) != 1) != ((wid.y & 1) == 1)` puts
//! it where they are equal. The code is what ran, so the condition is kept: work group (0, 0) is
//! orange. And it dispatches `glDispatchCompute(1280, 720, 1)` work groups, one per pixel, where
//! 1280 x 720 pixels in 16 x 16 groups need (80, 45, 1): [`Grid::groups`] is that count.

use shoal::{Commands, Family, Gpu, Image, Kernel, Record, Result, Source};

/// The orange of the document: (1, .5, 0, 1).
pub const ORANGE: [f32; 4] = [1.0, 0.5, 0.0, 1.0];
/// The blue of the document: (0, .5, 1, 1).
pub const BLUE: [f32; 4] = [0.0, 0.5, 1.0, 1.0];
/// The document's image size.
pub const SIZE: [u32; 2] = [1280, 720];
/// The patch (work group) side.
pub const PATCH: u32 = 16;

/// The grid kernel, compiled once.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::grid::grid_cpu;
/// use shoal_kernels::{Grid, GridArgs, Record};
/// let gpu = shoal::Gpu::blocking()?;
/// let image = gpu.image_zeroed(40, 24, shoal::wgpu::TextureFormat::Rgba32Float)?;
/// Grid::new(&gpu)?.run(GridArgs { image: &image })?;
/// assert_eq!(image.read_blocking::<[f32; 4]>()?, grid_cpu(40, 24));
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Grid {
    kernel: Kernel,
}

impl Grid {
    /// Compiles the kernel (16 x 16 work groups: the pattern is made of them); all it runs,
    /// so there is nothing to `prepare`.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Self::from_source(gpu, shoal::wgsl!("../wgsl/grid.wgsl"))
    }

    /// A grid like [`Grid::new`] whose kernel is compiled from `source`, an edited copy of
    /// `wgsl/grid.wgsl` with the same entry point and binding (hot reload). A WGSL error is
    /// [`shoal::Error::Wgsl`] naming the source's file and line.
    pub fn from_source(gpu: &Gpu, source: impl Into<Source>) -> Result<Self> {
        Ok(Self {
            kernel: gpu.kernel(source)?,
        })
    }

    /// Recompiles the kernel from `source` (an edited `wgsl/grid.wgsl`). On an error the old
    /// kernel stays.
    pub fn set_source(&mut self, source: impl Into<Source>) -> Result<()> {
        self.kernel = self.kernel.gpu().kernel(source)?;
        Ok(())
    }

    /// Work groups for a `width` x `height` image: (80, 45, 1) for the document's 1280 x 720.
    pub fn groups(width: u32, height: u32) -> [u32; 3] {
        [width.div_ceil(PATCH), height.div_ceil(PATCH), 1]
    }
}

/// What one grid drawing writes.
#[derive(Debug, Clone, Copy)]
pub struct GridArgs<'a> {
    /// The image drawn into (rgba32float, any size).
    pub image: &'a Image,
}

impl Family for Grid {
    fn gpu(&self) -> &Gpu {
        self.kernel.gpu()
    }

    fn kernels(&self) -> Vec<&Kernel> {
        vec![&self.kernel]
    }
}

impl Record<GridArgs<'_>> for Grid {
    /// Records drawing the grid into `args.image`, in [`Grid::groups`] work groups.
    fn record(&self, commands: &mut Commands, args: GridArgs<'_>) -> Result<()> {
        let image = args.image;
        let commands = &mut commands.labelled("grid");
        self.kernel
            .bind("img_output", image)
            .groups(Self::groups(image.width(), image.height()))
            .record(commands)
    }
}

/// The CPU twin: the colour of every pixel, from its work group as the shader's condition says.
pub fn grid_cpu(width: u32, height: u32) -> Vec<[f32; 4]> {
    (0..height)
        .flat_map(|y| (0..width).map(move |x| (x / PATCH, y / PATCH)))
        .map(|(wx, wy)| {
            if ((wx & 1) != 1) != ((wy & 1) == 1) {
                ORANGE
            } else {
                BLUE
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
