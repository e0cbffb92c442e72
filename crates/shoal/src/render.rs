//! Render pipelines through the core: [`RenderModule`] (WGSL composed by Shoal's one
//! preprocessor, so an error in an imported snippet names the snippet's file and line),
//! [`RenderPipeline`] (bind groups by name, checked as a kernel's are) and
//! [`Commands::render_pass`] (timed by a [`profiled`](Commands::profiled) batch like a
//! dispatch). Every wgpu call they make takes Shoal's GL turn, creation and destruction alike.
//!
//! What a pipeline draws — topology, vertex layouts, depth, blending, targets — stays wgpu's own
//! [`RenderPipelineDescriptor`](wgpu::RenderPipelineDescriptor): Shoal adds nothing there.
//!
//! ```
//! # fn main() -> Result<(), shoal::Error> {
//! use shoal::wgpu;
//! let gpu = shoal::Gpu::blocking()?;
//! let module = gpu.render_module("
//!     @group(0) @binding(0) var<uniform> colour: vec4<f32>;
//!     @vertex fn fullscreen(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
//!         let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
//!         return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
//!     }
//!     @fragment fn paint() -> @location(0) vec4<f32> { return colour; }")?;
//! let format = wgpu::TextureFormat::Rgba8Unorm;
//! let pipeline = module.pipeline(&wgpu::RenderPipelineDescriptor {
//!     label: Some("paint"),
//!     layout: None,
//!     vertex: wgpu::VertexState {
//!         module: module.raw(),
//!         entry_point: Some("fullscreen"),
//!         compilation_options: Default::default(),
//!         buffers: &[],
//!     },
//!     fragment: Some(wgpu::FragmentState {
//!         module: module.raw(),
//!         entry_point: Some("paint"),
//!         compilation_options: Default::default(),
//!         targets: &[Some(format.into())],
//!     }),
//!     primitive: Default::default(),
//!     depth_stencil: None,
//!     multisample: Default::default(),
//!     multiview_mask: None,
//!     cache: None,
//! })?;
//! let image = gpu.image_zeroed_with(4, 4, format, wgpu::TextureUsages::RENDER_ATTACHMENT)?;
//! let colour = gpu.uniform(&shoal::glam::Vec4::new(1.0, 0.0, 0.0, 1.0))?;
//! let mut commands = gpu.commands();
//! let mut pass = commands.render_pass(&wgpu::RenderPassDescriptor {
//!     label: Some("paint"),
//!     color_attachments: &[Some(wgpu::RenderPassColorAttachment {
//!         view: image.view(),
//!         depth_slice: None,
//!         resolve_target: None,
//!         ops: wgpu::Operations::default(),
//!     })],
//!     ..Default::default()
//! });
//! pipeline.bind("colour", &colour).record(&mut pass, 0..3, 0..1)?;
//! drop(pass);
//! commands.submit()?.wait_blocking()?;
//! assert_eq!(image.read_blocking::<[u8; 4]>()?, vec![[255, 0, 0, 255]; 16]);
//! # Ok(()) }
//! ```

use std::ops::Range;

use crate::binding::{Bindable, Resource};
use crate::commands::Commands;
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::source::{Composed, Source};
use crate::turn::Turn;

/// One resource binding of a render module: its WGSL name and where it sits.
#[derive(Debug, Clone)]
struct Slot {
    name: String,
    group: u32,
    binding: u32,
}

/// WGSL for render pipelines, composed by Shoal's preprocessor (`#import`, `#block`) and
/// validated by naga before wgpu sees it: a mistake is [`Error::Wgsl`] naming the file (a
/// snippet's own) and line. Made by [`Gpu::render_module`].
pub struct RenderModule {
    gpu: Gpu,
    name: String,
    raw: wgpu::ShaderModule,
    /// Each entry point's name and the bindings it uses.
    entry_points: Vec<(String, Vec<Slot>)>,
    /// The name of every binding the module declares.
    names: Vec<String>,
    /// Held while the fields above drop, under the GL turn. Declared last.
    dropping: Option<Turn>,
}

