//! What a kernel is, read from its WGSL by naga: entry point, work-group size (after override
//! constants), workgroup-memory bytes, bindings with their kinds and layouts, and the device
//! features it needs.
//!
//! This module depends on naga only, not on wgpu, so a build script or a checker (`cargo xtask
//! check-wgsl`) can use it without a device.

use naga::valid::{Capabilities, ValidationFlags, Validator};
use naga::{AddressSpace, ImageClass, ImageDimension, ScalarKind, TypeInner};

use crate::source::Composed;

/// How a binding is used, as the WGSL declares it.
#[derive(Debug, Clone, PartialEq)]
pub enum BindingKind {
    /// `var<storage, read>` or `var<storage, read_write>`.
    Storage {
        /// `read_write` (or atomics).
        writable: bool,
    },
    /// `var<uniform>`.
    Uniform,
    /// `texture_storage_*<format, access>`.
    StorageTexture {
        /// The texel format.
        format: naga::StorageFormat,
        /// Read, write or both.
        access: naga::StorageAccess,
        /// 1D, 2D, 3D or cube.
        dim: ImageDimension,
        /// `_array`.
        arrayed: bool,
    },
    /// `texture_*` sampled (or loaded) textures.
    Texture {
        /// What the texels hold (float, sint, uint).
        kind: ScalarKind,
        /// A depth texture.
        depth: bool,
        /// Multisampled.
        multisampled: bool,
        /// 1D, 2D, 3D or cube.
        dim: ImageDimension,
        /// `_array`.
        arrayed: bool,
    },
    /// `sampler` or `sampler_comparison`.
    Sampler {
        /// `sampler_comparison`.
        comparison: bool,
    },
}

impl BindingKind {
    /// Describes the kind as the WGSL spells it, for messages.
    pub fn describe(&self) -> String {
        match self {
            Self::Storage { writable: true } => "var<storage, read_write>".into(),
            Self::Storage { writable: false } => "var<storage, read>".into(),
            Self::Uniform => "var<uniform>".into(),
            Self::StorageTexture {
                format,
                access,
                dim,
                arrayed,
            } => {
                let a = match (
                    access.contains(naga::StorageAccess::LOAD),
                    access.contains(naga::StorageAccess::STORE),
                ) {
                    (true, true) => "read_write",
                    (true, false) => "read",
                    _ => "write",
                };
                let format = format!("{format:?}").to_ascii_lowercase();
                format!(
                    "texture_storage_{}<{format}, {a}>",
                    dim_name(*dim, *arrayed)
                )
            }
            Self::Texture {
                kind,
                depth: true,
                dim,
                arrayed,
                ..
            } => {
                format!("texture_depth_{} ({kind:?})", dim_name(*dim, *arrayed))
            }
            Self::Texture {
                kind,
                multisampled,
                dim,
                arrayed,
                ..
            } => {
                let ms = if *multisampled { "multisampled_" } else { "" };
                let scalar = match kind {
                    ScalarKind::Sint => "i32",
                    ScalarKind::Uint => "u32",
                    _ => "f32",
                };
                format!("texture_{ms}{}<{scalar}>", dim_name(*dim, *arrayed))
            }
            Self::Sampler { comparison: true } => "sampler_comparison".into(),
            Self::Sampler { comparison: false } => "sampler".into(),
        }
    }
}

/// `2d`, `2d_array`, `3d`, `cube`...: how WGSL names a texture's dimension.
pub(crate) fn dim_name(dim: ImageDimension, arrayed: bool) -> String {
    let d = match dim {
        ImageDimension::D1 => "1d",
        ImageDimension::D2 => "2d",
        ImageDimension::D3 => "3d",
        ImageDimension::Cube => "cube",
    };
    if arrayed {
        format!("{d}_array")
    } else {
        d.to_string()
    }
}

