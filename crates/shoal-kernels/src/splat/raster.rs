//! The render pipelines of particle splatting (`wgsl/splat_raster.wgsl`): the opaque scene, the
//! rasterized baseline and the compute path's composite. Raw wgpu, since Shoal wraps compute
//! only; every layout is wgpu's derived one (`layout: None`).

use shoal::{Gpu, Result, wgpu};

use super::{DEPTH_FORMAT, HDR_FORMAT, Scene, SplatTarget};

const RASTER: &str = include_str!("../../../../wgsl/splat_raster.wgsl");
const RASTER_PATH: &str = "wgsl/splat_raster.wgsl";

#[derive(Debug)]
pub(super) struct Pipelines {
    geometry: wgpu::RenderPipeline,
    particles: wgpu::RenderPipeline,
    composite: wgpu::RenderPipeline,
}

/// `#import splat::common` resolved as Shoal resolves it for kernels: the line blanked (so line
/// numbers hold) and the snippet `common` (the text of `splat_common.wgsl`) appended.
fn composed(common: &str) -> String {
    let mut text: String = RASTER
        .lines()
        .map(|l| {
            if l.trim() == "#import splat::common" {
                String::new()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    text.push('\n');
    text.push_str(common);
    text
}

/// Position and colour, two `vec4<f32>` per vertex: both `Vertex` and `Particle`.
const ATTRIBUTES: [wgpu::VertexAttribute; 2] =
    wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4];

fn additive() -> Option<wgpu::BlendState> {
    let add = wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::One,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::Add,
    };
    Some(wgpu::BlendState {
        color: add,
        alpha: add,
    })
}

impl Pipelines {
    /// The three pipelines, `splat::common` being `common`.
    pub(super) fn new(gpu: &Gpu, common: &str) -> Result<Self> {
        let text = composed(common);
        // naga first, so a broken shader is a typed error with file and line, not a wgpu panic.
        shoal::validate(&shoal::Source::new(RASTER_PATH, text.clone()))?;
        let device = gpu.device();
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(RASTER_PATH),
            source: wgpu::ShaderSource::Wgsl(text.into()),
        });
        let vertex_layout = [Some(wgpu::VertexBufferLayout {
            array_stride: 32,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &ATTRIBUTES,
        })];
        let pipeline = |label: &str,
                        vs: &str,
                        fs: &str,
                        topology,
                        buffers: &[Option<wgpu::VertexBufferLayout<'_>>],
                        depth: Option<wgpu::DepthStencilState>,
                        blend| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: None,
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some(vs),
                    compilation_options: Default::default(),
                    buffers,
                },
                primitive: wgpu::PrimitiveState {
                    topology,
                    ..Default::default()
                },
                depth_stencil: depth,
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some(fs),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: HDR_FORMAT,
                        blend,
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let depth = |write: bool| wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(write),
            depth_compare: Some(wgpu::CompareFunction::Less),
            stencil: Default::default(),
            bias: Default::default(),
        };
        let geometry = pipeline(
            "splat geometry",
            "geometry_vs",
            "shaded_fs",
            wgpu::PrimitiveTopology::TriangleList,
            &vertex_layout,
            Some(depth(true)),
            None,
        );
        // Particles test depth but never write it: the opaque scene alone occludes.
        let particles = pipeline(
            "splat raster particles",
            "particle_vs",
            "shaded_fs",
            wgpu::PrimitiveTopology::PointList,
            &vertex_layout,
            Some(depth(false)),
            additive(),
        );
        let composite = pipeline(
            "splat composite",
            "composite_vs",
            "composite_fs",
            wgpu::PrimitiveTopology::TriangleList,
            &[],
            None,
            additive(),
        );
        // What wgpu still rejects lands in Shoal's error sink and is returned by the next submit.
        Ok(Self {
            geometry,
            particles,
            composite,
        })
    }

    fn bind_group(
        gpu: &Gpu,
        pipeline: &wgpu::RenderPipeline,
        entries: &[wgpu::BindGroupEntry<'_>],
    ) -> wgpu::BindGroup {
        gpu.device().create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("splat render"),
            layout: &pipeline.get_bind_group_layout(0),
            entries,
        })
    }

    pub(super) fn geometry_pass(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        target: &SplatTarget,
        scene: &Scene,
    ) {
        let group = Self::bind_group(
            gpu,
            &self.geometry,
            &[wgpu::BindGroupEntry {
                binding: 0,
                resource: scene.params.raw().as_entire_binding(),
            }],
        );
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("splat geometry"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target.hdr.view(),
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: target.depth.view(),
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        if !scene.geometry.is_empty() {
            pass.set_pipeline(&self.geometry);
            pass.set_bind_group(0, &group, &[]);
            pass.set_vertex_buffer(0, scene.geometry.raw().slice(..));
            pass.draw(0..scene.geometry.len() as u32, 0..1);
        }
    }

    pub(super) fn particle_pass(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        target: &SplatTarget,
        scene: &Scene,
        timestamp_writes: Option<wgpu::RenderPassTimestampWrites<'_>>,
    ) {
        let group = Self::bind_group(
            gpu,
            &self.particles,
            &[wgpu::BindGroupEntry {
                binding: 0,
                resource: scene.params.raw().as_entire_binding(),
            }],
        );
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("splat raster particles"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target.hdr.view(),
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Load,
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: target.depth.view(),
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Load,
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        if !scene.particles.is_empty() {
            pass.set_pipeline(&self.particles);
            pass.set_bind_group(0, &group, &[]);
            pass.set_vertex_buffer(0, scene.particles.raw().slice(..));
            pass.draw(0..scene.particles.len() as u32, 0..1);
        }
    }

    pub(super) fn composite_pass(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        target: &SplatTarget,
        scene: &Scene,
        timestamp_writes: Option<wgpu::RenderPassTimestampWrites<'_>>,
    ) {
        let group = Self::bind_group(
            gpu,
            &self.composite,
            &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: scene.params.raw().as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: target.accum.raw().as_entire_binding(),
                },
            ],
        );
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("splat composite"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target.hdr.view(),
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Load,
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&self.composite);
        pass.set_bind_group(0, &group, &[]);
        pass.draw(0..3, 0..1);
    }
}
