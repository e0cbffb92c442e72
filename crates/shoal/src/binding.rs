//! Resources bound to kernels, the layout entries derived from reflection, and the checks that a
//! bound resource fits its binding.

use crate::element::Element;
use crate::element::LayoutKind;
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::identity::{GpuTag, ResourceId};
use crate::reflect::{BindingInfo, BindingKind, Reflection};

/// Something that can be bound to a kernel's binding by name.
pub trait Bindable {
    /// The resource as Shoal checks and binds it.
    fn resource(&self) -> Resource<'_>;
}

/// A resource ready to bind.
#[derive(Debug, Clone, Copy)]
pub enum Resource<'a> {
    /// A buffer (storage or uniform).
    Buffer(BufferResource<'a>),
    /// A texture view (storage or sampled).
    Texture(TextureResource<'a>),
    /// A sampler.
    Sampler(SamplerResource<'a>),
}

/// A buffer and the Rust element type it was made for.
///
/// Made by Shoal's buffers, or by [`BufferResource::new`] for a custom [`Bindable`].
#[derive(Debug, Clone, Copy)]
pub struct BufferResource<'a> {
    /// The wgpu buffer.
    pub raw: &'a wgpu::Buffer,
    /// Identity for the bind-group cache and the `Gpu` that made the buffer (core-allocated).
    pub(crate) id: &'a ResourceId,
    /// Bytes holding elements (bound range).
    pub bytes: u64,
    /// The Rust element stride.
    pub stride: u64,
    /// The Rust element size.
    pub size: u64,
    /// The Rust element type's name.
    pub type_name: &'static str,
    /// How that type was laid out.
    pub layout: LayoutKind,
    /// Bytes before the first element: 0 for a [`Buffer`](crate::Buffer), the counter header
    /// for an [`AppendBuffer`](crate::AppendBuffer). When the WGSL struct puts its runtime array
    /// at this offset, the element stride is checked as for a bare array.
    pub header: u64,
}

/// A texture view with what the checks need to know of its texture.
///
/// Made by [`Image`](crate::Image), or by [`TextureResource::new`] for a custom [`Bindable`].
#[derive(Debug, Clone, Copy)]
pub struct TextureResource<'a> {
    /// The view to bind.
    pub view: &'a wgpu::TextureView,
    /// Identity for the bind-group cache and the `Gpu` that made the texture (core-allocated).
    pub(crate) id: &'a ResourceId,
    /// The texel format.
    pub format: wgpu::TextureFormat,
    /// The usages of the texture.
    pub usage: wgpu::TextureUsages,
    /// The view's dimension.
    pub dimension: wgpu::TextureViewDimension,
    /// Samples per texel.
    pub sample_count: u32,
}

/// A sampler.
///
/// Made by [`Sampler`](crate::Sampler), or by [`SamplerResource::new`] for a custom [`Bindable`].
#[derive(Debug, Clone, Copy)]
pub struct SamplerResource<'a> {
    /// The sampler.
    pub raw: &'a wgpu::Sampler,
    /// Identity for the bind-group cache and the `Gpu` that made the sampler (core-allocated).
    pub(crate) id: &'a ResourceId,
    /// A comparison sampler.
    pub comparison: bool,
    /// Whether it filters (linear); a non-filtering sampler is nearest everywhere.
    pub filtering: bool,
}

impl<'a> BufferResource<'a> {
    /// `bytes` of `raw` holding elements of `T`, from offset 0 (`header` 0). `id` comes from
    /// [`Gpu::resource_id`] of the `Gpu` whose device made `raw`, kept with the buffer.
    pub fn new<T: Element>(id: &'a ResourceId, raw: &'a wgpu::Buffer, bytes: u64) -> Self {
        Self {
            raw,
            id,
            bytes,
            stride: T::STRIDE,
            size: T::SIZE,
            type_name: T::type_name(),
            layout: T::LAYOUT,
            header: 0,
        }
    }
}

impl<'a> TextureResource<'a> {
    /// A view of a texture with these properties. `id` comes from [`Gpu::resource_id`] of the
    /// `Gpu` whose device made the texture, kept with it.
    pub fn new(
        id: &'a ResourceId,
        view: &'a wgpu::TextureView,
        format: wgpu::TextureFormat,
        usage: wgpu::TextureUsages,
        dimension: wgpu::TextureViewDimension,
        sample_count: u32,
    ) -> Self {
        Self {
            view,
            id,
            format,
            usage,
            dimension,
            sample_count,
        }
    }
}

impl<'a> SamplerResource<'a> {
    /// A sampler. `id` comes from [`Gpu::resource_id`] of the `Gpu` whose device made it.
    pub fn new(
        id: &'a ResourceId,
        raw: &'a wgpu::Sampler,
        comparison: bool,
        filtering: bool,
    ) -> Self {
        Self {
            raw,
            id,
            comparison,
            filtering,
        }
    }
}

