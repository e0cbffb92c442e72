//! [`Kernel`]: a WGSL compute entry point, reflected once, its layouts derived and its pipeline
//! built, checked against the device before anything is created.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::bind_cache::{BindCache, Groups};
use crate::binding::{self, Resource};
use crate::error::Result;
use crate::gpu::Gpu;
use crate::immediates;
use crate::kernel_checks;
use crate::printf::{self, PrintRing};
use crate::reflect::{self, BindingInfo, BindingKind, Reflection};
use crate::source::{Composed, Source, Wgsl};
use crate::zero_init;

/// A compute kernel: one entry point of a WGSL module, ready to dispatch.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// let gpu = shoal::Gpu::blocking()?;
/// let fill = shoal::Source::new("fill.wgsl", "
///     override VALUE: u32 = 1u;
///     @group(0) @binding(0) var<storage, read_write> out: array<u32>;
///     @compute @workgroup_size(64)
///     fn fill(@builtin(global_invocation_id) id: vec3<u32>) {
///         if id.x < arrayLength(&out) { out[id.x] = VALUE; }
///     }");
/// let sevens = gpu.kernel_builder(fill).constant("VALUE", 7).build()?;
/// assert_eq!(sevens.workgroup_size(), [64, 1, 1]);
/// assert_eq!(sevens.reflection().bindings[0].name, "out"); // reflected, not declared
/// let out = gpu.buffer_zeroed::<u32>(3)?;
/// sevens.bind("out", &out).invocations(3).run()?;
/// assert_eq!(out.read_blocking()?, [7, 7, 7]);
/// # Ok(()) }
/// ```
///
/// Cheap to clone: clones share the pipeline and the bind-group cache.
///
/// The cache keeps the bind groups of the last 64 sets of resources bound, so binding the same
/// buffers again costs a hash lookup. It never keeps a resource alive: when the last handle of a
/// buffer (the [`Buffer`](crate::Buffer), its clones and its views), an image or a sampler is
/// dropped, the bind groups that bind it leave every kernel's cache, and its memory is freed
/// once the GPU has finished the work submitted with it.
#[derive(Clone)]
pub struct Kernel {
    pub(crate) inner: Arc<KernelInner>,
}

pub(crate) struct KernelInner {
    pub(crate) gpu: Gpu,
    pub(crate) name: String,
    pub(crate) reflection: Reflection,
    /// The pipeline in which every sampler filters: built with the kernel, used by most dispatches.
    pub(crate) default: Arc<Variant>,
    /// Pipelines for other filtering choices, keyed by [`Variant`] mask, built on first use.
    variants: Mutex<HashMap<u64, Arc<Variant>>>,
    /// What the pipelines are built from, to build variants later.
    shader: Shader,
    /// Bind groups by the identities of the bound resources (`bind_cache.rs`).
    cache: Arc<BindCache>,
    /// The debug ring of a kernel that imports `shoal::printf`, bound at every dispatch.
    pub(crate) printf: Option<PrintRing>,
    /// `file:line:column` of each printf call site (see `source.rs`).
    pub(crate) print_sites: Vec<String>,
    /// The composed WGSL before the backend's changes ([`Kernel::wgsl`]).
    wgsl: Wgsl,
    /// The binding that holds the immediate data where the device does not take it as such.
    pub(crate) immediates: Option<immediates::Owned>,
    /// Held while the fields above drop: on GL, destroying a pipeline takes wgpu's context
    /// lock, so it waits for the GL turn like every other call (`wait.rs`). Declared last, so
    /// it is released last.
    dropping: Option<crate::turn::Turn>,
}

impl Drop for KernelInner {
    fn drop(&mut self) {
        self.dropping = Some(self.gpu.turn());
    }
}

