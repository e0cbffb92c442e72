//! [`Image`]: a 2D texture kernels read and write as a storage image (`texture_storage_2d`) or
//! sample (`texture_2d` with a [`Sampler`](crate::Sampler)), uploaded from and read back into
//! tightly packed `Vec`s of [`Texel`]s. With `RENDER_ATTACHMENT` usage a render pass draws into
//! its [`view`](Image::view), as colour or, for a depth format, as the depth buffer.
//!
//! Copies between textures and buffers want rows aligned to 256 bytes
//! (`COPY_BYTES_PER_ROW_ALIGNMENT`); the caller never sees that: uploads go through
//! `queue.write_texture`, which takes any row pitch, and readbacks copy into padded rows of a
//! pooled staging buffer and strip the padding.
//!
//! **Depth images** (`Depth32Float`) are filled by render passes, never from the host (WebGPU
//! forbids copies into them). Kernels bind them as `texture_2d<f32>` — not `texture_depth_2d`,
//! whose `textureLoad` fails on GL — and [`Image::read`] reads them as `f32` through a small
//! kernel (`wgsl/core/read_depth.wgsl`), because GL cannot copy a depth texture into a buffer.

use std::sync::{Arc, OnceLock};

use crate::binding::{Bindable, Resource, TextureResource};
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::identity::ResourceId;
use crate::kernel::Kernel;
use crate::readback;

/// A texel as the host holds it: a plain value whose bytes are one texel of the formats it fits.
///
/// | format | texel type |
/// |---|---|
/// | `Rgba8Unorm`, `Rgba8UnormSrgb`, `Bgra8Unorm`, `Rgba8Snorm`, `Rgba8Uint`, `Rgba8Sint` | `[u8; 4]` |
/// | `Rgba16Float` | `[half::f16; 4]` |
/// | `Rgba16Uint` | `[u16; 4]` |
/// | `Rgba32Float` | `[f32; 4]`, `glam::Vec4` |
/// | `Rgba32Uint` | `[u32; 4]` |
/// | `Rgba32Sint` | `[i32; 4]` |
/// | `R32Float`, `Depth32Float` | `f32` |
/// | `R32Uint` | `u32` |
/// | `R32Sint` | `i32` |
///
/// Another type is a compile error naming it in one line:
///
/// ```compile_fail
/// # fn f(image: &shoal::Image) -> Result<(), shoal::Error> {
/// let texels = image.read_blocking::<[f64; 4]>()?; // `[f64; 4]` is not a Shoal `Texel`
/// # Ok(()) }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a Shoal `Texel`: no texture format's texel is one",
    label = "not a `Texel`",
    note = "texels are [u8; 4], [half::f16; 4], [u16; 4], [f32; 4], glam::Vec4, [u32; 4], \
            [i32; 4], f32, u32 and i32; the table on `shoal::Texel` says which formats each fits"
)]
pub trait Texel: bytemuck::Pod + Send + Sync + 'static {
    /// Whether one texel of `format` is one `Self`.
    fn fits(format: wgpu::TextureFormat) -> bool;
}

macro_rules! texels {
    ($($t:ty => $($f:ident)|+;)+) => {$(
        impl Texel for $t {
            fn fits(format: wgpu::TextureFormat) -> bool {
                matches!(format, $(wgpu::TextureFormat::$f)|+)
            }
        }
    )+};
}

texels! {
    [u8; 4] => Rgba8Unorm | Rgba8UnormSrgb | Bgra8Unorm | Bgra8UnormSrgb | Rgba8Snorm | Rgba8Uint | Rgba8Sint;
    [half::f16; 4] => Rgba16Float;
    [u16; 4] => Rgba16Uint;
    [f32; 4] => Rgba32Float;
    glam::Vec4 => Rgba32Float;
    [u32; 4] => Rgba32Uint;
    [i32; 4] => Rgba32Sint;
    f32 => R32Float | Depth32Float;
    u32 => R32Uint;
    i32 => R32Sint;
}

