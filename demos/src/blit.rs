//! Draws an image over a whole render target: the full-screen textured triangle the grid, the
//! ray tracer, the filters and the primitives are shown with.

use shoal::{Commands, Image, RenderPipeline, wgpu};

use crate::draw::{self, PipelineKind, Target};

/// A render pipeline that shows one image, scaled to the target with nearest texels.
pub struct Blit {
    pipeline: RenderPipeline,
    size: shoal::Buffer<glam::Vec2>,
    target: [u32; 2],
}

impl Blit {
    /// A blit into targets of `format`.
    pub fn new(gpu: &shoal::Gpu, format: wgpu::TextureFormat) -> Result<Self, shoal::Error> {
        let source = shoal::wgsl!("../../wgsl/demos/blit.wgsl");
        let pipeline = draw::pipeline(
            gpu,
            source,
            ("fullscreen", "show"),
            format,
            PipelineKind::FLAT,
        )?;
        Ok(Self {
            pipeline,
            size: gpu.uniform(&glam::Vec2::ONE)?,
            target: [0, 0],
        })
    }

    /// Records a pass that draws `image` over `target` (`target_size` pixels).
    pub fn draw(
        &mut self,
        commands: &mut Commands,
        image: &Image,
        target: &wgpu::TextureView,
        target_size: [u32; 2],
    ) -> Result<(), shoal::Error> {
        if self.target != target_size {
            self.size
                .write(&[glam::vec2(target_size[0] as f32, target_size[1] as f32)])?;
            self.target = target_size;
        }
        let call = self
            .pipeline
            .bind("image", image)
            .bind("target_size", &self.size);
        let target = Target {
            view: target,
            depth: None,
            clear: wgpu::Color::BLACK,
        };
        draw::clear_and_draw(commands, "blit", target, call, 0..3, 0..1)
    }
}
