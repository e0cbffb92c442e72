//! [`Kernel`]: a WGSL compute entry point, reflected once, its layouts derived and its pipeline
//! built, checked against the device before anything is created.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::binding::{self, Resource};
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::reflect::{self, BindingKind, Reflection};
use crate::source::{Composed, Source};

/// Bind groups kept per kernel, keyed by the identities of the bound resources.
const BIND_CACHE: usize = 64;

/// A compute kernel: one entry point of a WGSL module, ready to dispatch.
///
/// Cheap to clone: clones share the pipeline and the bind-group cache.
#[derive(Clone)]
pub struct Kernel {
    pub(crate) inner: Arc<KernelInner>,
}

pub(crate) struct KernelInner {
    pub(crate) gpu: Gpu,
    pub(crate) name: String,
    pub(crate) reflection: Reflection,
    pub(crate) pipeline: wgpu::ComputePipeline,
    /// One layout per group index, `0..=max group` (empty where the kernel binds nothing).
    pub(crate) layouts: Vec<wgpu::BindGroupLayout>,
    pub(crate) cache: Mutex<HashMap<Vec<u64>, Arc<Vec<wgpu::BindGroup>>>>,
}

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel").field("name", &self.inner.name).field("reflection", &self.inner.reflection).finish()
    }
}

/// Options for creating a kernel: entry point, override constants, extra snippets.
#[derive(Debug, Clone)]
pub struct KernelBuilder {
    gpu: Gpu,
    source: Source,
    entry: Option<String>,
    constants: Vec<(String, f64)>,
    snippets: Vec<(String, String)>,
}

impl KernelBuilder {
    /// The entry point to use (needed when the module has several compute entry points).
    pub fn entry(mut self, name: &str) -> Self {
        self.entry = Some(name.to_string());
        self
    }

    /// Sets an `override` constant, e.g. the work-group size planned from the device's limits.
    pub fn constant(mut self, name: &str, value: impl Into<f64>) -> Self {
        self.constants.retain(|(n, _)| n != name);
        self.constants.push((name.to_string(), value.into()));
        self
    }

    /// Makes a snippet available to `#import name` in this kernel.
    pub fn snippet(mut self, name: &str, wgsl: &str) -> Self {
        self.snippets.push((name.to_string(), wgsl.to_string()));
        self
    }

    /// Parses, validates and reflects the WGSL, checks it against the device and builds the pipeline.
    pub fn build(self) -> Result<Kernel> {
        let gpu = self.gpu;
        let composed = Composed::new(&self.source, &self.snippets)?;
        let base = self.source.path().to_string();
        let reflection = reflect::reflect(&composed, self.entry.as_deref(), &self.constants)
            .map_err(|e| e.into_error(&base))?;
        let name = format!("{base}:{}", reflection.entry_point);
        check_device(&gpu, &name, &reflection)?;

        let filtering = reflection.bindings.iter().any(|b| b.kind == BindingKind::Sampler { comparison: false });
        let groups = reflection.bindings.iter().map(|b| b.group + 1).max().unwrap_or(0);
        let device = gpu.device();
        let text = composed.for_backend(gpu.adapter_details().backend);
        let constants: Vec<(&str, f64)> = self.constants.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        let (pipeline, layouts) = gpu.scoped(&format!("kernel `{name}`: creating the pipeline"), || {
            let layouts: Vec<wgpu::BindGroupLayout> = (0..groups)
                .map(|g| {
                    let entries: Vec<_> = reflection
                        .bindings
                        .iter()
                        .filter(|b| b.group == g)
                        .filter_map(|b| binding::layout_entry(b, filtering))
                        .collect();
                    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(&name), entries: &entries })
                })
                .collect();
            let layout_refs: Vec<Option<&wgpu::BindGroupLayout>> = layouts.iter().map(Some).collect();
            let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(&name),
                bind_group_layouts: &layout_refs,
                immediate_size: 0,
            });
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(&name),
                source: wgpu::ShaderSource::Wgsl(text.clone()),
            });
            let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(&name),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(&reflection.entry_point),
                compilation_options: wgpu::PipelineCompilationOptions { constants: &constants, ..Default::default() },
                cache: None,
            });
            (pipeline, layouts)
        })?;
        Ok(Kernel {
            inner: Arc::new(KernelInner { gpu, name, reflection, pipeline, layouts, cache: Mutex::new(HashMap::new()) }),
        })
    }
}

