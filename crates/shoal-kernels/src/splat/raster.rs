//! The render pipelines of particle splatting (`wgsl/splat_raster.wgsl`): the opaque scene, the
//! rasterized baseline and the compute path's composite, drawing into the target's core
//! [`Image`](shoal::Image)s. The core composes the file with `splat::common` (so an error there
//! names `splat_common.wgsl` and its line), binds by name, takes the GL turn and times each
//! pass in a profiled batch; the three pipelines differ only in a [`Spec`], the three passes in
//! [`pass`]'s arguments, and every layout is wgpu's derived one (`layout: None`).

use shoal::{Commands, Gpu, RenderModule, RenderPipeline, Result, Source, wgpu};

use super::{DEPTH_FORMAT, HDR_FORMAT, Scene, SplatTarget};

/// `wgsl/splat_raster.wgsl`, which imports `splat::common`.
const RASTER: Source = shoal::wgsl!("../../wgsl/splat_raster.wgsl");

/// The label of the opaque scene's pass (a profiled batch times it under this name).
pub(crate) const GEOMETRY: &str = "splat geometry";

#[derive(Debug)]
pub(super) struct Pipelines {
    geometry: RenderPipeline,
    particles: RenderPipeline,
    composite: RenderPipeline,
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
fn pipeline(module: &RenderModule, spec: Spec<'_>) -> Result<RenderPipeline> {
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
    module.pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(spec.label),
        layout: None,
        vertex: wgpu::VertexState {
            module: module.raw(),
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
            module: module.raw(),
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
fn pass<'c>(
    commands: &'c mut Commands,
    label: &str,
    target: &SplatTarget,
    (clear, depth): (bool, bool),
) -> wgpu::RenderPass<'c> {
    commands.render_pass(&wgpu::RenderPassDescriptor {
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
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

/// The render module's source: `wgsl/splat_raster.wgsl`, its `splat::common` being `common`.
pub(super) fn source(common: &Source) -> Source {
    RASTER.snippet("splat::common", common.clone())
}

impl Pipelines {
    /// The three pipelines, from `source` (what [`source`] composes).
    pub(super) fn new(gpu: &Gpu, source: Source) -> Result<Self> {
        let module = gpu.render_module(source)?;
        let spec = |label, vertex, fragment| Spec {
            label,
            vertex,
            fragment,
            topology: wgpu::PrimitiveTopology::TriangleList,
            vertices: true,
            depth_write: Some(true),
            additive: false,
        };
        Ok(Self {
            geometry: pipeline(&module, spec(GEOMETRY, "geometry_vs", "shaded_fs"))?,
            // Particles test depth but never write it: the opaque scene alone occludes.
            particles: pipeline(
                &module,
                Spec {
                    topology: wgpu::PrimitiveTopology::PointList,
                    depth_write: Some(false),
                    additive: true,
                    ..spec("splat raster particles", "particle_vs", "shaded_fs")
                },
            )?,
            composite: pipeline(
                &module,
                Spec {
                    vertices: false,
                    depth_write: None,
                    additive: true,
                    ..spec("splat composite", "composite_vs", "composite_fs")
                },
            )?,
        })
    }

    /// Clears colour and depth, then draws the opaque triangles.
    pub(super) fn geometry_pass(
        &self,
        commands: &mut Commands,
        target: &SplatTarget,
        scene: &Scene,
    ) -> Result<()> {
        let mut pass = pass(commands, GEOMETRY, target, (true, true));
        (self.geometry.bind("params", &scene.params))
            .vertices(0, &scene.geometry)
            .record(&mut pass, 0..scene.geometry.len() as u32, 0..1)
    }

    /// Draws the particles as points over what is there (the rasterized baseline).
    pub(super) fn particle_pass(
        &self,
        commands: &mut Commands,
        target: &SplatTarget,
        scene: &Scene,
    ) -> Result<()> {
        let mut pass = pass(commands, "splat raster particles", target, (false, true));
        (self.particles.bind("params", &scene.params))
            .vertices(0, &scene.particles)
            .record(&mut pass, 0..scene.particles.len() as u32, 0..1)
    }

    /// Adds the compute path's integers, as colour, to the HDR image (a full-screen triangle).
    pub(super) fn composite_pass(
        &self,
        commands: &mut Commands,
        target: &SplatTarget,
        scene: &Scene,
    ) -> Result<()> {
        let mut pass = pass(commands, "splat composite", target, (false, false));
        (self.composite.bind("params", &scene.params))
            .bind("accum_read", &target.accum)
            .record(&mut pass, 0..3, 0..1)
    }
}
