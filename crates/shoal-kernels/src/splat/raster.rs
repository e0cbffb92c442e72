//! The render pipelines of particle splatting (`wgsl/splat_raster.wgsl`): the opaque scene, the
//! rasterized baseline and the compute path's composite. Raw wgpu pipelines, since Shoal wraps
//! compute only, drawing into the target's core [`Image`](shoal::Image)s through their views;
//! the three pipelines differ only in a [`Spec`], the three passes in [`begin_pass`]'s
//! arguments, and every layout is wgpu's derived one (`layout: None`).

use shoal::{Gpu, Result, wgpu};

use super::{DEPTH_FORMAT, HDR_FORMAT, Scene, SplatTarget};

const RASTER: &str = include_str!("../../wgsl/splat_raster.wgsl");
const RASTER_PATH: &str = "wgsl/splat_raster.wgsl";

#[derive(Debug)]
pub(super) struct Pipelines {
    gpu: Gpu,
    /// `Some` until `drop` destroys them on Shoal's GL turn: destroying a render pipeline takes
    /// wgpu's GL context lock (see `Gpu::with_turn`).
    raw: Option<Raw>,
}

#[derive(Debug)]
struct Raw {
    geometry: wgpu::RenderPipeline,
    particles: wgpu::RenderPipeline,
    composite: wgpu::RenderPipeline,
}

impl Drop for Pipelines {
    fn drop(&mut self) {
        let raw = self.raw.take();
        self.gpu.with_turn(|| drop(raw));
    }
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

/// What differs between the three render pipelines; [`pipeline`] builds the rest the same way.
struct Spec<'a> {
    label: &'a str,
    vertex: &'a str,
    fragment: &'a str,
    topology: wgpu::PrimitiveTopology,
    /// Whether it draws [`ATTRIBUTES`] from a vertex buffer (else it makes its own vertices).
    vertices: bool,
    /// The depth test (`Less` against [`DEPTH_FORMAT`]), writing depth when `Some(true)`; `None`
    /// for a pipeline that draws without the depth buffer.
    depth_write: Option<bool>,
    /// Blending One + One (sums); else the colour replaces what was there.
    additive: bool,
}

/// One render pipeline of `module` into the HDR target, as `spec` says.
fn pipeline(
    device: &wgpu::Device,
    module: &wgpu::ShaderModule,
    spec: Spec<'_>,
) -> wgpu::RenderPipeline {
    let vertex_layout = [Some(wgpu::VertexBufferLayout {
        array_stride: 32,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &ATTRIBUTES,
    })];
    let add = wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::One,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::Add,
    };
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(spec.label),
        layout: None,
        vertex: wgpu::VertexState {
            module,
            entry_point: Some(spec.vertex),
            compilation_options: Default::default(),
            buffers: if spec.vertices { &vertex_layout } else { &[] },
        },
        primitive: wgpu::PrimitiveState {
            topology: spec.topology,
            ..Default::default()
        },
        depth_stencil: spec.depth_write.map(|write| wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(write),
            depth_compare: Some(wgpu::CompareFunction::Less),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some(spec.fragment),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: HDR_FORMAT,
                blend: spec.additive.then_some(wgpu::BlendState {
                    color: add,
                    alpha: add,
                }),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// Clears to `clear` when there is one, else loads; always stores.
fn ops<V>(clear: Option<V>) -> wgpu::Operations<V> {
    wgpu::Operations {
        load: clear.map_or(wgpu::LoadOp::Load, wgpu::LoadOp::Clear),
        store: wgpu::StoreOp::Store,
    }
}

/// A render pass into `target`'s HDR image, and its depth image when `depth`. With `clear` the
/// colour starts black and the depth at 1; without, both keep what is there.
fn begin_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    label: &str,
    target: &SplatTarget,
    (clear, depth): (bool, bool),
    timestamp_writes: Option<wgpu::RenderPassTimestampWrites<'_>>,
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target.hdr.view(),
            depth_slice: None,
            resolve_target: None,
            ops: ops(clear.then_some(wgpu::Color::BLACK)),
        })],
        depth_stencil_attachment: depth.then(|| wgpu::RenderPassDepthStencilAttachment {
            view: target.depth.view(),
            depth_ops: Some(ops(clear.then_some(1.0))),
            stencil_ops: None,
        }),
        timestamp_writes,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

