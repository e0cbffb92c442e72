//! What a kernel is, read from its WGSL by naga: entry point, work-group size (after override
//! constants), workgroup-memory bytes, bindings with their kinds and layouts, and the device
//! features it needs.
//!
//! This module depends on naga only, not on wgpu, so a build script or a checker (`cargo xtask
//! check-wgsl`) can use it without a device.

mod layout;
mod structs;
#[cfg(test)]
mod tests;
mod types;

use naga::valid::{Capabilities, ValidationFlags, Validator};
use naga::{AddressSpace, ImageClass, ScalarKind, TypeInner};

use crate::source::Composed;

use layout::buffer_shape;
pub use structs::{WgslMember, WgslStruct};
pub use types::{BindingInfo, BindingKind, BufferShape, ImmediateInfo, NeededFeatures, Reflection};

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
    /// A declaration the entry point uses that Shoal cannot provide (an external texture).
    Unsupported {
        /// The declaration.
        parameter: String,
        /// What it is.
        value: String,
        /// What Shoal binds instead.
        rule: String,
    },
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
            Self::Unsupported {
                parameter,
                value,
                rule,
            } => crate::Error::InvalidParameter {
                kernel,
                parameter,
                value,
                rule,
            },
        }
    }
}

/// Parses, validates and reflects `composed`, applying `constants` to overrides.
pub(crate) fn reflect(
    composed: &Composed,
    entry: Option<&str>,
    constants: &[(String, f64)],
) -> Result<Reflection, ReflectError> {
    reflect_module(composed, entry, constants).map(|(reflection, _)| reflection)
}

/// The module with its overrides applied, as [`reflect_module`] returns it with the reflection.
pub(crate) struct Resolved {
    /// One entry point's module, every override replaced by its value.
    pub(crate) module: naga::Module,
    /// naga's analysis of `module`.
    pub(crate) info: naga::valid::ModuleInfo,
}

/// [`reflect`], and the module it reflected.
pub(crate) fn reflect_module(
    composed: &Composed,
    entry: Option<&str>,
    constants: &[(String, f64)],
) -> Result<(Reflection, Resolved), ReflectError> {
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
            ReflectError::Wgsl(composed.render(&with_causes(e.as_inner()), &labels))
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
    let (resolved_module, resolved_info) =
        processed.map_err(|e| ReflectError::Override(with_causes(&e)))?;
    // Without overrides naga hands back the module it was given: move it rather than clone it.
    let owned_module = match resolved_module {
        std::borrow::Cow::Owned(m) => Some(m),
        std::borrow::Cow::Borrowed(_) => None,
    };
    let owned_info = match resolved_info {
        std::borrow::Cow::Owned(i) => Some(i),
        std::borrow::Cow::Borrowed(_) => None,
    };
    let module = owned_module.unwrap_or(module);
    let info = owned_info.unwrap_or(info);

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
        .map_err(|e| ReflectError::Override(with_causes(&e)))?;

    // Summed in u64: several variables may add up past u32::MAX (each is below 2 GiB).
    let mut workgroup_memory = 0u64;
    let mut bindings = Vec::new();
    let mut immediates = None;
    for (handle, var) in module.global_variables.iter() {
        if uses[handle].is_empty() {
            continue;
        }
        if var.space == AddressSpace::WorkGroup {
            workgroup_memory += u64::from(layouter[var.ty].size).next_multiple_of(16);
            continue;
        }
        let declared = var.name.clone().unwrap_or_default();
        if var.space == AddressSpace::Immediate {
            // naga allows one per entry point.
            immediates = Some(ImmediateInfo {
                name: declared,
                shape: buffer_shape(&module, &layouter, var.ty),
                binding: None,
            });
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
                    ImageClass::External => {
                        return Err(ReflectError::Unsupported {
                            parameter: format!("binding `{declared}`"),
                            value: "texture_external".into(),
                            rule: "Shoal binds buffers, storage and sampled images and samplers: \
                                   copy the frame into an image and bind a texture_2d<f32>"
                                .into(),
                        });
                    }
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

    let reflection = Reflection {
        entry_point: name,
        workgroup_size: ep.workgroup_size,
        workgroup_memory,
        bindings,
        immediates,
        needs: needed_features(&module, composed.uses_subgroups),
        sampled_with,
        fold_safe: fold_safe(&module, &ep.function),
    };
    let resolved = Resolved { module, info };
    Ok((reflection, resolved))
}

/// [`Reflection::fold_safe`] of `function` (an entry point).
fn fold_safe(module: &naga::Module, function: &naga::Function) -> bool {
    let takes = |builtin: naga::BuiltIn| {
        let is = |b: &Option<naga::Binding>| matches!(b, Some(naga::Binding::BuiltIn(x)) if *x == builtin);
        function.arguments.iter().any(|a| {
            is(&a.binding)
                || match &module.types[a.ty].inner {
                    naga::TypeInner::Struct { members, .. } => {
                        members.iter().any(|m| is(&m.binding))
                    }
                    _ => false,
                }
        })
    };
    takes(naga::BuiltIn::NumWorkGroups)
        || !(takes(naga::BuiltIn::GlobalInvocationId) || takes(naga::BuiltIn::WorkGroupId))
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
        .map(|n| {
            let mut reflection = reflect(&composed, Some(n), &[])
                .map_err(|e| source.explain(to_error(e), &composed, Some(n), &[]))?;
            source.rename_bindings(&mut reflection);
            Ok(reflection)
        })
        .collect()
}

/// `e`'s message followed by each of its causes', `: `-separated.
fn with_causes(e: &dyn std::error::Error) -> String {
    let mut message = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        message.push_str(&format!(": {c}"));
        cause = c.source();
    }
    message
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
                if s.width == 8 && s.kind == ScalarKind::Float {
                    needs.f64 = true;
                }
            }
            _ => {}
        }
    }
    needs
}
