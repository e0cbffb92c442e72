//! What a kernel must fit on its device, checked once when it is built, before any layout or
//! pipeline is made: work-group size, binding numbers and counts per stage, shared memory, the
//! features its WGSL needs, and the access its storage images ask of their formats.

use crate::binding;
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::reflect::{BindingKind, Reflection};

/// The checks the specification puts on a program before it runs: work-group size, shared
/// memory, and the features it needs.
pub(crate) fn check_device(gpu: &Gpu, name: &str, r: &Reflection) -> Result<()> {
    check_limits(name, r, &gpu.device().limits(), gpu.features(), || {
        gpu.adapter_details().name.clone()
    })?;
    check_storage_images(gpu, name, r)
}

/// The checks of [`check_device`] that need only `device_limits` and `features` (no device):
/// also what [`crate::validate_for`] and the WebGPU portability warning run. `adapter` names
/// the device in a missing feature's error.
pub(crate) fn check_limits(
    name: &str,
    r: &Reflection,
    device_limits: &wgpu::Limits,
    features: wgpu::Features,
    adapter: impl Fn() -> String,
) -> Result<()> {
    let limits = &crate::Limits::from_wgpu(device_limits);
    for (axis, (&size, &limit)) in r
        .workgroup_size
        .iter()
        .zip(&limits.max_compute_work_group_size)
        .enumerate()
    {
        if size > limit {
            return Err(Error::WorkgroupTooLarge {
                kernel: name.to_string(),
                size: r.workgroup_size,
                invocations: r.workgroup_invocations(),
                limit_name: [
                    "MAX_COMPUTE_WORK_GROUP_SIZE.x",
                    "MAX_COMPUTE_WORK_GROUP_SIZE.y",
                    "MAX_COMPUTE_WORK_GROUP_SIZE.z",
                ][axis],
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
    // Before any layout is made: layouts are made for every group up to the highest one.
    let per_stage = [
        (
            "storage buffers",
            "max_storage_buffers_per_shader_stage",
            device_limits.max_storage_buffers_per_shader_stage,
        ),
        (
            "uniform buffers",
            "max_uniform_buffers_per_shader_stage",
            device_limits.max_uniform_buffers_per_shader_stage,
        ),
        (
            "sampled textures",
            "max_sampled_textures_per_shader_stage",
            device_limits.max_sampled_textures_per_shader_stage,
        ),
        (
            "storage textures",
            "max_storage_textures_per_shader_stage",
            device_limits.max_storage_textures_per_shader_stage,
        ),
        (
            "samplers",
            "max_samplers_per_shader_stage",
            device_limits.max_samplers_per_shader_stage,
        ),
    ];
    for (kind, limit_name, limit) in per_stage {
        let count = r
            .bindings
            .iter()
            .filter(|b| binding_kind_name(&b.kind) == kind)
            .count() as u32;
        if count > limit {
            return Err(Error::TooManyBindings {
                kernel: name.to_string(),
                kind,
                count,
                limit_name,
                limit,
            });
        }
    }
    let per_group = device_limits.max_bindings_per_bind_group;
    for b in &r.bindings {
        let over = [
            (b.group, limits.max_bind_groups, "max_bind_groups"),
            (b.binding, per_group, "max_bindings_per_bind_group"),
        ]
        .into_iter()
        .find(|&(value, limit, _)| value >= limit);
        if let Some((_, limit, limit_name)) = over {
            return Err(Error::BindingNumber {
                kernel: name.to_string(),
                binding: b.name.clone(),
                group: b.group,
                index: b.binding,
                limit_name,
                limit,
            });
        }
    }
    if r.workgroup_memory > u64::from(limits.max_compute_shared_memory_size) {
        return Err(Error::WorkgroupMemory {
            kernel: name.to_string(),
            bytes: r.workgroup_memory,
            limit: limits.max_compute_shared_memory_size,
        });
    }
    let needs = [
        (
            r.needs.int64_atomics,
            wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS,
            "SHADER_INT64_ATOMIC_ALL_OPS (64-bit atomics)",
        ),
        (r.needs.int64, wgpu::Features::SHADER_INT64, "SHADER_INT64"),
        (
            r.needs.float32_atomics,
            wgpu::Features::SHADER_FLOAT32_ATOMIC,
            "SHADER_FLOAT32_ATOMIC",
        ),
        (r.needs.f16, wgpu::Features::SHADER_F16, "SHADER_F16"),
        (r.needs.f64, wgpu::Features::SHADER_F64, "SHADER_F64"),
        (r.needs.subgroups, wgpu::Features::SUBGROUP, "SUBGROUP"),
    ];
    for (needed, feature, label) in needs {
        if needed && !features.contains(feature) {
            return Err(Error::MissingFeature {
                kernel: name.to_string(),
                feature: label.to_string(),
                adapter: adapter(),
                location: None,
                remedy: "run it on an adapter that has it (`gpu.features()`), or write the \
                         kernel without it"
                    .into(),
            });
        }
    }
    Ok(())
}

/// Whether each storage image's declared access is one its format allows on this device.
fn check_storage_images(gpu: &Gpu, name: &str, r: &Reflection) -> Result<()> {
    for b in &r.bindings {
        if let BindingKind::StorageTexture { format, access, .. } = b.kind {
            let Some(wgpu_format) = binding::texture_format(format) else {
                return Err(Error::BindingKind {
                    kernel: name.to_string(),
                    binding: b.name.clone(),
                    expected: "a storage-texture format Shoal maps to wgpu".into(),
                    got: format!("{format:?}"),
                });
            };
            // WebGPU allows read_write storage only for r32float/r32uint/r32sint unless the
            // adapter says more; the device would reject the layout with a less helpful message.
            let flags = gpu.format_features(wgpu_format).flags;
            let needed = match (
                access.contains(naga::StorageAccess::LOAD),
                access.contains(naga::StorageAccess::STORE),
            ) {
                (true, true) => wgpu::TextureFormatFeatureFlags::STORAGE_READ_WRITE,
                (true, false) => wgpu::TextureFormatFeatureFlags::STORAGE_READ_ONLY,
                _ => wgpu::TextureFormatFeatureFlags::STORAGE_WRITE_ONLY,
            };
            if !flags.contains(needed) {
                let allowed: Vec<&str> = [
                    (wgpu::TextureFormatFeatureFlags::STORAGE_READ_ONLY, "read"),
                    (wgpu::TextureFormatFeatureFlags::STORAGE_WRITE_ONLY, "write"),
                    (
                        wgpu::TextureFormatFeatureFlags::STORAGE_READ_WRITE,
                        "read_write",
                    ),
                ]
                .into_iter()
                .filter(|(f, _)| flags.contains(*f))
                .map(|(_, n)| n)
                .collect();
                let remedy = if allowed.is_empty() {
                    "the format is no storage image here: choose one with storage use (rgba8unorm, \
                     r32float, r32uint …) or use a storage buffer"
                        .to_string()
                } else if needed == wgpu::TextureFormatFeatureFlags::STORAGE_READ_WRITE {
                    "read_write needs r32float, r32uint or r32sint in WebGPU — use two images \
                     (read and write) instead"
                        .to_string()
                } else {
                    format!("declare the access it allows ({})", allowed.join(" or "))
                };
                return Err(Error::StorageAccess {
                    kernel: name.to_string(),
                    binding: b.name.clone(),
                    declared: b.kind.describe(),
                    allowed: if allowed.is_empty() {
                        "none (no storage use)".into()
                    } else {
                        allowed.join(", ")
                    },
                    adapter: gpu.adapter_details().name.clone(),
                    remedy,
                });
            }
        }
    }
    Ok(())
}

/// The per-stage limit a binding of `kind` counts against, as [`Error::TooManyBindings`] names it.
fn binding_kind_name(kind: &BindingKind) -> &'static str {
    match kind {
        BindingKind::Storage { .. } => "storage buffers",
        BindingKind::Uniform => "uniform buffers",
        BindingKind::Texture { .. } => "sampled textures",
        BindingKind::StorageTexture { .. } => "storage textures",
        BindingKind::Sampler { .. } => "samplers",
    }
}