/// A bind group for group 0 of `pipeline`: `params` at binding 0, and `accum` at 4 when given.
fn bind_group(
    gpu: &Gpu,
    pipeline: &wgpu::RenderPipeline,
    scene: &Scene,
    accum: Option<&wgpu::Buffer>,
) -> wgpu::BindGroup {
    let mut entries = vec![wgpu::BindGroupEntry {
        binding: 0,
        resource: scene.params.raw().as_entire_binding(),
    }];
    if let Some(accum) = accum {
        entries.push(wgpu::BindGroupEntry {
            binding: 4,
            resource: accum.as_entire_binding(),
        });
    }
    // Raw wgpu calls take Shoal's GL turn (see `Gpu::with_turn`).
    gpu.with_turn(|| {
        gpu.device().create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("splat render"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        })
    })
}

impl Pipelines {
    /// The three pipelines, `splat::common` being `common`.
    pub(super) fn new(gpu: &Gpu, common: &str) -> Result<Self> {
        // Raw wgpu calls take Shoal's GL turn (see `Gpu::with_turn`).
        let raw = gpu.with_turn(|| Raw::create(gpu, common))?;
        Ok(Self {
            gpu: gpu.clone(),
            raw: Some(raw),
        })
    }

    fn raw(&self) -> &Raw {
        self.raw.as_ref().expect("only `drop` takes the pipelines")
    }

    /// Clears colour and depth, then draws the opaque triangles.
    pub(super) fn geometry_pass(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        target: &SplatTarget,
        scene: &Scene,
    ) {
        let group = bind_group(gpu, &self.raw().geometry, scene, None);
        let mut pass = begin_pass(encoder, "splat geometry", target, (true, true), None);
        if !scene.geometry.is_empty() {
            pass.set_pipeline(&self.raw().geometry);
            pass.set_bind_group(0, &group, &[]);
            pass.set_vertex_buffer(0, scene.geometry.raw().slice(..));
            pass.draw(0..scene.geometry.len() as u32, 0..1);
        }
    }

    /// Draws the particles as points over what is there (the rasterized baseline).
    pub(super) fn particle_pass(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        target: &SplatTarget,
        scene: &Scene,
        timestamp_writes: Option<wgpu::RenderPassTimestampWrites<'_>>,
    ) {
        let group = bind_group(gpu, &self.raw().particles, scene, None);
        let label = "splat raster particles";
        let mut pass = begin_pass(encoder, label, target, (false, true), timestamp_writes);
        if !scene.particles.is_empty() {
            pass.set_pipeline(&self.raw().particles);
            pass.set_bind_group(0, &group, &[]);
            pass.set_vertex_buffer(0, scene.particles.raw().slice(..));
            pass.draw(0..scene.particles.len() as u32, 0..1);
        }
    }

    /// Adds the compute path's integers, as colour, to the HDR image (a full-screen triangle).
    pub(super) fn composite_pass(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        target: &SplatTarget,
        scene: &Scene,
        timestamp_writes: Option<wgpu::RenderPassTimestampWrites<'_>>,
    ) {
        let group = bind_group(gpu, &self.raw().composite, scene, Some(target.accum.raw()));
        let label = "splat composite";
        let mut pass = begin_pass(encoder, label, target, (false, false), timestamp_writes);
        pass.set_pipeline(&self.raw().composite);
        pass.set_bind_group(0, &group, &[]);
        pass.draw(0..3, 0..1);
    }
}

impl Raw {
    /// The three pipelines (the caller holds the GL turn).
    fn create(gpu: &Gpu, common: &str) -> Result<Self> {
        let text = composed(common);
        // naga first, so a broken shader is a typed error with file and line, not a wgpu panic.
        shoal::validate(&shoal::Source::new(RASTER_PATH, text.clone()))?;
        let device = gpu.device();
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(RASTER_PATH),
            source: wgpu::ShaderSource::Wgsl(text.into()),
        });
        let spec = |label, vertex, fragment| Spec {
            label,
            vertex,
            fragment,
            topology: wgpu::PrimitiveTopology::TriangleList,
            vertices: true,
            depth_write: Some(true),
            additive: false,
        };
        // What wgpu still rejects lands in Shoal's error sink and is returned by the next submit.
        Ok(Self {
            geometry: pipeline(
                device,
                &module,
                spec("splat geometry", "geometry_vs", "shaded_fs"),
            ),
            // Particles test depth but never write it: the opaque scene alone occludes.
            particles: pipeline(
                device,
                &module,
                Spec {
                    topology: wgpu::PrimitiveTopology::PointList,
                    depth_write: Some(false),
                    additive: true,
                    ..spec("splat raster particles", "particle_vs", "shaded_fs")
                },
            ),
            composite: pipeline(
                device,
                &module,
                Spec {
                    vertices: false,
                    depth_write: None,
                    additive: true,
                    ..spec("splat composite", "composite_vs", "composite_fs")
                },
            ),
        })
    }
}
