//! The bind-group layout entries of a kernel, derived from its reflection, and the sampler
//! filtering each dispatch needs.

use super::Resource;
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::reflect::{BindingInfo, BindingKind, Reflection};

/// The wgpu storage-texture format of a naga storage format.
pub(crate) fn texture_format(format: naga::StorageFormat) -> Option<wgpu::TextureFormat> {
    use naga::StorageFormat as S;
    use wgpu::TextureFormat as T;
    Some(match format {
        S::R32Uint => T::R32Uint,
        S::R32Sint => T::R32Sint,
        S::R32Float => T::R32Float,
        S::Rg32Uint => T::Rg32Uint,
        S::Rg32Sint => T::Rg32Sint,
        S::Rg32Float => T::Rg32Float,
        S::Rgba8Unorm => T::Rgba8Unorm,
        S::Rgba8Snorm => T::Rgba8Snorm,
        S::Rgba8Uint => T::Rgba8Uint,
        S::Rgba8Sint => T::Rgba8Sint,
        S::Bgra8Unorm => T::Bgra8Unorm,
        S::Rgba16Uint => T::Rgba16Uint,
        S::Rgba16Sint => T::Rgba16Sint,
        S::Rgba16Float => T::Rgba16Float,
        S::Rgba32Uint => T::Rgba32Uint,
        S::Rgba32Sint => T::Rgba32Sint,
        S::Rgba32Float => T::Rgba32Float,
        S::R16Float => T::R16Float,
        S::Rg16Float => T::Rg16Float,
        S::R8Unorm => T::R8Unorm,
        S::Rg8Unorm => T::Rg8Unorm,
        S::Rgb10a2Unorm => T::Rgb10a2Unorm,
        S::Rg11b10Ufloat => T::Rg11b10Ufloat,
        S::R64Uint => T::R64Uint,
        _ => return None,
    })
}

pub(crate) fn view_dimension(
    dim: naga::ImageDimension,
    arrayed: bool,
) -> wgpu::TextureViewDimension {
    use naga::ImageDimension as D;
    use wgpu::TextureViewDimension as V;
    match (dim, arrayed) {
        (D::D1, _) => V::D1,
        (D::D2, false) => V::D2,
        (D::D2, true) => V::D2Array,
        (D::D3, _) => V::D3,
        (D::Cube, false) => V::Cube,
        (D::Cube, true) => V::CubeArray,
    }
}

/// The layout entry derived from a reflected binding. `filtering` says, for a float texture,
/// whether a filtering sampler samples it (then it must be filterable), and for a sampler whether
/// it is bound as a filtering one.
pub(crate) fn layout_entry(
    info: &BindingInfo,
    filtering: bool,
) -> Option<wgpu::BindGroupLayoutEntry> {
    let ty = match &info.kind {
        BindingKind::Storage { writable } => wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage {
                read_only: !writable,
            },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        BindingKind::Uniform => wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        BindingKind::StorageTexture {
            format,
            access,
            dim,
            arrayed,
        } => wgpu::BindingType::StorageTexture {
            access: match (
                access.contains(naga::StorageAccess::LOAD),
                access.contains(naga::StorageAccess::STORE),
            ) {
                (true, true) => wgpu::StorageTextureAccess::ReadWrite,
                (true, false) => wgpu::StorageTextureAccess::ReadOnly,
                _ => wgpu::StorageTextureAccess::WriteOnly,
            },
            format: texture_format(*format)?,
            view_dimension: view_dimension(*dim, *arrayed),
        },
        BindingKind::Texture {
            kind,
            depth,
            multisampled,
            dim,
            arrayed,
        } => wgpu::BindingType::Texture {
            sample_type: match (depth, kind) {
                (true, _) => wgpu::TextureSampleType::Depth,
                (false, naga::ScalarKind::Sint) => wgpu::TextureSampleType::Sint,
                (false, naga::ScalarKind::Uint) => wgpu::TextureSampleType::Uint,
                (false, _) => wgpu::TextureSampleType::Float {
                    filterable: filtering,
                },
            },
            view_dimension: view_dimension(*dim, *arrayed),
            multisampled: *multisampled,
        },
        BindingKind::Sampler { comparison: true } => {
            wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison)
        }
        BindingKind::Sampler { comparison: false } => wgpu::BindingType::Sampler(if filtering {
            wgpu::SamplerBindingType::Filtering
        } else {
            wgpu::SamplerBindingType::NonFiltering
        }),
    };
    Some(wgpu::BindGroupLayoutEntry {
        binding: info.binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty,
        count: None,
    })
}

/// Which samplers of a dispatch must be laid out non-filtering (bit `i` for binding `i`, see
/// `kernel::Variant`): those bound non-filtering that sample a texture whose format this device
/// cannot filter. A filtering sampler on such a texture is an error that says what to change.
pub(crate) fn filtering_mask(
    gpu: &Gpu,
    kernel: &str,
    r: &Reflection,
    resources: &[Resource<'_>],
) -> Result<u64> {
    let mut mask = 0u64;
    let find = |n: &str| r.bindings.iter().position(|b| b.name == n);
    for (texture, sampler) in &r.sampled_with {
        let (Some(ti), Some(si)) = (find(texture), find(sampler)) else {
            continue;
        };
        let (Some(Resource::Texture(t)), Some(Resource::Sampler(s))) =
            (resources.get(ti), resources.get(si))
        else {
            continue;
        };
        if gpu.is_filterable(t.format) {
            continue;
        }
        if s.filtering {
            return Err(Error::Unfilterable {
                kernel: kernel.to_string(),
                binding: texture.clone(),
                sampler: sampler.clone(),
                format: crate::image::format_name(t.format),
            });
        }
        if si < 64 {
            mask |= 1 << si;
        }
    }
    Ok(mask)
}
