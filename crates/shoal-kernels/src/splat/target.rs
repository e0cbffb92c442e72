//! [`SplatTarget`]: the per-resolution resources a frame is drawn into — the HDR colour and the
//! depth textures, the coarse depth level and the per-pixel integers.

use std::sync::atomic::{AtomicU64, Ordering};

use shoal::{Bindable, Buffer, Error, Gpu, Result, Usage, wgpu};

use super::{DEPTH_FORMAT, HDR_FORMAT, TILE, twin};

/// The per-resolution resources: HDR colour, depth, the coarse depth level and the per-pixel
/// integers. Made by [`Splat::target`](super::Splat::target).
#[derive(Debug)]
pub struct SplatTarget {
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) hdr: wgpu::Texture,
    pub(super) hdr_view: wgpu::TextureView,
    pub(super) depth_view: DepthView,
    pub(super) hiz: Buffer<f32>,
    pub(super) accum: Buffer<[u32; 2]>,
}

/// The depth texture as a kernel binding (`texture_2d<f32>`), until Shoal has an image type.
#[derive(Debug)]
pub(super) struct DepthView {
    pub(super) view: wgpu::TextureView,
    id: u64,
}

/// Identities for the bind-group cache, far above the ones Shoal hands its own resources.
static NEXT_VIEW_ID: AtomicU64 = AtomicU64::new(1 << 48);

impl Bindable for DepthView {
    fn resource(&self) -> shoal::Resource<'_> {
        shoal::Resource::Texture(shoal::TextureResource {
            view: &self.view,
            id: self.id,
            format: DEPTH_FORMAT,
            usage: depth_usage(),
            dimension: wgpu::TextureViewDimension::D2,
            sample_count: 1,
        })
    }
}

fn depth_usage() -> wgpu::TextureUsages {
    wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING
}

impl SplatTarget {
    /// The textures and buffers for a `width` x `height` image.
    pub(super) fn new(gpu: &Gpu, width: u32, height: u32) -> Result<Self> {
        let max = gpu.device().limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(Error::Wgpu {
                context: "creating a splat target".into(),
                message: format!(
                    "{width} x {height} pixels: each side must be 1..={max} on this device"
                ),
            });
        }
        let texture = |label: &str, format, usage| {
            gpu.device().create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
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
        };
        let hdr = texture(
            "splat hdr",
            HDR_FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        );
        let depth = texture("splat depth", DEPTH_FORMAT, depth_usage());
        let tiles = u64::from(width.div_ceil(TILE)) * u64::from(height.div_ceil(TILE));
        Ok(Self {
            width,
            height,
            hdr_view: hdr.create_view(&Default::default()),
            hdr,
            depth_view: DepthView {
                view: depth.create_view(&Default::default()),
                id: NEXT_VIEW_ID.fetch_add(1, Ordering::Relaxed),
            },
            hiz: gpu.buffer_zeroed(tiles)?,
            accum: gpu.buffer_zeroed(u64::from(width) * u64::from(height))?,
        })
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The HDR colour texture (rgba16float).
    pub fn hdr(&self) -> &wgpu::Texture {
        &self.hdr
    }

    /// The per-pixel words `[lo, hi]` of the last compute frame, row-major.
    pub async fn read_accum(&self) -> Result<Vec<[u32; 2]>> {
        self.accum.read().await
    }

    /// The coarse depth level of the last compute frame, `ceil(w/16) x ceil(h/16)`, row-major.
    pub async fn read_hiz(&self) -> Result<Vec<f32>> {
        self.hiz.read().await
    }

    /// The HDR colour, row-major RGBA.
    pub async fn read_hdr(&self) -> Result<Vec<[f32; 4]>> {
        let texels: Vec<[u32; 2]> = self.read_texture(&self.hdr, 8).await?;
        Ok(texels
            .into_iter()
            .map(|[a, b]| {
                [a as u16, (a >> 16) as u16, b as u16, (b >> 16) as u16].map(twin::f16_to_f32)
            })
            .collect())
    }

    /// Copies a whole colour texture of `texel` bytes per texel into a buffer of `T` (one per texel)
    /// with rows padded to wgpu's 256 bytes, reads it, and drops the padding.
    async fn read_texture<T: shoal::Element + Copy>(
        &self,
        texture: &wgpu::Texture,
        texel: u32,
    ) -> Result<Vec<T>> {
        let gpu = self.accum.gpu();
        let row = (self.width * texel).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let per_row = (row / texel) as usize;
        let staging: Buffer<T> = gpu.buffer_zeroed_with(
            u64::from(row / texel) * u64::from(self.height),
            Usage::empty(),
        )?;
        let mut commands = gpu.commands();
        commands.encoder().copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: staging.raw(),
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: Some(self.height),
                },
            },
            wgpu::Extent3d {
                width: self.width,
                height: self.height,
                depth_or_array_layers: 1,
            },
        );
        commands.submit()?.wait().await?;
        let padded = staging.read().await?;
        Ok(padded
            .chunks(per_row)
            .flat_map(|r| r[..self.width as usize].iter().copied())
            .collect())
    }
}