impl Drop for RenderModule {
    fn drop(&mut self) {
        self.dropping = Some(self.gpu.turn());
    }
}

impl std::fmt::Debug for RenderModule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RenderModule")
            .field("name", &self.name)
            .finish()
    }
}

impl Gpu {
    /// Compiles `source`'s vertex and fragment entry points for render pipelines: composed as
    /// kernels are, validated by naga (a mistake is [`Error::Wgsl`] naming the file and line),
    /// then handed to wgpu under Shoal's GL turn.
    pub fn render_module(&self, source: impl Into<Source>) -> Result<RenderModule> {
        let source = source.into();
        let name = source.path().to_string();
        crate::validate(&source)?;
        let composed = Composed::new(&source)?;
        let wgsl_error = |message: String| Error::Wgsl {
            kernel: name.clone(),
            message,
        };
        let module = naga::front::wgsl::parse_str(&composed.text)
            .map_err(|e| wgsl_error(e.message().to_string()))?;
        let info = naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::all(),
        )
        .validate(&module)
        .map_err(|e| wgsl_error(e.as_inner().to_string()))?;
        let entry_points = module
            .entry_points
            .iter()
            .enumerate()
            .map(|(i, ep)| {
                let uses = info.get_entry_point(i);
                let slots = (module.global_variables.iter())
                    .filter(|(h, _)| !uses[*h].is_empty())
                    .filter_map(|(_, g)| {
                        let b = g.binding.as_ref()?;
                        Some(Slot {
                            name: g.name.clone().unwrap_or_default(),
                            group: b.group,
                            binding: b.binding,
                        })
                    })
                    .collect();
                (ep.name.clone(), slots)
            })
            .collect();
        let names = (module.global_variables.iter())
            .filter(|(_, g)| g.binding.is_some())
            .filter_map(|(_, g)| g.name.clone())
            .collect();
        let text = composed.for_backend(self.adapter_details().backend);
        let raw = self.scoped(&format!("render module `{name}`"), || {
            self.device()
                .create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some(&name),
                    source: wgpu::ShaderSource::Wgsl(text),
                })
        })?;
        Ok(RenderModule {
            gpu: self.clone(),
            name,
            raw,
            entry_points,
            names,
            dropping: None,
        })
    }
}

impl RenderModule {
    /// The source's path (or label), as messages name it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The wgpu module, for the stages of a [`wgpu::RenderPipelineDescriptor`].
    pub fn raw(&self) -> &wgpu::ShaderModule {
        &self.raw
    }

    /// A render pipeline of this module, as `desc` says, made under Shoal's GL turn. Its stages
    /// must use [`raw`](Self::raw) (another module is [`Error::InvalidParameter`]); wgpu's
    /// refusal (an entry point the module lacks, a target format it cannot blend) is
    /// [`Error::Wgpu`].
    pub fn pipeline(&self, desc: &wgpu::RenderPipelineDescriptor<'_>) -> Result<RenderPipeline> {
        let label = desc.label.unwrap_or(&self.name).to_string();
        let stages = [
            Some((desc.vertex.module, desc.vertex.entry_point)),
            desc.fragment.as_ref().map(|f| (f.module, f.entry_point)),
        ];
        let mut slots: Vec<Slot> = Vec::new();
        for (module, entry) in stages.into_iter().flatten() {
            if *module != self.raw {
                return Err(Error::InvalidParameter {
                    kernel: label,
                    parameter: "module".into(),
                    value: "another wgpu module".into(),
                    rule: format!("the stages use `{}`'s own `raw()`", self.name),
                });
            }
            // Checked here rather than left to wgpu: in the browser its refusal arrives only
            // later, with another submission's wait.
            if let Some(e) = entry
                && !self.entry_points.iter().any(|(n, _)| n == e)
            {
                let names: Vec<&str> = self.entry_points.iter().map(|(n, _)| n.as_str()).collect();
                return Err(Error::InvalidParameter {
                    kernel: label,
                    parameter: "entry_point".into(),
                    value: e.into(),
                    rule: format!("an entry point of `{}`: {}", self.name, names.join(", ")),
                });
            }
            let used = self
                .entry_points
                .iter()
                .filter(|(n, _)| entry.is_none_or(|e| e == n));
            for slot in used.flat_map(|(_, s)| s) {
                if !slots.iter().any(|s| s.name == slot.name) {
                    slots.push(slot.clone());
                }
            }
        }
        let raw = self.gpu.scoped(&format!("render pipeline `{label}`"), || {
            self.gpu.device().create_render_pipeline(desc)
        })?;
        Ok(RenderPipeline {
            gpu: self.gpu.clone(),
            label,
            raw,
            slots,
            names: self.names.clone(),
            dropping: None,
        })
    }
}

