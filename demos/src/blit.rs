//! Draws an image over a whole render target: the full-screen textured triangle the grid, the
//! ray tracer and the filters are shown with.

use shoal::{Gpu, Image, wgpu};

/// A render pipeline that shows one image, scaled to the target with nearest texels.
pub struct Blit {
    pipeline: wgpu::RenderPipeline,
    size: shoal::Buffer<glam::Vec2>,
    group: Option<(wgpu::Texture, wgpu::BindGroup)>,
    target: [u32; 2],
}

impl Blit {
    /// A blit into targets of `format`. The layout is derived by wgpu from the WGSL (`layout: None`).
    pub fn new(gpu: &Gpu, format: wgpu::TextureFormat) -> Result<Self, shoal::Error> {
        let device = gpu.device();
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("blit"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../wgsl/demos/blit.wgsl").into()),
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("blit"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("fullscreen"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("show"),
                compilation_options: Default::default(),
                targets: &[Some(format.into())],
            }),
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            multiview_mask: None,
            cache: None,
        });
        let size = gpu.uniform(&glam::Vec2::ONE)?;
        Ok(Self {
            pipeline,
            size,
            group: None,
            target: [0, 0],
        })
    }

    /// Records a pass that draws `image` over `target` (`target_size` pixels).
    pub fn draw(
        &mut self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        image: &Image,
        target: &wgpu::TextureView,
        target_size: [u32; 2],
    ) -> Result<(), shoal::Error> {
        if self.target != target_size {
            self.size
                .write(&[glam::vec2(target_size[0] as f32, target_size[1] as f32)])?;
            self.target = target_size;
        }
        if self.group.as_ref().map(|g| &g.0) != Some(image.raw()) {
            let group = gpu.device().create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("blit"),
                layout: &self.pipeline.get_bind_group_layout(0),
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::TextureView(image.view()),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: self.size.raw().as_entire_binding(),
                    },
                ],
            });
            self.group = Some((image.raw().clone(), group));
        }
        let Some((_, group)) = &self.group else {
            return Ok(());
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("blit"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.draw(0..3, 0..1);
        Ok(())
    }
}