/// The data layout of a buffer binding.
#[derive(Debug, Clone, PartialEq)]
pub struct BufferShape {
    /// The WGSL type, e.g. `array<Data>`.
    pub wgsl_type: String,
    /// Bytes before the runtime-sized array (the whole size when there is none).
    pub fixed: u64,
    /// The runtime-sized array's element type and stride, if the binding ends with one.
    pub runtime_array: Option<(String, u64)>,
    /// A fixed-size top-level `array<E, N>`: element type, stride and N.
    pub fixed_array: Option<(String, u64, u64)>,
    /// Whether a `vec3` sits in the type (its 16-byte alignment is the common layout trap).
    pub has_vec3: bool,
}

/// One binding of a kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct BindingInfo {
    /// The WGSL variable name, which Rust binds by.
    pub name: String,
    /// `@group(n)`.
    pub group: u32,
    /// `@binding(n)`.
    pub binding: u32,
    /// Storage, uniform, texture, sampler.
    pub kind: BindingKind,
    /// For buffers: the layout the bound buffer must have.
    pub shape: Option<BufferShape>,
}

/// Device features a kernel needs beyond WebGPU's baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NeededFeatures {
    /// `atomic<u64>` / `atomic<i64>`.
    pub int64_atomics: bool,
    /// `u64` / `i64` values.
    pub int64: bool,
    /// `atomic<f32>`.
    pub float32_atomics: bool,
    /// `f16`.
    pub f16: bool,
    /// Subgroup operations.
    pub subgroups: bool,
}

/// Everything Shoal knows about one compute entry point.
#[derive(Debug, Clone, PartialEq)]
pub struct Reflection {
    /// The entry point's name.
    pub entry_point: String,
    /// `@workgroup_size`, with override constants applied.
    pub workgroup_size: [u32; 3],
    /// Bytes of the `var<workgroup>` variables the entry point uses, each rounded up to 16.
    pub workgroup_memory: u32,
    /// The bindings the entry point uses, ordered by group then binding.
    pub bindings: Vec<BindingInfo>,
    /// Features the kernel needs.
    pub needs: NeededFeatures,
    /// `(texture, sampler)` binding names that `textureSample*`/`textureGather` use together:
    /// what decides whether a texture's layout must be filterable.
    pub sampled_with: Vec<(String, String)>,
}

impl Reflection {
    /// Invocations in one work group.
    pub fn workgroup_invocations(&self) -> u32 {
        self.workgroup_size.iter().product()
    }
}

/// Why reflection failed, already rendered against the source files.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum ReflectError {
    /// Parse or validation error, rendered with file, line, column and source line.
    Wgsl(String),
    /// The entry point is missing or ambiguous.
    EntryPoint {
        /// The name asked for.
        requested: Option<String>,
        /// The compute entry points that exist.
        available: Vec<String>,
    },
    /// Override constants could not be applied.
    Override(String),
}

impl ReflectError {
    /// The typed error for kernel `kernel`.
    pub(crate) fn into_error(self, kernel: &str) -> crate::Error {
        let kernel = kernel.to_string();
        match self {
            Self::Wgsl(message) => crate::Error::Wgsl { kernel, message },
            Self::EntryPoint {
                requested,
                available,
            } => crate::Error::EntryPoint {
                kernel,
                requested,
                available,
            },
            Self::Override(message) => crate::Error::Override { kernel, message },
        }
    }
}

