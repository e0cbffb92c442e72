//! The grid of the OpenGL compute-shader lesson: 1280x720, 16x16 work groups, orange and blue patches.
//! `cargo run -p shoal-demos --bin grid [-- --headless --out grid.png]`.

use crate::blit::Blit;
use crate::cli::Options;
use crate::demo::Demo;
use shoal::{Commands, Gpu, Image, wgpu};
use shoal_kernels::{Grid, GridArgs, Record};

/// The demo (see the module docs).
pub struct GridDemo {
    grid: Grid,
    image: Image,
    blit: Blit,
}

impl Demo for GridDemo {
    const NAME: &'static str = "grid";
    const SIZE: [u32; 2] = shoal_kernels::grid::SIZE;

    fn new(
        gpu: &Gpu,
        options: &Options,
        format: wgpu::TextureFormat,
    ) -> Result<Self, shoal::Error> {
        let [w, h] = options.size;
        Ok(Self {
            grid: Grid::new(gpu)?,
            image: gpu.image_zeroed(w, h, wgpu::TextureFormat::Rgba32Float)?,
            blit: Blit::new(gpu, format)?,
        })
    }

    fn update(&mut self, commands: &mut Commands, _frame: u64) -> Result<(), shoal::Error> {
        self.grid.record(commands, GridArgs { image: &self.image })
    }

    fn picture(&mut self) -> Option<(&Image, &mut Blit)> {
        Some((&self.image, &mut self.blit))
    }

    fn sources(&self) -> &'static [&'static str] {
        &["wgsl/grid.wgsl"]
    }

    fn reload(&mut self, _gpu: &Gpu, source: shoal::Source) -> Result<(), shoal::Error> {
        self.grid.set_source(source)
    }
}