/// A pipeline and its derived layouts for one choice of filtering.
///
/// Whether a float texture's layout is filterable depends on the sampler bound with it, which
/// only the dispatch knows: layouts are derived at kernel creation for filtering samplers (the
/// common case: linear sampling of `rgba8unorm`), and a dispatch that binds a non-filtering
/// sampler with a texture whose format cannot be filtered (`r32float` without
/// `FLOAT32_FILTERABLE`) gets a variant in which those samplers and their textures are
/// non-filtering. The mask has bit `i` set for binding `i` (a sampler) bound non-filtering.
pub(crate) struct Variant {
    pub(crate) pipeline: wgpu::ComputePipeline,
    /// One layout per group index, `0..=max group` (empty where the kernel binds nothing).
    pub(crate) layouts: Vec<wgpu::BindGroupLayout>,
}

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kernel")
            .field("name", &self.inner.name)
            .field("reflection", &self.inner.reflection)
            .finish()
    }
}

/// Options for creating a kernel: entry point, override constants, printf capacity. (Snippets
/// and `#block` substitutions belong to the [`Source`]: [`Source::snippet`], [`Source::block`].)
#[derive(Debug, Clone)]
pub struct KernelBuilder {
    gpu: Gpu,
    source: Source,
    entry: Option<String>,
    constants: Vec<(String, f64)>,
    printf_capacity: u32,
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

    /// Records the kernel's printf ring holds (`#import shoal::printf`); the default is
    /// [`DEFAULT_PRINTF_CAPACITY`](crate::DEFAULT_PRINTF_CAPACITY).
    pub fn printf_capacity(mut self, records: u32) -> Self {
        self.printf_capacity = records;
        self
    }

    /// Parses, validates and reflects the WGSL, checks it against the device and builds the pipeline.
    pub fn build(self) -> Result<Kernel> {
        let path = self.source.path().to_string();
        self.build_logged()
            .inspect_err(|e| log::debug!("shoal: kernel {path} not built: {e}"))
    }

    /// [`KernelBuilder::build`], its error not yet logged.
    fn build_logged(self) -> Result<Kernel> {
        let gpu = self.gpu;
        let composed = Composed::new(&self.source)?;
        let wgsl = Wgsl::from(&composed);
        let base = self.source.path().to_string();
        let entry = self.entry.as_deref();
        let explain =
            |e, composed: &Composed| self.source.explain(e, composed, entry, &self.constants);
        let reflected = reflect::reflect_module(&composed, entry, &self.constants)
            .map_err(|e| explain(e.into_error(&base), &composed))?;
        let name = format!("{base}:{}", reflected.0.entry_point);
        // Where the device does not take the immediate data as such, a binding Shoal owns.
        let (composed, mut reflection, resolved, immediates) =
            immediates::plan(&gpu, &name, composed, &self.constants, reflected)?;
        // From here on, bindings go by the names the kernel is bound by (`source/notes.rs`).
        self.source.rename_bindings(&mut reflection);
        kernel_checks::check_device(&gpu, &name, &reflection).map_err(|e| explain(e, &composed))?;
        #[cfg(not(target_arch = "wasm32"))]
        crate::portable::warn_unportable(
            &name,
            &reflection,
            &gpu.device().limits(),
            !self.constants.is_empty(),
        );

        let printf = match reflection
            .bindings
            .iter()
            .any(|b| b.name == printf::BINDING)
        {
            true => Some(PrintRing::new(&gpu, &name, self.printf_capacity)?),
            false => None,
        };
        let backend = gpu.adapter_details().backend;
        let shader = match backend {
            wgpu::Backend::Gl => {
                zero_init::zeroed_by_work_group(&resolved, &reflection.entry_point)
            }
            _ => None,
        }
        .map(|m| Shader::Zeroed(Box::new(m)))
        .unwrap_or_else(|| Shader::Wgsl {
            text: composed.for_backend(backend).into_owned(),
            constants: self.constants,
        });
        let default = Arc::new(build_variant(&gpu, &name, &reflection, &shader, 0)?);
        log::debug!(
            "shoal: kernel `{name}` built: {} bytes of WGSL composed, work group {:?}, {} \
             bindings{}",
            composed.text.len(),
            reflection.workgroup_size,
            reflection.bindings.len(),
            match shader {
                Shader::Zeroed(_) => ", shared memory zeroed by the work group (GL)",
                Shader::Wgsl { .. } => "",
            }
        );
        let cache = BindCache::new(gpu.turn_lock());
        Ok(Kernel {
            inner: Arc::new(KernelInner {
                gpu,
                name,
                reflection,
                default,
                variants: Mutex::new(HashMap::new()),
                shader,
                cache,
                printf,
                print_sites: composed.print_sites,
                wgsl,
                immediates,
                dropping: None,
            }),
        })
    }
}