impl Resource<'_> {
    fn identity(&self) -> &ResourceId {
        match self {
            Self::Buffer(b) => b.id,
            Self::Texture(t) => t.id,
            Self::Sampler(s) => s.id,
        }
    }

    /// The key of this resource in the bind-group caches.
    pub(crate) fn id(&self) -> u64 {
        self.identity().serial()
    }

    /// The `Gpu` that made the resource.
    pub(crate) fn gpu(&self) -> &GpuTag {
        self.identity().gpu()
    }

    /// Whether both are the same GPU memory (one buffer bound twice, or a buffer and its view).
    pub(crate) fn same_memory(&self, other: &Resource<'_>) -> bool {
        self.identity().same_memory(other.identity())
    }

    fn describe(&self) -> String {
        match self {
            Self::Buffer(b) => format!(
                "Buffer<{}> with usage {:?}",
                short_type_name(b.type_name),
                b.raw.usage()
            ),
            Self::Texture(t) => format!("a {:?} texture with usage {:?}", t.format, t.usage),
            Self::Sampler(s) if s.comparison => "a comparison sampler".into(),
            Self::Sampler(_) => "a sampler".into(),
        }
    }

    pub(crate) fn binding_resource(&self) -> wgpu::BindingResource<'_> {
        match self {
            Self::Buffer(b) => wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: b.raw,
                offset: 0,
                size: wgpu::BufferSize::new(b.bytes.next_multiple_of(4)),
            }),
            Self::Texture(t) => wgpu::BindingResource::TextureView(t.view),
            Self::Sampler(s) => wgpu::BindingResource::Sampler(s.raw),
        }
    }
}

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

/// Checks that `res` fits `info`: kind, usage, access, element layout and length.
pub(crate) fn check(kernel: &str, info: &BindingInfo, res: &Resource<'_>) -> Result<()> {
    let kind_error = || Error::BindingKind {
        kernel: kernel.to_string(),
        binding: info.name.clone(),
        expected: info.kind.describe(),
        got: res.describe(),
    };
    match (&info.kind, res) {
        (BindingKind::Storage { .. } | BindingKind::Uniform, Resource::Buffer(b)) => {
            check_buffer(kernel, info, b)
        }
        (
            BindingKind::StorageTexture {
                format,
                dim,
                arrayed,
                ..
            },
            Resource::Texture(t),
        ) => check_texture(
            kernel,
            info,
            t,
            texture_format(*format) == Some(t.format),
            view_dimension(*dim, *arrayed),
            (
                wgpu::TextureUsages::STORAGE_BINDING,
                "STORAGE_BINDING",
                "create the image with gpu.image_zeroed(..) on a device where its format allows storage, or add the usage in gpu.image_zeroed_with(..)",
            ),
        ),
        (
            BindingKind::Texture {
                kind,
                depth,
                dim,
                arrayed,
                ..
            },
            Resource::Texture(t),
        ) => {
            let fits = match t.format.sample_type(None, None) {
                Some(wgpu::TextureSampleType::Float { .. }) => {
                    !depth && *kind == naga::ScalarKind::Float
                }
                Some(wgpu::TextureSampleType::Depth) => *depth || *kind == naga::ScalarKind::Float,
                Some(wgpu::TextureSampleType::Uint) => *kind == naga::ScalarKind::Uint,
                Some(wgpu::TextureSampleType::Sint) => *kind == naga::ScalarKind::Sint,
                None => false,
            };
            check_texture(
                kernel,
                info,
                t,
                fits,
                view_dimension(*dim, *arrayed),
                (
                    wgpu::TextureUsages::TEXTURE_BINDING,
                    "TEXTURE_BINDING",
                    "create the image with sampled usage",
                ),
            )
        }
        (BindingKind::Sampler { comparison }, Resource::Sampler(s))
            if *comparison == s.comparison =>
        {
            Ok(())
        }
        _ => Err(kind_error()),
    }
}

