//! What the demos share on the render side: a render pipeline from a demo's WGSL (through the
//! core's [`RenderModule`](shoal::RenderModule), so a WGSL mistake names its file and line), a
//! depth image that follows the target's size, the one pass every demo draws with (clear, then
//! draw), and the camera.

use std::ops::Range;

use glam::{Mat4, Vec3};
use shoal::{Commands, Draw, Gpu, Image, RenderPipeline, Source, wgpu};

/// The depth format of the 3D demos.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// How a pipeline's triangles are put together and blended.
#[derive(Debug, Clone, Copy)]
pub struct PipelineKind {
    /// Triangle list or strip.
    pub topology: wgpu::PrimitiveTopology,
    /// Depth-tested and written (`true`), or drawn over the target without depth.
    pub depth: bool,
    /// Additive blending (glowing particles) instead of replacing.
    pub additive: bool,
}

impl PipelineKind {
    /// A full-screen triangle (or any triangle list) replacing what is there, without depth.
    pub const FLAT: Self = Self {
        topology: wgpu::PrimitiveTopology::TriangleList,
        depth: false,
        additive: false,
    };
}

/// A render pipeline of `source`'s `vertex` and `fragment` entry points into `format`, its
/// layout derived by wgpu from the WGSL, labelled with the source's path.
pub fn pipeline(
    gpu: &Gpu,
    source: Source,
    (vertex, fragment): (&str, &str),
    format: wgpu::TextureFormat,
    kind: PipelineKind,
) -> Result<RenderPipeline, shoal::Error> {
    let module = gpu.render_module(source)?;
    let blend = kind.additive.then_some(wgpu::BlendState {
        color: wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::One,
            operation: wgpu::BlendOperation::Add,
        },
        alpha: wgpu::BlendComponent::OVER,
    });
    module.pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(module.name()),
        layout: None,
        vertex: wgpu::VertexState {
            module: module.raw(),
            entry_point: Some(vertex),
            compilation_options: Default::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module: module.raw(),
            entry_point: Some(fragment),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend,
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        primitive: wgpu::PrimitiveState {
            topology: kind.topology,
            ..Default::default()
        },
        depth_stencil: kind.depth.then(|| wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(true),
            depth_compare: Some(wgpu::CompareFunction::Less),
            stencil: Default::default(),
            bias: Default::default(),
        }),
        multisample: Default::default(),
        multiview_mask: None,
        cache: None,
    })
}

/// A depth image re-created whenever the target's size changes.
#[derive(Debug, Default)]
pub struct Depth {
    image: Option<Image>,
}

impl Depth {
    /// The depth image for a target of `size`.
    pub fn image(&mut self, gpu: &Gpu, size: [u32; 2]) -> Result<&Image, shoal::Error> {
        let size = size.map(|s| s.max(1));
        let image = match self.image.take() {
            Some(image) if image.size() == size => image,
            _ => gpu.image_zeroed_with(
                size[0],
                size[1],
                DEPTH_FORMAT,
                wgpu::TextureUsages::RENDER_ATTACHMENT,
            )?,
        };
        Ok(self.image.insert(image))
    }
}

/// Where a demo draws: the frame's view, the depth image of a 3D demo, and the colour the
/// frame starts from.
#[derive(Debug, Clone, Copy)]
pub struct Target<'a> {
    /// The colour target.
    pub view: &'a wgpu::TextureView,
    /// The depth image (cleared to the far plane), for a pipeline that tests depth.
    pub depth: Option<&'a Image>,
    /// What the colour target is cleared to.
    pub clear: wgpu::Color,
}

/// Records one pass into `commands`, labelled `label` (a profiled batch times it so): clears
/// `target` (and its depth), then draws `draw`'s `vertices` x `instances`.
pub fn clear_and_draw(
    commands: &mut Commands,
    label: &str,
    target: Target<'_>,
    draw: Draw<'_>,
    vertices: Range<u32>,
    instances: Range<u32>,
) -> Result<(), shoal::Error> {
    let mut pass = commands.render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target.view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(target.clear),
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: target.depth.map(|depth| {
            wgpu::RenderPassDepthStencilAttachment {
                view: depth.view(),
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }
        }),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    });
    draw.record(&mut pass, vertices, instances)
}

/// A perspective camera at `eye` looking at `at` (y up), 45° vertical field of view, for a
/// target of `size`: the view-projection matrix (wgpu's 0..1 depth).
pub fn camera(eye: Vec3, at: Vec3, size: [u32; 2], far: f32) -> Mat4 {
    let aspect = size[0].max(1) as f32 / size[1].max(1) as f32;
    Mat4::perspective_rh(45f32.to_radians(), aspect, 0.01 * far, far)
        * Mat4::look_at_rh(eye, at, Vec3::Y)
}
