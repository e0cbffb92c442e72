//! [`SplatTarget`]: the per-resolution resources a frame is drawn into — the HDR colour and the
//! depth buffer as core [`Image`]s, the coarse depth level and the per-pixel integers.

use shoal::half::f16;
use shoal::{Buffer, Gpu, Image, Result, wgpu};

use super::{DEPTH_FORMAT, HDR_FORMAT, TILE};

/// The per-resolution resources: HDR colour, depth, the coarse depth level and the per-pixel
/// integers. Made by [`Splat::target`](super::Splat::target).
#[derive(Debug)]
pub struct SplatTarget {
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) hdr: Image,
    pub(super) depth: Image,
    pub(super) hiz: Buffer<f32>,
    pub(super) accum: Buffer<[u32; 2]>,
}

impl SplatTarget {
    /// The resources for `width` x `height` pixels; a side of 0 or above the device's
    /// `max_texture_dimension_2d` is [`shoal::Error::ImageSize`].
    pub(super) fn new(gpu: &Gpu, width: u32, height: u32) -> Result<Self> {
        use wgpu::TextureUsages as U;
        // Sampled too, so a later pass (a demo's tone map) can draw it without a copy.
        let hdr = gpu.image_zeroed_with(
            width,
            height,
            HDR_FORMAT,
            U::RENDER_ATTACHMENT | U::TEXTURE_BINDING,
        )?;
        // A depth image also gets TEXTURE_BINDING: the kernels read it.
        let depth = gpu.image_zeroed_with(width, height, DEPTH_FORMAT, U::RENDER_ATTACHMENT)?;
        let tiles = u64::from(width.div_ceil(TILE)) * u64::from(height.div_ceil(TILE));
        Ok(Self {
            width,
            height,
            hdr,
            depth,
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

    /// The HDR colour image ([`HDR_FORMAT`]): a render attachment, sampled by later passes.
    pub fn hdr(&self) -> &Image {
        &self.hdr
    }

    /// The depth image ([`DEPTH_FORMAT`]) the opaque scene fills and the kernels test against.
    pub fn depth(&self) -> &Image {
        &self.depth
    }

    /// The per-pixel words `[lo, hi]` of the last compute frame, row-major.
    pub async fn read_accum(&self) -> Result<Vec<[u32; 2]>> {
        self.accum.read().await
    }

    /// The coarse depth level of the last compute frame, `ceil(w/16) x ceil(h/16)`, row-major.
    pub async fn read_hiz(&self) -> Result<Vec<f32>> {
        self.hiz.read().await
    }

    /// The depth buffer as the last opaque pass left it, row-major.
    pub async fn read_depth(&self) -> Result<Vec<f32>> {
        self.depth.read().await
    }

    /// The HDR colour, row-major RGBA.
    pub async fn read_hdr(&self) -> Result<Vec<[f32; 4]>> {
        let texels: Vec<[f16; 4]> = self.hdr.read().await?;
        Ok(texels.into_iter().map(|t| t.map(f16::to_f32)).collect())
    }
}
