//! What the 3D demos share on the render side: a render pipeline from a demo's WGSL, a depth
//! buffer that follows the target's size, a render pass that clears both, and the camera.

use glam::{Mat4, Vec3};
use shoal::{Gpu, wgpu};

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

/// A render pipeline of `wgsl`'s `vertex` and `fragment` entry points into `format`, its layout
/// derived by wgpu from the WGSL (bind group 0).
pub fn pipeline(
    gpu: &Gpu,
    label: &str,
    wgsl: &str,
    (vertex, fragment): (&str, &str),
    format: wgpu::TextureFormat,
    kind: PipelineKind,
) -> wgpu::RenderPipeline {
    let device = gpu.device();
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(label),
        source: wgpu::ShaderSource::Wgsl(wgsl.into()),
    });
    let blend = kind.additive.then_some(wgpu::BlendState {
        color: wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::One,
            operation: wgpu::BlendOperation::Add,
        },
        alpha: wgpu::BlendComponent::OVER,
    });
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: None,
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some(vertex),
            compilation_options: Default::default(),
            buffers: &[],
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
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

/// A depth buffer re-created whenever the target's size changes.
#[derive(Debug, Default)]
pub struct Depth {
    view: Option<([u32; 2], wgpu::TextureView)>,
}

impl Depth {
    /// The depth view for a target of `size`.
    pub fn view(&mut self, gpu: &Gpu, size: [u32; 2]) -> &wgpu::TextureView {
        if self.view.as_ref().is_none_or(|(s, _)| *s != size) {
            let texture = gpu.device().create_texture(&wgpu::TextureDescriptor {
                label: Some("demo depth"),
                size: wgpu::Extent3d {
                    width: size[0].max(1),
                    height: size[1].max(1),
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: DEPTH_FORMAT,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                view_formats: &[],
            });
            self.view = Some((size, texture.create_view(&Default::default())));
        }
        match &self.view {
            Some((_, view)) => view,
            None => unreachable!("just created"),
        }
    }
}

/// Begins a pass that clears `target` to `clear` and, when given, `depth` to the far plane.
pub fn clear_pass<'e>(
    encoder: &'e mut wgpu::CommandEncoder,
    label: &str,
    target: &wgpu::TextureView,
    depth: Option<&wgpu::TextureView>,
    clear: wgpu::Color,
) -> wgpu::RenderPass<'e> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some(label),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(clear),
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: depth.map(|view| wgpu::RenderPassDepthStencilAttachment {
            view,
            depth_ops: Some(wgpu::Operations {
                load: wgpu::LoadOp::Clear(1.0),
                store: wgpu::StoreOp::Discard,
            }),
            stencil_ops: None,
        }),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

/// A perspective camera at `eye` looking at `at` (y up), 45° vertical field of view, for a
/// target of `size`: the view-projection matrix (wgpu's 0..1 depth).
pub fn camera(eye: Vec3, at: Vec3, size: [u32; 2], far: f32) -> Mat4 {
    let aspect = size[0].max(1) as f32 / size[1].max(1) as f32;
    let proj = Mat4::perspective_rh(45f32.to_radians(), aspect, 0.01 * far, far);
    proj * Mat4::look_at_rh(eye, at, Vec3::Y)
}

/// A bind group of `pipeline`'s group 0 with `resources` at bindings 0, 1, ...
pub fn bind_group(
    gpu: &Gpu,
    label: &str,
    pipeline: &wgpu::RenderPipeline,
    resources: &[wgpu::BindingResource<'_>],
) -> wgpu::BindGroup {
    let entries: Vec<wgpu::BindGroupEntry<'_>> = resources
        .iter()
        .enumerate()
        .map(|(i, r)| wgpu::BindGroupEntry {
            binding: i as u32,
            resource: r.clone(),
        })
        .collect();
    gpu.device().create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &entries,
    })
}