/// The checks the specification puts on a program before it runs: work-group size, shared
/// memory, and the features it needs.
fn check_device(gpu: &Gpu, name: &str, r: &Reflection) -> Result<()> {
    let limits = gpu.limits();
    for (axis, (&size, &limit)) in r.workgroup_size.iter().zip(&limits.max_compute_work_group_size).enumerate() {
        if size > limit {
            return Err(Error::WorkgroupTooLarge {
                kernel: name.to_string(),
                size: r.workgroup_size,
                invocations: r.workgroup_invocations(),
                limit_name: ["MAX_COMPUTE_WORK_GROUP_SIZE.x", "MAX_COMPUTE_WORK_GROUP_SIZE.y", "MAX_COMPUTE_WORK_GROUP_SIZE.z"][axis],
                limit,
            });
        }
    }
    if r.workgroup_invocations() > limits.max_compute_work_group_invocations {
        return Err(Error::WorkgroupTooLarge {
            kernel: name.to_string(),
            size: r.workgroup_size,
            invocations: r.workgroup_invocations(),
            limit_name: "MAX_COMPUTE_WORK_GROUP_INVOCATIONS",
            limit: limits.max_compute_work_group_invocations,
        });
    }
    if r.workgroup_memory > limits.max_compute_shared_memory_size {
        return Err(Error::WorkgroupMemory {
            kernel: name.to_string(),
            bytes: r.workgroup_memory,
            limit: limits.max_compute_shared_memory_size,
        });
    }
    let features = gpu.features();
    let needs = [
        (r.needs.int64_atomics, wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS, "SHADER_INT64_ATOMIC_ALL_OPS (64-bit atomics)"),
        (r.needs.int64, wgpu::Features::SHADER_INT64, "SHADER_INT64"),
        (r.needs.float32_atomics, wgpu::Features::SHADER_FLOAT32_ATOMIC, "SHADER_FLOAT32_ATOMIC"),
        (r.needs.f16, wgpu::Features::SHADER_F16, "SHADER_F16"),
        (r.needs.subgroups, wgpu::Features::SUBGROUP, "SUBGROUP"),
    ];
    for (needed, feature, label) in needs {
        if needed && !features.contains(feature) {
            return Err(Error::MissingFeature {
                kernel: name.to_string(),
                feature: label.to_string(),
                adapter: gpu.adapter_details().name.clone(),
            });
        }
    }
    for b in &r.bindings {
        if let BindingKind::StorageTexture { format, .. } = b.kind
            && binding::texture_format(format).is_none() {
                return Err(Error::BindingKind {
                    kernel: name.to_string(),
                    binding: b.name.clone(),
                    expected: "a storage-texture format Shoal maps to wgpu".into(),
                    got: format!("{format:?}"),
                });
            }
    }
    Ok(())
}

impl Gpu {
    /// Creates a kernel from WGSL with its only compute entry point and default overrides.
    pub fn kernel(&self, source: impl Into<Source>) -> Result<Kernel> {
        self.kernel_builder(source).build()
    }

    /// Starts a kernel with options (entry point, override constants).
    pub fn kernel_builder(&self, source: impl Into<Source>) -> KernelBuilder {
        KernelBuilder {
            gpu: self.clone(),
            source: source.into(),
            entry: None,
            constants: Vec::new(),
            snippets: Vec::new(),
        }
    }
}

impl Kernel {
    /// `file:entry_point`, as messages name the kernel.
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// What naga found in the WGSL.
    pub fn reflection(&self) -> &Reflection {
        &self.inner.reflection
    }

    /// `@workgroup_size`, after override constants.
    pub fn workgroup_size(&self) -> [u32; 3] {
        self.inner.reflection.workgroup_size
    }

    /// The device the kernel runs on.
    pub fn gpu(&self) -> &Gpu {
        &self.inner.gpu
    }

    /// The wgpu pipeline, for callers that encode by hand.
    pub fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.inner.pipeline
    }

    /// Bind groups for `resources` (one per reflected binding, in order), from the cache when the
    /// same resources were bound before.
    pub(crate) fn bind_groups(&self, resources: &[Resource<'_>]) -> Result<Arc<Vec<wgpu::BindGroup>>> {
        let key: Vec<u64> = resources.iter().map(Resource::id).collect();
        if let Some(found) = self.inner.cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
            return Ok(found);
        }
        let r = &self.inner.reflection;
        let gpu = &self.inner.gpu;
        let groups = gpu.scoped(&format!("kernel `{}`: creating bind groups", self.name()), || {
            self.inner
                .layouts
                .iter()
                .enumerate()
                .map(|(g, layout)| {
                    let entries: Vec<wgpu::BindGroupEntry<'_>> = r
                        .bindings
                        .iter()
                        .zip(resources)
                        .filter(|(b, _)| b.group == g as u32)
                        .map(|(b, res)| wgpu::BindGroupEntry { binding: b.binding, resource: res.binding_resource() })
                        .collect();
                    gpu.device().create_bind_group(&wgpu::BindGroupDescriptor { label: Some(self.name()), layout, entries: &entries })
                })
                .collect::<Vec<_>>()
        })?;
        let groups = Arc::new(groups);
        if let Ok(mut cache) = self.inner.cache.lock() {
            if cache.len() >= BIND_CACHE {
                cache.clear();
            }
            cache.insert(key, Arc::clone(&groups));
        }
        Ok(groups)
    }
}