/// Parses, validates and reflects `composed`, applying `constants` to overrides.
pub(crate) fn reflect(
    composed: &Composed,
    entry: Option<&str>,
    constants: &[(String, f64)],
) -> Result<Reflection, ReflectError> {
    let module = naga::front::wgsl::parse_str(&composed.text).map_err(|e| {
        let labels: Vec<_> = e
            .labels()
            .filter_map(|(span, msg)| span.to_range().map(|r| (r, msg.to_string())))
            .collect();
        ReflectError::Wgsl(composed.render(e.message(), &labels))
    })?;
    let info = Validator::new(ValidationFlags::all(), Capabilities::all())
        .validate(&module)
        .map_err(|e| {
            let labels: Vec<_> = e
                .spans()
                .filter_map(|(span, msg)| span.to_range().map(|r| (r, msg.clone())))
                .collect();
            let mut message = e.as_inner().to_string();
            let mut cause = std::error::Error::source(e.as_inner());
            while let Some(c) = cause {
                message.push_str(&format!(": {c}"));
                cause = c.source();
            }
            ReflectError::Wgsl(composed.render(&message, &labels))
        })?;

    let computes: Vec<&naga::EntryPoint> = module
        .entry_points
        .iter()
        .filter(|ep| ep.stage == naga::ShaderStage::Compute)
        .collect();
    let available = || {
        computes
            .iter()
            .map(|ep| ep.name.clone())
            .collect::<Vec<_>>()
    };
    let name = match entry {
        Some(n) if computes.iter().any(|ep| ep.name == n) => n.to_string(),
        Some(n) => {
            return Err(ReflectError::EntryPoint {
                requested: Some(n.to_string()),
                available: available(),
            });
        }
        None if computes.len() == 1 => computes[0].name.clone(),
        None => {
            return Err(ReflectError::EntryPoint {
                requested: None,
                available: available(),
            });
        }
    };

    let mut pipeline_constants = naga::back::PipelineConstants::default();
    for (k, v) in constants {
        pipeline_constants.insert(k.clone(), *v);
    }
    // naga 30 panics on some modules it validated (an `override` declared after an array size
    // that uses it): a typed error rather than a crash, where panics unwind.
    let processed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        naga::back::pipeline_constants::process_overrides(
            &module,
            &info,
            Some((naga::ShaderStage::Compute, &name)),
            &pipeline_constants,
        )
    }))
    .map_err(|_| {
        ReflectError::Override(
            "naga failed while applying the overrides (it does when an `override` is declared \
             after a declaration that uses it: declare overrides first)"
                .into(),
        )
    })?;
    let (module, info) = processed.map_err(|e| ReflectError::Override(e.to_string()))?;

    let index = module
        .entry_points
        .iter()
        .position(|ep| ep.name == name)
        .unwrap_or(0);
    let ep = &module.entry_points[index];
    let uses = info.get_entry_point(index);
    let mut layouter = naga::proc::Layouter::default();
    layouter
        .update(module.to_ctx())
        .map_err(|e| ReflectError::Override(e.to_string()))?;

    let mut workgroup_memory = 0u32;
    let mut bindings = Vec::new();
    for (handle, var) in module.global_variables.iter() {
        if uses[handle].is_empty() {
            continue;
        }
        if var.space == AddressSpace::WorkGroup {
            workgroup_memory += layouter[var.ty].size.next_multiple_of(16);
            continue;
        }
        let Some(rb) = &var.binding else { continue };
        let inner = &module.types[var.ty].inner;
        let (kind, shape) = match (var.space, inner) {
            (AddressSpace::Storage { access }, _) => (
                BindingKind::Storage {
                    writable: access.contains(naga::StorageAccess::STORE),
                },
                Some(buffer_shape(&module, &layouter, var.ty)),
            ),
            (AddressSpace::Uniform, _) => (
                BindingKind::Uniform,
                Some(buffer_shape(&module, &layouter, var.ty)),
            ),
            (
                _,
                TypeInner::Image {
                    dim,
                    arrayed,
                    class,
                },
            ) => {
                let kind = match *class {
                    ImageClass::Storage { format, access } => BindingKind::StorageTexture {
                        format,
                        access,
                        dim: *dim,
                        arrayed: *arrayed,
                    },
                    ImageClass::Sampled { kind, multi } => BindingKind::Texture {
                        kind,
                        depth: false,
                        multisampled: multi,
                        dim: *dim,
                        arrayed: *arrayed,
                    },
                    ImageClass::Depth { multi } => BindingKind::Texture {
                        kind: ScalarKind::Float,
                        depth: true,
                        multisampled: multi,
                        dim: *dim,
                        arrayed: *arrayed,
                    },
                    ImageClass::External => continue,
                };
                (kind, None)
            }
            (_, TypeInner::Sampler { comparison }) => (
                BindingKind::Sampler {
                    comparison: *comparison,
                },
                None,
            ),
            _ => continue,
        };
        bindings.push(BindingInfo {
            name: var
                .name
                .clone()
                .unwrap_or_else(|| format!("group{}_binding{}", rb.group, rb.binding)),
            group: rb.group,
            binding: rb.binding,
            kind,
            shape,
        });
    }
    bindings.sort_by_key(|b| (b.group, b.binding));
    let sampled_with = sampling_pairs(&module, &bindings);

    Ok(Reflection {
        entry_point: name,
        workgroup_size: ep.workgroup_size,
        workgroup_memory,
        bindings,
        needs: needed_features(&module, composed.uses_subgroups),
        sampled_with,
    })
}