/// The host type that holds one texel of `format`, for messages.
fn texel_type(format: wgpu::TextureFormat) -> &'static str {
    use wgpu::TextureFormat as F;
    match format {
        F::Rgba8Unorm
        | F::Rgba8UnormSrgb
        | F::Bgra8Unorm
        | F::Bgra8UnormSrgb
        | F::Rgba8Snorm
        | F::Rgba8Uint
        | F::Rgba8Sint => "[u8; 4]",
        F::Rgba16Float => "[half::f16; 4]",
        F::Rgba16Uint => "[u16; 4]",
        F::Rgba32Float => "[f32; 4] or glam::Vec4",
        F::Rgba32Uint => "[u32; 4]",
        F::Rgba32Sint => "[i32; 4]",
        F::R32Float | F::Depth32Float => "f32",
        f if f.is_depth_stencil_format() => {
            "none: among depth and stencil formats only depth32float is read back"
        }
        F::R32Uint => "u32",
        F::R32Sint => "i32",
        _ => "raw bytes (write_bytes / read_bytes)",
    }
}

/// The WGSL spelling of a texel format (`rgba32float`), for messages.
pub(crate) fn format_name(format: wgpu::TextureFormat) -> String {
    format!("{format:?}").to_ascii_lowercase()
}

/// A 2D image on the GPU.
///
/// Cheap to clone: clones are the same texture.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal::wgpu::TextureFormat;
/// let gpu = shoal::Gpu::blocking()?;
/// let image = gpu.image_zeroed(3, 2, TextureFormat::Rgba32Float)?;
/// let kernel = gpu.kernel("
///     @group(0) @binding(0) var img: texture_storage_2d<rgba32float, write>;
///     @compute @workgroup_size(8, 8)
///     fn coords(@builtin(global_invocation_id) id: vec3<u32>) {
///         if all(id.xy < textureDimensions(img)) {
///             textureStore(img, id.xy, vec4<f32>(f32(id.x), f32(id.y), 0.0, 1.0));
///         }
///     }")?;
/// kernel.bind("img", &image).invocations_2d([3, 2]).run()?;
/// let texels: Vec<[f32; 4]> = image.read_blocking()?; // row by row, row pitch handled
/// assert_eq!(texels[4], [1.0, 1.0, 0.0, 1.0]);
/// # Ok(()) }
/// ```
pub struct Image {
    gpu: Gpu,
    raw: wgpu::Texture,
    view: wgpu::TextureView,
    id: Arc<ResourceId>,
    /// The kernel that reads a depth image back, compiled on the first read (clones share it).
    read_depth: Arc<OnceLock<Kernel>>,
    /// Held while the fields above drop: on GL, deleting a texture takes wgpu's context lock,
    /// so it waits for the GL turn like every other call (`wait.rs`). Declared last.
    dropping: Option<crate::turn::Turn>,
}

impl Drop for Image {
    fn drop(&mut self) {
        self.dropping = Some(self.gpu.turn());
    }
}

impl Clone for Image {
    fn clone(&self) -> Self {
        Self {
            gpu: self.gpu.clone(),
            raw: self.raw.clone(),
            view: self.view.clone(),
            id: Arc::clone(&self.id),
            read_depth: Arc::clone(&self.read_depth),
            dropping: None,
        }
    }
}

impl std::fmt::Debug for Image {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Image")
            .field("width", &self.width())
            .field("height", &self.height())
            .field("format", &self.format())
            .field("usage", &self.usage())
            .finish()
    }
}