/// What wgpu compiles for a kernel.
enum Shader {
    /// The WGSL for this backend, and the override constants to apply.
    Wgsl {
        text: String,
        constants: Vec<(String, f64)>,
    },
    /// On GL, the module with its overrides applied and its workgroup memory zeroed by the
    /// whole work group (`zero_init.rs`), built with wgpu's own zeroing off.
    Zeroed(Box<naga::Module>),
}

/// Builds the layouts and the pipeline with the samplers of `mask` non-filtering (see [`Variant`]).
fn build_variant(
    gpu: &Gpu,
    name: &str,
    r: &Reflection,
    shader: &Shader,
    mask: u64,
) -> Result<Variant> {
    let nonfiltering = |i: usize| i < 64 && mask & (1 << i) != 0;
    let index = |n: &str| r.bindings.iter().position(|b| b.name == n);
    let filtering = |i: usize, b: &BindingInfo| match b.kind {
        BindingKind::Sampler { .. } => !nonfiltering(i),
        // A texture is filterable where some filtering sampler samples it; one that is only
        // loaded takes every float format.
        BindingKind::Texture { .. } => r
            .sampled_with
            .iter()
            .filter(|(t, _)| *t == b.name)
            .any(|(_, s)| index(s).is_some_and(|j| !nonfiltering(j))),
        _ => false,
    };
    let groups = r.bindings.iter().map(|b| b.group + 1).max().unwrap_or(0);
    let device = gpu.device();
    let (source, constants, zero_initialize_workgroup_memory) = match shader {
        Shader::Wgsl { text, constants } => (
            wgpu::ShaderSource::Wgsl(text.as_str().into()),
            constants
                .iter()
                .map(|(k, v)| (k.as_str(), *v))
                .collect::<Vec<_>>(),
            true,
        ),
        Shader::Zeroed(module) => (
            wgpu::ShaderSource::Naga(std::borrow::Cow::Owned((**module).clone())),
            Vec::new(),
            false,
        ),
    };
    gpu.scoped(&format!("kernel `{name}`: creating the pipeline"), || {
        let layouts: Vec<wgpu::BindGroupLayout> = (0..groups)
            .map(|g| {
                let entries: Vec<_> = r
                    .bindings
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| b.group == g)
                    .filter_map(|(i, b)| binding::layout_entry(b, filtering(i, b)))
                    .collect();
                device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                    label: Some(name),
                    entries: &entries,
                })
            })
            .collect();
        let layout_refs: Vec<Option<&wgpu::BindGroupLayout>> = layouts.iter().map(Some).collect();
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(name),
            bind_group_layouts: &layout_refs,
            // Set where the device takes the block as immediate data (`immediates/rewrite.rs`).
            immediate_size: r
                .immediates
                .as_ref()
                .filter(|i| i.binding.is_none())
                .map_or(0, |i| i.size()),
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(name),
            source,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some(name),
            layout: Some(&pipeline_layout),
            module: &module,
            entry_point: Some(&r.entry_point),
            compilation_options: wgpu::PipelineCompilationOptions {
                constants: &constants,
                zero_initialize_workgroup_memory,
            },
            cache: None,
        });
        Variant { pipeline, layouts }
    })
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
            printf_capacity: printf::DEFAULT_PRINTF_CAPACITY,
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

    /// The WGSL this kernel was built from, as Shoal composed it — imports resolved, blocks
    /// replaced — with the file and line each line came from, before this device's backend
    /// changed it ([`Wgsl`] lists the changes: immediate data moved to a binding, override
    /// constants, `enable subgroups;` in the browser, GL's module with its shared memory zeroed
    /// by the work group).
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// let gpu = shoal::Gpu::blocking()?;
    /// let source = shoal::Source::new("one.wgsl", "
    /// @group(0) @binding(0) var<storage, read_write> out: array<u32>;
    /// // #block value
    /// // #end value
    /// @compute @workgroup_size(1) fn main() { out[0] = VALUE; }
    /// ").block("value", "const VALUE = 7u;");
    /// let kernel = gpu.kernel(source)?;
    /// assert_eq!(kernel.wgsl().line(4), Some("const VALUE = 7u;"));
    /// assert_eq!(kernel.wgsl().origin(4), Some(("<block value of one.wgsl>", 1)));
    /// // The region's one line became a line of its own: what follows maps back past it.
    /// assert_eq!(kernel.wgsl().origin(6), Some(("one.wgsl", 5)));
    /// # Ok(()) }
    /// ```
    pub fn wgsl(&self) -> &Wgsl {
        &self.inner.wgsl
    }

    /// The device the kernel runs on.
    pub fn gpu(&self) -> &Gpu {
        &self.inner.gpu
    }

    /// The wgpu pipeline (the one whose samplers all filter), for callers that encode by hand.
    pub fn pipeline(&self) -> &wgpu::ComputePipeline {
        &self.inner.default.pipeline
    }

    /// The pipeline and layouts for filtering choice `mask` (0: every sampler filters).
    pub(crate) fn variant(&self, mask: u64) -> Result<Arc<Variant>> {
        if mask == 0 {
            return Ok(Arc::clone(&self.inner.default));
        }
        if let Some(found) = self
            .inner
            .variants
            .lock()
            .ok()
            .and_then(|v| v.get(&mask).cloned())
        {
            return Ok(found);
        }
        let i = &self.inner;
        let built = Arc::new(build_variant(
            &i.gpu,
            &i.name,
            &i.reflection,
            &i.shader,
            mask,
        )?);
        if let Ok(mut v) = i.variants.lock() {
            v.insert(mask, Arc::clone(&built));
        }
        Ok(built)
    }

    /// Bind groups for `resources` (one per reflected binding, in order) in `variant`'s layouts,
    /// from the cache when the same resources were bound before.
    pub(crate) fn bind_groups(
        &self,
        variant: &Variant,
        mask: u64,
        resources: &[Resource<'_>],
    ) -> Result<Groups> {
        // On GL, a bind group the cache lets go of may hold the last handle of a buffer, whose
        // destruction takes wgpu's context lock: the whole lookup takes the turn (`wait.rs`).
        let _turn = self.inner.gpu.turn();
        // A buffer's range is in the key too, and the wgpu object bound (hashed): a custom
        // `Bindable` may bind other bytes, another view of a texture or a buffer it replaced
        // under one identity (Shoal's slices have identities of their own). A cached group
        // holds its objects, so their hashes stay theirs while it is kept.
        let mut key: Vec<u64> = Vec::with_capacity(4 * resources.len() + 1);
        for resource in resources {
            key.extend([resource.id(), resource.handle_hash()]);
            if let Resource::Buffer(b) = resource {
                key.extend([b.offset, b.bytes]);
            }
        }
        key.push(mask);
        if let Some(found) = self.inner.cache.get(&key) {
            return Ok(found);
        }
        let r = &self.inner.reflection;
        let gpu = &self.inner.gpu;
        let groups = gpu.scoped(
            &format!("kernel `{}`: creating bind groups", self.name()),
            || {
                variant
                    .layouts
                    .iter()
                    .enumerate()
                    .map(|(g, layout)| {
                        let entries: Vec<wgpu::BindGroupEntry<'_>> = r
                            .bindings
                            .iter()
                            .zip(resources)
                            .filter(|(b, _)| b.group == g as u32)
                            .map(|(b, res)| wgpu::BindGroupEntry {
                                binding: b.binding,
                                resource: res.binding_resource(),
                            })
                            .collect();
                        gpu.device().create_bind_group(&wgpu::BindGroupDescriptor {
                            label: Some(self.name()),
                            layout,
                            entries: &entries,
                        })
                    })
                    .collect::<Vec<_>>()
            },
        )?;
        let groups = Arc::new(groups);
        self.inner.cache.insert(key, Arc::clone(&groups), resources);
        Ok(groups)
    }
}