/// A render pipeline made by [`RenderModule::pipeline`]: binds its resources by name
/// ([`bind`](Self::bind)) and records a draw into a pass. Destroyed under Shoal's GL turn.
pub struct RenderPipeline {
    gpu: Gpu,
    label: String,
    raw: wgpu::RenderPipeline,
    /// The bindings its stages use.
    slots: Vec<Slot>,
    /// The name of every binding its module declares.
    names: Vec<String>,
    /// Held while the fields above drop, under the GL turn. Declared last.
    dropping: Option<Turn>,
}

impl Drop for RenderPipeline {
    fn drop(&mut self) {
        self.dropping = Some(self.gpu.turn());
    }
}

impl std::fmt::Debug for RenderPipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RenderPipeline")
            .field("label", &self.label)
            .finish()
    }
}

impl RenderPipeline {
    /// The wgpu pipeline.
    pub fn raw(&self) -> &wgpu::RenderPipeline {
        &self.raw
    }

    /// A draw of this pipeline with nothing bound yet.
    pub fn draw(&self) -> Draw<'_> {
        Draw {
            pipeline: self,
            bound: Vec::new(),
            vertex_buffers: Vec::new(),
        }
    }

    /// A draw with `resource` bound to the WGSL variable `name` (see [`Draw::bind`]).
    pub fn bind<'a>(&'a self, name: &str, resource: &'a (impl Bindable + ?Sized)) -> Draw<'a> {
        self.draw().bind(name, resource)
    }
}