/// The `(texture, sampler)` pairs of every `ImageSample` expression whose operands are among
/// `bindings`. An operand that is not a global variable (a function argument) pairs with every
/// binding of its kind: a filterable layout is then asked for where one might be needed.
fn sampling_pairs(module: &naga::Module, bindings: &[BindingInfo]) -> Vec<(String, String)> {
    let of_kind = |sampler: bool| -> Vec<&str> {
        bindings
            .iter()
            .filter(|b| match b.kind {
                BindingKind::Sampler { .. } => sampler,
                BindingKind::Texture { .. } => !sampler,
                _ => false,
            })
            .map(|b| b.name.as_str())
            .collect()
    };
    let mut pairs = Vec::new();
    let functions = module
        .functions
        .iter()
        .map(|(_, f)| f)
        .chain(module.entry_points.iter().map(|ep| &ep.function));
    for function in functions {
        let operand = |expr: naga::Handle<naga::Expression>, sampler: bool| -> Vec<&str> {
            match function.expressions[expr] {
                naga::Expression::GlobalVariable(h) => {
                    let name = module.global_variables[h].name.as_deref().unwrap_or("");
                    of_kind(sampler)
                        .into_iter()
                        .filter(|n| *n == name)
                        .collect()
                }
                _ => of_kind(sampler),
            }
        };
        for (_, expr) in function.expressions.iter() {
            if let naga::Expression::ImageSample { image, sampler, .. } = *expr {
                for t in operand(image, false) {
                    for s in operand(sampler, true) {
                        let pair = (t.to_string(), s.to_string());
                        if !pairs.contains(&pair) {
                            pairs.push(pair);
                        }
                    }
                }
            }
        }
    }
    pairs
}

/// Parses and validates `source` and reflects every compute entry point with default override
/// values, without a device (what `cargo xtask check-wgsl` runs). A snippet without entry points
/// gives an empty list.
pub fn validate(source: &crate::Source) -> Result<Vec<Reflection>, crate::Error> {
    let composed = Composed::new(source)?;
    let kernel = source.path().to_string();
    let to_error = |e: ReflectError| e.into_error(&kernel);
    let module = naga::front::wgsl::parse_str(&composed.text).map_err(|e| {
        let labels: Vec<_> = e
            .labels()
            .filter_map(|(span, msg)| span.to_range().map(|r| (r, msg.to_string())))
            .collect();
        to_error(ReflectError::Wgsl(composed.render(e.message(), &labels)))
    })?;
    let names: Vec<String> = module
        .entry_points
        .iter()
        .filter(|ep| ep.stage == naga::ShaderStage::Compute)
        .map(|ep| ep.name.clone())
        .collect();
    if names.is_empty() {
        // Still validate the module as a whole.
        reflect(&composed, Some(""), &[])
            .map(|_| ())
            .or_else(|e| match e {
                ReflectError::EntryPoint { .. } => Ok(()),
                other => Err(to_error(other)),
            })?;
    }
    names
        .iter()
        .map(|n| reflect(&composed, Some(n), &[]).map_err(to_error))
        .collect()
}