impl Gpu {
    /// What the device allows for `format`: usages, storage access modes, filtering.
    ///
    /// With `TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES` (which Shoal requests where the adapter
    /// has it) the adapter's own answer, otherwise what WebGPU guarantees; nothing for a format
    /// whose device features this device lacks (`r64uint` without 64-bit texture atomics, the
    /// 16-bit norm formats in the browser: WebGPU has no such formats, and wgpu's browser
    /// backend panics when asked about them).
    pub fn format_features(&self, format: wgpu::TextureFormat) -> wgpu::TextureFormatFeatures {
        if !self.features().contains(format.required_features()) {
            return wgpu::TextureFormatFeatures {
                allowed_usages: wgpu::TextureUsages::empty(),
                flags: wgpu::TextureFormatFeatureFlags::empty(),
            };
        }
        match self.adapter() {
            Some(adapter)
                if self
                    .features()
                    .contains(wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES) =>
            {
                adapter.get_texture_format_features(format)
            }
            _ => format.guaranteed_format_features(self.features()),
        }
    }

    /// Whether a filtering sampler may sample `format` on this device (32-bit float formats
    /// need `FLOAT32_FILTERABLE`), as wgpu decides it when binding.
    pub fn is_filterable(&self, format: wgpu::TextureFormat) -> bool {
        let features = self.features();
        if format.sample_type(None, Some(features))
            == Some(wgpu::TextureSampleType::Float { filterable: true })
        {
            return true;
        }
        let float32 = matches!(
            format,
            wgpu::TextureFormat::R32Float
                | wgpu::TextureFormat::Rg32Float
                | wgpu::TextureFormat::Rgba32Float
        );
        (!float32 || features.contains(wgpu::Features::FLOAT32_FILTERABLE))
            && self
                .format_features(format)
                .flags
                .contains(wgpu::TextureFormatFeatureFlags::FILTERABLE)
    }

    /// A `width` x `height` image of `format`, zeroed, usable as a storage image (where the
    /// format allows it on this device), a sampled texture, and a copy source and destination.
    pub fn image_zeroed(
        &self,
        width: u32,
        height: u32,
        format: wgpu::TextureFormat,
    ) -> Result<Image> {
        let allowed = self.format_features(format).allowed_usages;
        let usage = wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::COPY_DST
            | (allowed & wgpu::TextureUsages::STORAGE_BINDING);
        self.image_zeroed_with(width, height, format, usage)
    }

    /// An image holding `texels` (row by row, tightly packed: `width * height` of them).
    pub fn image_from<T: Texel>(
        &self,
        width: u32,
        height: u32,
        format: wgpu::TextureFormat,
        texels: &[T],
    ) -> Result<Image> {
        check_texel::<T>(format)?;
        let image = self.image_zeroed(width, height, format)?;
        image.write(texels)?;
        Ok(image)
    }