/// Checks that a bound buffer is within what one binding may see on this device
/// (`max_storage_buffer_binding_size`, `max_uniform_buffer_binding_size`).
pub(crate) fn check_size(
    limits: &crate::limits::Limits,
    kernel: &str,
    info: &BindingInfo,
    res: &Resource<'_>,
) -> Result<()> {
    let Resource::Buffer(b) = res else {
        return Ok(());
    };
    let (limit_name, limit) = match info.kind {
        BindingKind::Uniform => (
            "max_uniform_buffer_binding_size",
            limits.max_uniform_buffer_binding_size,
        ),
        _ => (
            "max_storage_buffer_binding_size",
            limits.max_storage_buffer_binding_size,
        ),
    };
    // What is bound: the elements rounded up to 4 bytes (see `binding_resource`).
    let bytes = b.bytes.next_multiple_of(4);
    if bytes > limit {
        return Err(Error::BindingTooLarge {
            kernel: kernel.to_string(),
            binding: info.name.clone(),
            bytes,
            limit_name,
            limit,
        });
    }
    Ok(())
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

/// Checks a bound image against a texture binding, in the order a reader fixes them: its
/// format (`format_fits`), its dimension, then the usage the binding needs.
fn check_texture(
    kernel: &str,
    info: &BindingInfo,
    t: &TextureResource<'_>,
    format_fits: bool,
    dimension: wgpu::TextureViewDimension,
    (usage, usage_name, fix): (wgpu::TextureUsages, &str, &str),
) -> Result<()> {
    if !format_fits {
        return Err(Error::ImageFormat {
            kernel: kernel.to_string(),
            binding: info.name.clone(),
            expected: info.kind.describe(),
            got: crate::image::format_name(t.format),
        });
    }
    if dimension != t.dimension {
        return Err(Error::ImageDimension {
            kernel: kernel.to_string(),
            binding: info.name.clone(),
            expected: info.kind.describe(),
            got: format!("{:?}", t.dimension),
        });
    }
    if !t.usage.contains(usage) {
        return Err(missing_usage(
            kernel,
            &info.name,
            usage_name,
            &format!("{:?}", t.usage),
            fix,
        ));
    }
    Ok(())
}

fn missing_usage(kernel: &str, binding: &str, usage: &str, has: &str, fix: &str) -> Error {
    Error::MissingUsage {
        kernel: kernel.to_string(),
        binding: format!("binding `{binding}`"),
        usage: usage.to_string(),
        has: has.to_string(),
        fix: fix.to_string(),
    }
}

fn check_buffer(kernel: &str, info: &BindingInfo, b: &BufferResource<'_>) -> Result<()> {
    let usage = b.raw.usage();
    match info.kind {
        BindingKind::Uniform if !usage.contains(wgpu::BufferUsages::UNIFORM) => {
            return Err(missing_usage(
                kernel,
                &info.name,
                "UNIFORM",
                &format!("{usage:?}"),
                "create it with gpu.uniform(&value)",
            ));
        }
        BindingKind::Storage { .. } if !usage.contains(wgpu::BufferUsages::STORAGE) => {
            return Err(missing_usage(
                kernel,
                &info.name,
                "STORAGE",
                &format!("{usage:?}"),
                "create it with gpu.buffer_from(..) or gpu.buffer_zeroed(..)",
            ));
        }
        _ => {}
    }
    let Some(shape) = &info.shape else {
        return Ok(());
    };
    let layout_error = |wgsl_type: &str, wgsl_bytes: u64| {
        let hint = if shape.has_vec3 && b.layout == LayoutKind::Pod {
            "; WGSL aligns vec3<f32> to 16 bytes: derive encase::ShaderType on the Rust type (with glam::Vec3) \
             so Shoal pads it, or pad the #[repr(C)] struct by hand"
                .to_string()
        } else if shape.has_vec3 {
            "; WGSL aligns vec3<f32> to 16 bytes, so a vec3 element takes 16".to_string()
        } else {
            String::new()
        };
        Error::ElementLayout {
            kernel: kernel.to_string(),
            binding: info.name.clone(),
            wgsl_type: wgsl_type.to_string(),
            wgsl_bytes,
            rust_type: short_type_name(b.type_name),
            rust_bytes: b.stride,
            hint,
        }
    };
    let too_small = |needed: u64| Error::BufferTooSmall {
        kernel: kernel.to_string(),
        binding: info.name.clone(),
        wgsl_type: shape.wgsl_type.clone(),
        needed,
        got: b.bytes,
    };
    if let Some((element, stride)) = &shape.runtime_array {
        if shape.fixed == b.header && b.stride != *stride {
            return Err(layout_error(element, *stride));
        }
        // WGSL arrays are never empty: at least one element must be bound.
        let needed = shape.fixed + stride;
        if b.bytes < needed {
            return Err(too_small(needed));
        }
        return Ok(());
    }
    if b.stride == shape.fixed || b.size == shape.fixed {
        if b.bytes < shape.fixed {
            return Err(too_small(shape.fixed));
        }
        return Ok(());
    }
    if let Some((element, stride, n)) = &shape.fixed_array {
        if b.stride != *stride {
            return Err(layout_error(element, *stride));
        }
        if b.bytes < stride * n {
            return Err(too_small(stride * n));
        }
        return Ok(());
    }
    Err(layout_error(&shape.wgsl_type, shape.fixed))
}

/// `type_name` without module paths, as a user writes it: `shoal_demo::Particle` is `Particle`,
/// `[glam::f32::Vec3; 2]` is `[Vec3; 2]`.
fn short_type_name(type_name: &str) -> String {
    let mut out = String::with_capacity(type_name.len());
    let mut word = String::new();
    for c in type_name.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            word.push(c);
        } else {
            out.push_str(word.rsplit("::").next().unwrap_or(&word));
            word.clear();
            out.push(c);
        }
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    // In wasm32 these run in the browser through wasm-bindgen-test.
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn type_names_lose_their_module_paths() {
        let short = super::short_type_name;
        assert_eq!(short("my_crate::physics::Particle"), "Particle");
        assert_eq!(short("[glam::f32::Vec3; 2]"), "[Vec3; 2]");
        assert_eq!(short("f32"), "f32");
        assert_eq!(short("a::Pair<b::X, c::d::Y>"), "Pair<X, Y>");
    }
}