fn needed_features(module: &naga::Module, subgroups: bool) -> NeededFeatures {
    let mut needs = NeededFeatures {
        subgroups,
        ..Default::default()
    };
    for (_, ty) in module.types.iter() {
        match ty.inner {
            TypeInner::Atomic(s) if s.width == 8 => needs.int64_atomics = true,
            TypeInner::Atomic(s) if s.kind == ScalarKind::Float => needs.float32_atomics = true,
            TypeInner::Scalar(s) | TypeInner::Vector { scalar: s, .. } => {
                if s.width == 8 && matches!(s.kind, ScalarKind::Sint | ScalarKind::Uint) {
                    needs.int64 = true;
                }
                if s.width == 2 && s.kind == ScalarKind::Float {
                    needs.f16 = true;
                }
            }
            _ => {}
        }
    }
    needs
}

fn buffer_shape(
    module: &naga::Module,
    layouter: &naga::proc::Layouter,
    ty: naga::Handle<naga::Type>,
) -> BufferShape {
    let size = layouter[ty].size as u64;
    let mut shape = BufferShape {
        wgsl_type: type_name(module, ty),
        fixed: size,
        runtime_array: None,
        fixed_array: None,
        has_vec3: has_vec3(module, ty),
    };
    match &module.types[ty].inner {
        TypeInner::Array {
            base,
            size: naga::ArraySize::Dynamic,
            stride,
        } => {
            shape.fixed = 0;
            shape.runtime_array = Some((type_name(module, *base), *stride as u64));
        }
        TypeInner::Array {
            base,
            size: naga::ArraySize::Constant(n),
            stride,
        } => {
            shape.fixed_array = Some((type_name(module, *base), *stride as u64, n.get() as u64));
        }
        TypeInner::Struct { members, .. } => {
            if let Some(last) = members.last()
                && let TypeInner::Array {
                    base,
                    size: naga::ArraySize::Dynamic,
                    stride,
                } = &module.types[last.ty].inner
            {
                shape.fixed = last.offset as u64;
                shape.runtime_array = Some((type_name(module, *base), *stride as u64));
            }
        }
        _ => {}
    }
    shape
}

fn has_vec3(module: &naga::Module, ty: naga::Handle<naga::Type>) -> bool {
    match &module.types[ty].inner {
        TypeInner::Vector {
            size: naga::VectorSize::Tri,
            ..
        } => true,
        TypeInner::Matrix {
            rows: naga::VectorSize::Tri,
            ..
        } => true,
        TypeInner::Array { base, .. } | TypeInner::BindingArray { base, .. } => {
            has_vec3(module, *base)
        }
        TypeInner::Struct { members, .. } => members.iter().any(|m| has_vec3(module, m.ty)),
        _ => false,
    }
}

/// The type as WGSL spells it (approximately: enough for messages).
pub(crate) fn type_name(module: &naga::Module, ty: naga::Handle<naga::Type>) -> String {
    let t = &module.types[ty];
    if let Some(name) = &t.name
        && matches!(t.inner, TypeInner::Struct { .. })
    {
        return name.clone();
    }
    match &t.inner {
        TypeInner::Scalar(s) => scalar_name(*s),
        TypeInner::Vector { size, scalar } => {
            format!("vec{}<{}>", *size as u8, scalar_name(*scalar))
        }
        TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } => {
            format!(
                "mat{}x{}<{}>",
                *columns as u8,
                *rows as u8,
                scalar_name(*scalar)
            )
        }
        TypeInner::Atomic(s) => format!("atomic<{}>", scalar_name(*s)),
        TypeInner::Array {
            base,
            size: naga::ArraySize::Constant(n),
            ..
        } => {
            format!("array<{}, {n}>", type_name(module, *base))
        }
        TypeInner::Array { base, .. } => format!("array<{}>", type_name(module, *base)),
        TypeInner::Struct { .. } => "struct".into(),
        other => format!("{other:?}"),
    }
}

fn scalar_name(s: naga::Scalar) -> String {
    match (s.kind, s.width) {
        (ScalarKind::Float, 4) => "f32".into(),
        (ScalarKind::Float, 2) => "f16".into(),
        (ScalarKind::Float, 8) => "f64".into(),
        (ScalarKind::Uint, 4) => "u32".into(),
        (ScalarKind::Sint, 4) => "i32".into(),
        (ScalarKind::Uint, 8) => "u64".into(),
        (ScalarKind::Sint, 8) => "i64".into(),
        (ScalarKind::Bool, _) => "bool".into(),
        (k, w) => format!("{k:?}{}", w * 8),
    }
}

