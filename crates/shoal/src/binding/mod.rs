//! Resources bound to kernels ([`Bindable`], [`Resource`]); the layout entries derived from
//! reflection are in `layout.rs`, the checks that a bound resource fits its binding in `check.rs`.

use crate::element::Element;
use crate::element::LayoutKind;
use crate::identity::{GpuTag, ResourceId};

mod check;
mod layout;
mod scalars;

pub(crate) use check::short_type_name;
pub(crate) use check::{check, check_offset, check_size};
pub(crate) use layout::{filtering_mask, layout_entry, texture_format};
pub(crate) use scalars::{clash, kind_of_rust, kind_of_wgsl};

/// Something that can be bound to a kernel's binding by name.
///
/// Host data is not: upload it first, and a type that is none is a compile error naming it in
/// one line:
///
/// ```compile_fail
/// # fn f(kernel: &shoal::Kernel) -> Result<(), shoal::Error> {
/// let data = vec![1.0f32, 2.0];
/// kernel.bind("input", &data).invocations(2).run()?; // `Vec<f32>` is not `Bindable`
/// # Ok(()) }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be bound to a kernel: it is not a Shoal `Bindable`",
    label = "not a `Bindable`",
    note = "bind a `shoal::Buffer` (upload host data with `gpu.buffer_from(&data)`, a uniform \
            with `gpu.uniform(&value)`), an `AppendBuffer`, an `Image` or a `Sampler`"
)]
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
    /// Where the bound range starts in `raw`, in bytes: 0 but for a
    /// [`Buffer::slice`](crate::Buffer::slice).
    pub offset: u64,
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
    /// The type's fields, where it derives [`Element`] (`#[derive(shoal::Element)]`): compared
    /// with a WGSL struct's members by name. Empty otherwise.
    pub fields: &'static [crate::ElementField],
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
    /// [`Gpu::resource_id`](crate::Gpu::resource_id) of the `Gpu` whose device made `raw`, kept
    /// with the buffer.
    pub fn new<T: Element>(id: &'a ResourceId, raw: &'a wgpu::Buffer, bytes: u64) -> Self {
        Self {
            raw,
            id,
            offset: 0,
            bytes,
            stride: T::STRIDE,
            size: T::SIZE,
            type_name: T::type_name(),
            layout: T::LAYOUT,
            fields: T::FIELDS,
            header: 0,
        }
    }
}

impl<'a> TextureResource<'a> {
    /// A view of a texture with these properties. `id` comes from
    /// [`Gpu::resource_id`](crate::Gpu::resource_id) of the `Gpu` whose device made the texture,
    /// kept with it.
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
    /// A sampler. `id` comes from [`Gpu::resource_id`](crate::Gpu::resource_id) of the `Gpu` whose
    /// device made it.
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
    pub(crate) fn identity(&self) -> &ResourceId {
        match self {
            Self::Buffer(b) => b.id,
            Self::Texture(t) => t.id,
            Self::Sampler(s) => s.id,
        }
    }

    /// A hash of the wgpu object bound (the buffer, the texture view, the sampler), for the
    /// bind-group caches: a custom [`Bindable`] may bind several views of one texture, or a
    /// buffer it has replaced, under one identity.
    pub(crate) fn handle_hash(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        match self {
            Self::Buffer(b) => b.raw.hash(&mut hasher),
            Self::Texture(t) => t.view.hash(&mut hasher),
            Self::Sampler(s) => s.raw.hash(&mut hasher),
        }
        hasher.finish()
    }

    /// The key of this resource in the bind-group caches.
    pub(crate) fn id(&self) -> u64 {
        self.identity().serial()
    }

    /// The `Gpu` that made the resource.
    pub(crate) fn gpu(&self) -> &GpuTag {
        self.identity().gpu()
    }

    /// Whether both are the same GPU memory: one buffer bound twice, a buffer and its view or
    /// slice, or two wrappers of one wgpu buffer (`Buffer::from_raw` of another's `raw()`, or a
    /// custom `Bindable`), which have identities of their own. (Both are of one `Gpu`: owners
    /// are checked first, and wgpu numbers buffers per device.)
    pub(crate) fn same_memory(&self, other: &Resource<'_>) -> bool {
        let raw = self.raw_buffer();
        (raw.is_some() && raw == other.raw_buffer())
            || self.identity().same_memory(other.identity())
    }

    /// The wgpu buffer, for a buffer.
    pub(crate) fn raw_buffer(&self) -> Option<&wgpu::Buffer> {
        match self {
            Self::Buffer(b) => Some(b.raw),
            _ => None,
        }
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
                offset: b.offset,
                size: wgpu::BufferSize::new(b.bytes.next_multiple_of(4)),
            }),
            Self::Texture(t) => wgpu::BindingResource::TextureView(t.view),
            Self::Sampler(s) => wgpu::BindingResource::Sampler(s.raw),
        }
    }
}
