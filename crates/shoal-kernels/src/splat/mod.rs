//! Rendering single-pixel particles with compute shaders and integer atomics instead of the
//! rasterizer (the particle-rendering article), next to a rasterized baseline that draws the same picture.
//!
//! Per frame, after the opaque scene has filled the depth buffer, the compute path:
//! 1. clears a buffer of two `u32` per pixel (`clear_accum`);
//! 2. builds the coarse depth level, 1/16 x 1/16, each texel the minimum of the 256 it covers, in
//!    one dispatch (`build_hiz`);
//! 3. splats every particle (`splat_u32` or `splat_u64`): cull before the divide, window
//!    coordinates and the pixel, the coarse then (only when needed) the full depth test, the
//!    colour scaled by its projected area, quantised with [`E_MAX`] and added with atomics;
//! 4. composites: a full-screen triangle turns the integers back into colour and adds them to the
//!    rgba16float HDR target (additive blending One + One).
//!
//! **Packing.** Per pixel the same 8 bytes, `[lo, hi] = [Gl11B21, R21Gh11]`: R and B 21 bits, G
//! 22 bits split over the two words. [`Packing::TwoU32`] does the document's two independent
//! `atomicAdd`s and the rare third that carries G-low's overflow; [`Packing::Int64`] does the
//! addendum's single 64-bit `atomicAdd` of R21G22B21 on the same bytes, where the adapter has
//! 64-bit atomics. Both unpack with one function.
//!
//! **Overflow** behaves as the document says: a channel whose per-pixel sum passes its `I_max`
//! wraps, and its carry lands in the next channel up (B into G, G into R); R's carry falls off
//! the top. One difference the document's shader has and its addendum does not mention: when B's
//! carry arrives while G-low holds 2047, the low word itself overflows, and the carry test (which
//! looks at the two G-low fields only) misses it, so 2 x u32 loses that one unit of G where the
//! 64-bit add keeps it. It needs B to overflow first, so it only happens where the picture is
//! already wrong. A single particle brighter than `E_MAX` saturates at `I_max` instead of
//! spilling into its neighbour channel on its own.
//!
//! **Resources.** The HDR colour and the depth buffer are [`shoal::Image`]s ([`SplatTarget::hdr`],
//! [`SplatTarget::depth`]): render passes draw into their views, the compute kernels bind the depth
//! image as `texture_2d<f32>` (GL cannot `textureLoad` a `texture_depth_2d`), and both read back
//! with [`Image::read`](shoal::Image::read).
//!
//! **Files.** The splatter is [`Splat`] (`splatter.rs`), compiled from [`SplatSources`]
//! (`sources.rs`); its operations are [`shoal::Record`] impls on [`SplatGeometryArgs`],
//! [`SplatFrameArgs`], [`SplatRasterArgs`] and [`SplatProjectionArgs`] (`ops.rs`); it draws
//! into a [`SplatTarget`] (`target.rs`) a [`Scene`] uploaded from [`SceneData`] (`upload.rs`);
//! the render pipelines (through the core's [`shoal::RenderModule`]) are in `raster.rs`. The CPU twin is
//! [`twin`]; the scenes are [`scene`].

mod ops;
mod raster;
pub mod scene;
mod sources;
mod splatter;
mod target;
#[cfg(test)]
mod tests;
pub mod twin;
mod upload;

use glam::Vec4;
use shoal::wgpu;

pub use ops::{SplatFrameArgs, SplatGeometryArgs, SplatProjectionArgs, SplatRasterArgs};
pub use scene::{Camera, SceneData, SceneKind};
pub use sources::SplatSources;
pub use splatter::Splat;
pub use target::SplatTarget;
pub use upload::Scene;

/// The float value that maps to the top of every channel's integer range (`c_i = round(c_f *
/// I_max / E_max)`). The document's HDR sums reach about 10; 16 leaves headroom and keeps the
/// step per unit of R and B at 16 / (2^21 - 1) = 7.6e-6, finer than an fp16 step above 0.0156.
pub const E_MAX: f32 = 16.0;

/// The integer ranges: R and B in 21 bits, G in 22 (the document's R21G22B21).
pub const I_MAX: [u32; 3] = [(1 << 21) - 1, (1 << 22) - 1, (1 << 21) - 1];

/// Pixels per side of a coarse depth texel (the document's level 4).
pub const TILE: u32 = 16;

/// The HDR target's format.
pub const HDR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

/// The depth buffer's format.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// `#import splat::common`: what every splatting pass shares (see [`crate::SNIPPETS`]).
pub(crate) const COMMON: shoal::Source = shoal::wgsl!("../../wgsl/splat_common.wgsl");

/// `#import splat::entry(NAME)`: the splat kernels' entry point, written once for the 2 x u32 and
/// the 64-bit packing, which differ only in their `splat_add`.
pub(crate) const ENTRY: shoal::Source = shoal::wgsl!("../../wgsl/splat_entry.wgsl");

/// One particle, as the compute kernels read it and as the rasterizer's vertex buffer.
#[derive(Debug, Clone, Copy, PartialEq, encase::ShaderType)]
pub struct Particle {
    /// xyz: world position; w: world size (the side of its footprint).
    pub position: Vec4,
    /// rgb: the colour it adds when it covers exactly one pixel; a: unused.
    pub color: Vec4,
}

/// One vertex of the opaque scene.
#[derive(Debug, Clone, Copy, PartialEq, encase::ShaderType)]
pub struct Vertex {
    /// xyz: world position; w: 1.
    pub position: Vec4,
    /// rgb: colour; a: unused.
    pub color: Vec4,
}

/// How the three channels are added per pixel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Packing {
    /// Two `u32` atomics (`R21Gh11`, `Gl11B21`) and the rare carry: every adapter.
    TwoU32,
    /// One 64-bit atomic (R21G22B21): adapters with `SHADER_INT64_ATOMIC_ALL_OPS`.
    Int64,
}

impl Packing {
    /// The document's row label.
    pub fn name(self) -> &'static str {
        match self {
            Self::TwoU32 => "compute (2 x u32)",
            Self::Int64 => "compute (1 x int64)",
        }
    }
}