    /// A zeroed image with exactly the given usages (copies are always added, and a depth
    /// format also gets `TEXTURE_BINDING`, which reading it back needs).
    ///
    /// A depth buffer a render pass draws into and kernels then read is
    /// `gpu.image_zeroed_with(w, h, TextureFormat::Depth32Float, TextureUsages::RENDER_ATTACHMENT)`; a
    /// colour target a render pass draws into and a later pass samples adds `TEXTURE_BINDING`.
    pub fn image_zeroed_with(
        &self,
        width: u32,
        height: u32,
        format: wgpu::TextureFormat,
        usage: wgpu::TextureUsages,
    ) -> Result<Image> {
        let limit = self.device().limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > limit || height > limit {
            return Err(Error::ImageSize {
                width,
                height,
                limit,
            });
        }
        check_format(self, width, height, format)?;
        let mut usage = usage | wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::COPY_DST;
        if format.is_depth_stencil_format() {
            usage |= wgpu::TextureUsages::TEXTURE_BINDING;
        }
        let allowed = self.format_features(format).allowed_usages;
        if !allowed.contains(usage) {
            return Err(Error::ImageUsage {
                format: format_name(format),
                usage: format!("{:?}", usage - allowed),
            });
        }
        let raw = self.scoped("creating an image", || {
            self.device().create_texture(&wgpu::TextureDescriptor {
                label: Some("shoal image"),
                size: wgpu::Extent3d {
                    width,
                    height,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        })?;
        let view = raw.create_view(&wgpu::TextureViewDescriptor::default());
        Ok(Image {
            gpu: self.clone(),
            raw,
            view,
            id: Arc::new(self.resource_id()),
            read_depth: Arc::default(),
            dropping: None,
        })
    }
}

/// A format the device has not enabled (compressed, multi-planar) or a size that is not a
/// multiple of the format's blocks: refused before wgpu, whose validation would say it later.
fn check_format(gpu: &Gpu, width: u32, height: u32, format: wgpu::TextureFormat) -> Result<()> {
    let invalid = |parameter: &str, value: String, rule: String| Error::InvalidParameter {
        kernel: "an image".into(),
        parameter: parameter.into(),
        value,
        rule,
    };
    let missing = format.required_features() - gpu.features();
    if !missing.is_empty() {
        return Err(invalid(
            "format",
            format_name(format),
            format!(
                "it needs the device feature {missing}, which this device was not created with"
            ),
        ));
    }
    let (w, h) = format.size_multiple_requirement();
    if !width.is_multiple_of(w) || !height.is_multiple_of(h) {
        return Err(invalid(
            "size",
            format!("{width}x{height}"),
            format!(
                "{} images need sides that are multiples of {w}x{h}",
                format_name(format)
            ),
        ));
    }
    Ok(())
}

fn check_texel<T: Texel>(format: wgpu::TextureFormat) -> Result<()> {
    if T::fits(format) && format.block_copy_size(None) == Some(std::mem::size_of::<T>() as u32) {
        Ok(())
    } else {
        Err(Error::TexelType {
            format: format_name(format),
            expected: texel_type(format),
            got: std::any::type_name::<T>(),
        })
    }
}

impl Image {
    /// Width in texels.
    pub fn width(&self) -> u32 {
        self.raw.width()
    }

    /// Height in texels.
    pub fn height(&self) -> u32 {
        self.raw.height()
    }

    /// `[width, height]`, what `.invocations_2d(..)` takes to cover every texel.
    pub fn size(&self) -> [u32; 2] {
        [self.width(), self.height()]
    }

    /// The texel format.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.raw.format()
    }

    /// The texture's usages.
    pub fn usage(&self) -> wgpu::TextureUsages {
        self.raw.usage()
    }

    /// The wgpu texture.
    pub fn raw(&self) -> &wgpu::Texture {
        &self.raw
    }

    /// The view of the whole image: the one kernels bind, a render pass samples to draw the
    /// image, and a render pass draws into (a colour attachment, or the depth attachment of a
    /// depth image; either needs `RENDER_ATTACHMENT` usage).
    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }

    /// The device the image lives on.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// Bytes of one texel.
    pub fn texel_bytes(&self) -> u32 {
        self.format().block_copy_size(None).unwrap_or(0)
    }

    /// Texels in the image.
    pub fn texels(&self) -> usize {
        self.width() as usize * self.height() as usize
    }

    /// Overwrites every texel with `texels` (row by row, `width * height` of them).
    pub fn write<T: Texel>(&self, texels: &[T]) -> Result<()> {
        check_texel::<T>(self.format())?;
        self.write_bytes(bytemuck::cast_slice(texels))
    }

    /// Overwrites every texel from tightly packed bytes (`width * texel_bytes` per row).
    ///
    /// A depth image cannot be written from the host (render passes fill it):
    /// [`Error::InvalidParameter`].
    pub fn write_bytes(&self, bytes: &[u8]) -> Result<()> {
        if self.format().is_depth_stencil_format() {
            return Err(self.depth_only("writing", "a render pass fills it (clear or draw)"));
        }
        let row = self.width() as u64 * self.texel_bytes() as u64;
        let expected = row * self.height() as u64;
        if bytes.len() as u64 != expected {
            return Err(Error::Length {
                what: format!(
                    "writing a {}x{} {} image (bytes)",
                    self.width(),
                    self.height(),
                    format_name(self.format())
                ),
                expected,
                got: bytes.len() as u64,
            });
        }
        self.gpu.scoped("writing an image", || {
            // write_texture takes any row pitch: the tight rows go as they are.
            self.gpu.queue().write_texture(
                self.raw.as_image_copy(),
                bytes,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row as u32),
                    rows_per_image: Some(self.height()),
                },
                self.raw.size(),
            )
        })
    }

    /// Reads every texel back, row by row (a `Depth32Float` image as `f32`).
    pub async fn read<T: Texel>(&self) -> Result<Vec<T>> {
        check_texel::<T>(self.format())?;
        let bytes = self.read_bytes().await?;
        // The bytes come in a fresh Vec<u8> whose alignment may be below T's: copy per texel.
        Ok(bytes
            .chunks_exact(std::mem::size_of::<T>())
            .map(bytemuck::pod_read_unaligned)
            .collect())
    }

    /// Reads every texel back as tightly packed bytes (`width * texel_bytes` per row).
    ///
    /// A `Depth32Float` image is read by a kernel on every backend (see the module docs); other
    /// depth and stencil formats are [`Error::InvalidParameter`].
    pub async fn read_bytes(&self) -> Result<Vec<u8>> {
        match self.format() {
            wgpu::TextureFormat::Depth32Float => return self.read_depth().await,
            f if f.is_depth_stencil_format() => {
                return Err(self.depth_only("reading", "only depth32float reads back"));
            }
            _ => {}
        }
        let row = self.width() as u64 * self.texel_bytes() as u64;
        let pitch = row.next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT as u64);
        let height = self.height() as u64;
        let padded = readback::read_staged(&self.gpu, pitch * height, |encoder, staging| {
            encoder.copy_texture_to_buffer(
                self.raw.as_image_copy(),
                wgpu::TexelCopyBufferInfo {
                    buffer: staging,
                    layout: wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(pitch as u32),
                        rows_per_image: Some(self.height()),
                    },
                },
                self.raw.size(),
            );
        })
        .await?;
        let mut tight = Vec::with_capacity((row * height) as usize);
        for line in padded.chunks_exact(pitch as usize).take(height as usize) {
            tight.extend_from_slice(&line[..row as usize]);
        }
        Ok(tight)
    }

    /// A depth image's texels, loaded into a buffer by `wgsl/core/read_depth.wgsl`.
    async fn read_depth(&self) -> Result<Vec<u8>> {
        let kernel = match self.read_depth.get() {
            Some(k) => k,
            None => {
                let built = self
                    .gpu
                    .kernel(crate::wgsl!("../wgsl/core/read_depth.wgsl"))?;
                self.read_depth.get_or_init(|| built)
            }
        };
        let texels = self.gpu.buffer_zeroed::<f32>(self.texels() as u64)?;
        kernel
            .bind("depth", self)
            .bind("texels", &texels)
            .invocations_2d(self.size())
            .run()?;
        Ok(bytemuck::cast_slice(&texels.read().await?).to_vec())
    }

    /// The error for a host copy a depth (or stencil) image does not allow.
    fn depth_only(&self, doing: &str, rule: &str) -> Error {
        Error::InvalidParameter {
            kernel: format!("{doing} an Image"),
            parameter: "format".into(),
            value: format_name(self.format()),
            rule: format!("a depth image does not take host copies: {rule}"),
        }
    }

    /// Reads every texel back, blocking the thread (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn read_blocking<T: Texel>(&self) -> Result<Vec<T>> {
        pollster::block_on(self.read())
    }
}

impl Bindable for Image {
    fn resource(&self) -> Resource<'_> {
        Resource::Texture(TextureResource {
            view: &self.view,
            id: &self.id,
            format: self.format(),
            usage: self.usage(),
            dimension: wgpu::TextureViewDimension::D2,
            sample_count: 1,
        })
    }
}