#[cfg(test)]
mod tests {
    // In wasm32 these run in the browser through wasm-bindgen-test (plain `#[test]`s would not run).
    use super::*;
    use crate::source::Source;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    fn reflect_str(text: &str, constants: &[(String, f64)]) -> Result<Reflection, ReflectError> {
        let composed = Composed::new(&Source::new("test.wgsl", text)).expect("composes");
        reflect(&composed, None, constants)
    }

    /// An `override` declared after the arrays and work-group size that use it is applied. (naga
    /// 30 panics applying overrides to some such modules — `check-wgsl` met one with the radix
    /// sort's snippet — and Shoal turns that panic into this typed error where panics unwind; this
    /// module does not make naga panic, so it checks the reflection or that error.)
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn an_override_declared_after_its_use_is_a_typed_error() {
        let text = "var<workgroup> counts: array<atomic<u32>, 16>;
             var<workgroup> sh: array<u32, 2u * WG>;
             @group(0) @binding(0) var<storage, read_write> out: array<u32>;
             @compute @workgroup_size(WG) fn count(@builtin(local_invocation_index) i: u32) {
                 atomicAdd(&counts[i % 16u], 1u); workgroupBarrier(); out[i] = atomicLoad(&counts[0]);
             }
             @compute @workgroup_size(WG) fn scan(@builtin(local_invocation_index) i: u32) {
                 sh[i] = i; workgroupBarrier(); out[i] = sh[0];
             }
             override WG: u32 = 64u;";
        let composed = Composed::new(&Source::new("test.wgsl", text)).expect("composes");
        match reflect(&composed, Some("count"), &[]) {
            Err(ReflectError::Override(m)) => assert!(m.contains("declare overrides first"), "{m}"),
            // A naga that handles it must reflect it correctly.
            Ok(r) => assert_eq!(r.workgroup_size, [64, 1, 1]),
            Err(e) => panic!("{e:?}"),
        }
    }

    #[test]
    fn reflects_bindings_workgroup_size_and_memory() {
        let r = reflect_str(
            "struct Data { v1: vec3<f32>, v2: vec2<f32> }
             @group(0) @binding(0) var<storage, read> a: array<Data>;
             @group(0) @binding(1) var<storage, read_write> out: array<u32>;
             @group(1) @binding(0) var<uniform> n: u32;
             override WG: u32 = 64;
             var<workgroup> tile: array<f32, WG>;
             @compute @workgroup_size(WG) fn main(@builtin(local_invocation_index) i: u32) {
                 tile[i] = a[i].v1.x; workgroupBarrier(); out[i] = u32(tile[0]) + n;
             }",
            &[("WG".into(), 128.0)],
        )
        .expect("reflects");
        assert_eq!(r.workgroup_size, [128, 1, 1]);
        assert_eq!(r.workgroup_memory, 512);
        let names: Vec<_> = r.bindings.iter().map(|b| b.name.as_str()).collect();
        assert_eq!(names, ["a", "out", "n"]);
        let a = r.bindings[0].shape.as_ref().expect("buffer");
        assert_eq!(a.runtime_array, Some(("Data".to_string(), 32)));
        assert!(a.has_vec3);
        assert_eq!(r.bindings[1].kind, BindingKind::Storage { writable: true });
        assert_eq!(r.bindings[2].shape.as_ref().map(|s| s.fixed), Some(4));
    }

    #[test]
    fn parse_error_names_file_line_and_column() {
        let err = reflect_str("\n\nfn main( { }\n", &[]).expect_err("bad wgsl");
        let ReflectError::Wgsl(msg) = err else {
            panic!("wrong error {err:?}")
        };
        assert!(msg.contains("test.wgsl:3:"), "{msg}");
        assert!(msg.contains("fn main( { }"), "{msg}");
    }
}