/// One draw of a [`RenderPipeline`]: its resources by name and its vertex buffers, recorded
/// into a render pass by [`Draw::record`].
pub struct Draw<'a> {
    pipeline: &'a RenderPipeline,
    bound: Vec<(String, Resource<'a>)>,
    vertex_buffers: Vec<(u32, Resource<'a>)>,
}

impl<'a> Draw<'a> {
    /// Binds `resource` (a buffer, image or sampler) to the WGSL variable `name`. A name the
    /// pipeline's module lacks is [`Error::UnknownBinding`] when recorded; one only another
    /// entry point of the module uses is ignored.
    pub fn bind(mut self, name: &str, resource: &'a (impl Bindable + ?Sized)) -> Self {
        self.bound.retain(|(n, _)| n != name);
        self.bound.push((name.to_string(), resource.resource()));
        self
    }

    /// Draws vertex buffer `slot` from `buffer` (made with [`Usage::VERTEX`](crate::Usage)).
    pub fn vertices(mut self, slot: u32, buffer: &'a (impl Bindable + ?Sized)) -> Self {
        self.vertex_buffers.push((slot, buffer.resource()));
        self
    }

    /// Checks the bindings (each binding the pipeline's stages use is bound, each name bound
    /// is the module's, every resource is of this `Gpu`) and records the pipeline, its bind
    /// groups, its vertex buffers and the draw of `vertices` x `instances` into `pass`. An empty
    /// range records nothing. Nothing is recorded when a check fails.
    pub fn record(
        self,
        pass: &mut wgpu::RenderPass<'_>,
        vertices: Range<u32>,
        instances: Range<u32>,
    ) -> Result<()> {
        let p = self.pipeline;
        let used = |name: &str| p.slots.iter().any(|s| s.name == name);
        let unknown = (self.bound.iter()).find(|(n, _)| !used(n) && !p.names.contains(n));
        if let Some((name, _)) = unknown {
            return Err(Error::UnknownBinding {
                kernel: p.label.clone(),
                binding: name.clone(),
                available: p.names.clone(),
            });
        }
        let mut entries: Vec<(u32, wgpu::BindGroupEntry<'_>)> = Vec::new();
        for slot in &p.slots {
            let Some((_, resource)) = self.bound.iter().find(|(n, _)| *n == slot.name) else {
                return Err(Error::Unbound {
                    kernel: p.label.clone(),
                    binding: slot.name.clone(),
                    group: slot.group,
                    index: slot.binding,
                });
            };
            p.gpu.check_owner(
                || format!("render pipeline `{}`, binding `{}`", p.label, slot.name),
                resource.gpu(),
            )?;
            entries.push((
                slot.group,
                wgpu::BindGroupEntry {
                    binding: slot.binding,
                    resource: binding_resource(resource),
                },
            ));
        }
        for (slot, buffer) in &self.vertex_buffers {
            p.gpu.check_owner(
                || format!("render pipeline `{}`, vertex buffer {slot}", p.label),
                buffer.gpu(),
            )?;
        }
        if vertices.is_empty() || instances.is_empty() {
            return Ok(());
        }
        let groups = p.slots.iter().map(|s| s.group + 1).max().unwrap_or(0);
        let bind_groups =
            p.gpu
                .scoped(&format!("render pipeline `{}`: binding", p.label), || {
                    (0..groups)
                        .map(|g| {
                            let entries: Vec<_> = (entries.iter())
                                .filter(|(group, _)| *group == g)
                                .map(|(_, e)| e.clone())
                                .collect();
                            p.gpu
                                .device()
                                .create_bind_group(&wgpu::BindGroupDescriptor {
                                    label: Some(&p.label),
                                    layout: &p.raw.get_bind_group_layout(g),
                                    entries: &entries,
                                })
                        })
                        .collect::<Vec<_>>()
                })?;
        pass.set_pipeline(&p.raw);
        for (g, group) in bind_groups.iter().enumerate() {
            pass.set_bind_group(g as u32, group, &[]);
        }
        for (slot, buffer) in &self.vertex_buffers {
            if let Resource::Buffer(b) = buffer {
                pass.set_vertex_buffer(*slot, b.raw.slice(b.offset..b.offset + b.bytes));
            }
        }
        pass.draw(vertices, instances);
        // The pass holds the groups now; dropping the handles touches wgpu's GL context lock.
        let _turn = p.gpu.turn();
        drop(bind_groups);
        Ok(())
    }
}

/// The wgpu binding of a Shoal resource.
fn binding_resource<'r>(resource: &Resource<'r>) -> wgpu::BindingResource<'r> {
    match *resource {
        Resource::Buffer(b) => wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: b.raw,
            offset: b.offset,
            size: std::num::NonZeroU64::new(b.bytes),
        }),
        Resource::Texture(t) => wgpu::BindingResource::TextureView(t.view),
        Resource::Sampler(s) => wgpu::BindingResource::Sampler(s.raw),
    }
}

impl Commands {
    /// Begins a render pass in this batch as `desc` says. In a [`profiled`](Commands::profiled)
    /// batch the pass is timed like a dispatch, under `desc`'s label (within the batch's
    /// [`labelled`](Commands::labelled) scope), unless `desc` brings timestamp writes of its own.
    pub fn render_pass(&mut self, desc: &wgpu::RenderPassDescriptor<'_>) -> wgpu::RenderPass<'_> {
        let label = crate::labels::scoped(&self.scope, desc.label.unwrap_or("render pass"));
        let (encoder, profiler, gpu) = self.parts();
        let timestamp_writes = match (&desc.timestamp_writes, profiler) {
            (None, Some(p)) => p
                .next(gpu, &label)
                .map(|(q, at)| wgpu::RenderPassTimestampWrites {
                    query_set: q,
                    beginning_of_pass_write_index: Some(at),
                    end_of_pass_write_index: Some(at + 1),
                }),
            (theirs, _) => theirs.clone(),
        };
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            timestamp_writes,
            ..desc.clone()
        })
    }
}
