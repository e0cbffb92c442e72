//! Rendering single-pixel particles with compute shaders and integer atomics instead of the
//! rasterizer (seed 003), next to a rasterized baseline that draws the same picture.
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
//! The CPU twin is [`twin`]; the scenes are [`scene`].

mod raster;
pub mod scene;
#[cfg(test)]
mod tests;
pub mod twin;

use std::sync::atomic::{AtomicU64, Ordering};

use glam::{Mat4, UVec4, Vec4};
use shoal::{Bindable, Buffer, Commands, Error, Gpu, Kernel, Result, Source, Usage, wgpu};

pub use scene::{Camera, SceneData, SceneKind};

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
pub(crate) const COMMON: Source = shoal::wgsl!("../../../../wgsl/splat_common.wgsl");

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

/// `SplatParams` in `splat_common.wgsl`.
#[derive(Debug, Clone, Copy, encase::ShaderType)]
struct SplatParams {
    view_proj: Mat4,
    scale: Vec4,
    size: UVec4,
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

/// The WGSL files the splatter is compiled from; [`SplatSources::default`] holds the ones built
/// into the crate. Hot reload replaces one at a time with [`SplatSources::set`].
#[derive(Debug, Clone)]
pub struct SplatSources {
    /// `wgsl/splat.wgsl`: the clear, the coarse depth level, the 2 x u32 splat, the projection
    /// and the depth copy.
    pub splat: Source,
    /// `wgsl/splat_int64.wgsl`: the 64-bit splat (compiled only for [`Packing::Int64`]).
    pub int64: Source,
    /// `wgsl/splat_common.wgsl`: the `splat::common` snippet every pass imports, the render
    /// pipelines' included.
    pub common: Source,
}

impl Default for SplatSources {
    /// The files as the crate was built with them.
    fn default() -> Self {
        Self {
            splat: shoal::wgsl!("../../../../wgsl/splat.wgsl"),
            int64: shoal::wgsl!("../../../../wgsl/splat_int64.wgsl"),
            common: COMMON,
        }
    }
}

impl SplatSources {
    /// Replaces the file `source` is an edited copy of, told by the file name of its
    /// [`path`](Source::path): `splat.wgsl`, `splat_int64.wgsl` or `splat_common.wgsl`. Any
    /// other name is [`Error::InvalidParameter`] and changes nothing.
    pub fn set(&mut self, source: Source) -> Result<()> {
        let name = source.path().rsplit(['/', '\\']).next().unwrap_or_default();
        let slot = match name {
            "splat.wgsl" => &mut self.splat,
            "splat_int64.wgsl" => &mut self.int64,
            "splat_common.wgsl" => &mut self.common,
            _ => {
                return Err(Error::InvalidParameter {
                    kernel: "Splat".into(),
                    parameter: "source".into(),
                    value: source.path().into(),
                    rule: "an edited splat.wgsl, splat_int64.wgsl or splat_common.wgsl".into(),
                });
            }
        };
        *slot = source;
        Ok(())
    }
}

/// The compute splatter, its composite, and the rasterized baseline, compiled once.
#[derive(Debug)]
pub struct Splat {
    gpu: Gpu,
    packing: Packing,
    sources: SplatSources,
    kernels: Kernels,
}

/// Everything compiled from a [`SplatSources`].
#[derive(Debug)]
struct Kernels {
    clear: Kernel,
    hiz: Kernel,
    project: Kernel,
    copy_depth: Kernel,
    splat: Kernel,
    raster: raster::Pipelines,
}

impl Kernels {
    /// Compiles every kernel and pipeline from `sources`, or fails on the first error.
    fn new(gpu: &Gpu, sources: &SplatSources, packing: Packing) -> Result<Self> {
        let wg = gpu.max_workgroup_1d(256);
        let builder = |source: &Source, entry: &str| {
            gpu.kernel_builder(
                source
                    .clone()
                    .snippet("splat::common", sources.common.clone()),
            )
            .entry(entry)
        };
        let kernel =
            |source: &Source, entry: &str| builder(source, entry).constant("WG", wg).build();
        let main = &sources.splat;
        let splat = match packing {
            Packing::TwoU32 => kernel(main, "splat_u32")?,
            Packing::Int64 => kernel(&sources.int64, "splat_u64")?,
        };
        Ok(Self {
            clear: kernel(main, "clear_accum")?,
            hiz: builder(main, "build_hiz").build()?,
            project: kernel(main, "project_particles")?,
            copy_depth: builder(main, "copy_depth").build()?,
            splat,
            raster: raster::Pipelines::new(gpu, sources.common.text())?,
        })
    }
}

/// The per-resolution resources: HDR colour, depth, the coarse depth level and the per-pixel
/// integers.
#[derive(Debug)]
pub struct SplatTarget {
    width: u32,
    height: u32,
    hdr: wgpu::Texture,
    hdr_view: wgpu::TextureView,
    depth_view: DepthView,
    hiz: Buffer<f32>,
    accum: Buffer<[u32; 2]>,
}

/// A scene on the GPU: its camera's parameters, particles and opaque triangles.
#[derive(Debug)]
pub struct Scene {
    camera: Camera,
    params: Buffer<SplatParams>,
    particles: Buffer<Particle>,
    geometry: Buffer<Vertex>,
}

/// The depth texture as a kernel binding (`texture_2d<f32>`), until Shoal has an image type.
#[derive(Debug)]
struct DepthView {
    view: wgpu::TextureView,
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

impl Splat {
    /// Compiles the kernels for `packing`, or for the best the adapter has when `None`: 64-bit
    /// where [`Gpu::has_int64_atomics`], else 2 x u32 ([`Splat::packing`] says which). Asking for
    /// [`Packing::Int64`] on an adapter without 64-bit atomics is [`Error::MissingFeature`].
    pub fn new(gpu: &Gpu, packing: Option<Packing>) -> Result<Self> {
        Self::from_source(gpu, SplatSources::default(), packing)
    }

    /// A splatter like [`Splat::new`] compiled from `sources`, edited copies of the files with
    /// the same entry points and bindings (hot reload). A WGSL error is [`Error::Wgsl`] naming
    /// the file (the snippet's own for an error in `splat_common.wgsl`) and line.
    pub fn from_source(gpu: &Gpu, sources: SplatSources, packing: Option<Packing>) -> Result<Self> {
        let packing = packing.unwrap_or(if gpu.has_int64_atomics() {
            Packing::Int64
        } else {
            Packing::TwoU32
        });
        Ok(Self {
            gpu: gpu.clone(),
            packing,
            kernels: Kernels::new(gpu, &sources, packing)?,
            sources,
        })
    }

    /// Replaces one file of the splatter's sources (see [`SplatSources::set`]) and rebuilds
    /// every kernel and render pipeline from the set, keeping the packing. Only when all of them
    /// compile do they replace the old ones; on an error the old kernels stay, and the new text
    /// is still kept among the sources (it is what the file on disk says), so a later edit of
    /// another file is built together with it.
    pub fn set_source(&mut self, source: impl Into<Source>) -> Result<()> {
        self.sources.set(source.into())?;
        self.kernels = Kernels::new(&self.gpu, &self.sources, self.packing)?;
        Ok(())
    }

    /// The sources the splatter's kernels were last asked to compile from.
    pub fn sources(&self) -> &SplatSources {
        &self.sources
    }

    /// The packing this splatter adds with.
    pub fn packing(&self) -> Packing {
        self.packing
    }

    /// The textures and buffers for a `width` x `height` image.
    pub fn target(&self, width: u32, height: u32) -> Result<SplatTarget> {
        let max = self.gpu.device().limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(Error::Wgpu {
                context: "creating a splat target".into(),
                message: format!(
                    "{width} x {height} pixels: each side must be 1..={max} on this device"
                ),
            });
        }
        let texture = |label: &str, format, usage| {
            self.gpu.device().create_texture(&wgpu::TextureDescriptor {
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
        Ok(SplatTarget {
            width,
            height,
            hdr_view: hdr.create_view(&Default::default()),
            hdr,
            depth_view: DepthView {
                view: depth.create_view(&Default::default()),
                id: NEXT_VIEW_ID.fetch_add(1, Ordering::Relaxed),
            },
            hiz: self.gpu.buffer_zeroed(tiles)?,
            accum: self
                .gpu
                .buffer_zeroed(u64::from(width) * u64::from(height))?,
        })
    }

    /// Uploads a scene: its particles (usable as a vertex buffer too), triangles and camera.
    pub fn upload(&self, scene: &SceneData) -> Result<Scene> {
        let c = &scene.camera;
        let s = twin::scale();
        let params = SplatParams {
            view_proj: c.view_proj,
            scale: Vec4::new(s[0], s[1], s[2], c.focal_px),
            size: UVec4::new(
                c.width,
                c.height,
                c.width.div_ceil(TILE),
                c.height.div_ceil(TILE),
            ),
        };
        Ok(Scene {
            camera: *c,
            params: self.gpu.uniform(&params)?,
            particles: self
                .gpu
                .buffer_from_with(&scene.particles, Usage::STORAGE | Usage::VERTEX)?,
            // An empty `buffer_from_with` trips a wgpu range check in Shoal 0.1: ask for zero elements.
            geometry: if scene.geometry.is_empty() {
                self.gpu.buffer_zeroed_with(0, Usage::VERTEX)?
            } else {
                self.gpu.buffer_from_with(&scene.geometry, Usage::VERTEX)?
            },
        })
    }

    fn check(target: &SplatTarget, scene: &Scene) -> Result<()> {
        let (w, h) = (scene.camera.width, scene.camera.height);
        if (w, h) != (target.width, target.height) {
            return Err(Error::Length {
                what: format!(
                    "splatting a scene made for {w} x {h} into a {} x {} target",
                    target.width, target.height
                ),
                expected: u64::from(target.width) * u64::from(target.height),
                got: u64::from(w) * u64::from(h),
            });
        }
        Ok(())
    }

    /// Records the opaque scene: clears colour and depth, draws the triangles (both paths need it).
    pub fn record_geometry(
        &self,
        commands: &mut Commands,
        target: &SplatTarget,
        scene: &Scene,
    ) -> Result<()> {
        Self::check(target, scene)?;
        self.kernels
            .raster
            .geometry_pass(&self.gpu, commands.encoder(), target, scene);
        Ok(())
    }

    /// Records the compute path after [`record_geometry`](Self::record_geometry): clear, coarse
    /// depth, splat, composite. The dispatches are timed by a [`profiled`](Commands::profiled)
    /// batch; `composite_timestamps` times the composite's render pass.
    pub fn record_compute(
        &self,
        commands: &mut Commands,
        target: &SplatTarget,
        scene: &Scene,
        composite_timestamps: Option<wgpu::RenderPassTimestampWrites<'_>>,
    ) -> Result<()> {
        Self::check(target, scene)?;
        self.kernels
            .clear
            .bind("accum_words", &target.accum)
            .invocations(target.accum.len())
            .record(commands)?;
        self.kernels
            .hiz
            .bind("params", &scene.params)
            .bind("scene_depth", &target.depth_view)
            .bind("hiz_out", &target.hiz)
            .groups([target.width.div_ceil(TILE), target.height.div_ceil(TILE), 1])
            .record(commands)?;
        if !scene.particles.is_empty() {
            self.kernels
                .splat
                .bind("params", &scene.params)
                .bind("particles", &scene.particles)
                .bind("scene_depth", &target.depth_view)
                .bind("hiz", &target.hiz)
                .bind("accum", &target.accum)
                .invocations(scene.particles.len())
                .record(commands)?;
        }
        self.kernels.raster.composite_pass(
            &self.gpu,
            commands.encoder(),
            target,
            scene,
            composite_timestamps,
        );
        Ok(())
    }

    /// Records the rasterized baseline after [`record_geometry`](Self::record_geometry): the
    /// particles as a point list, depth-tested without writes, blended One + One into the HDR
    /// target. `timestamps` times its render pass.
    pub fn record_raster(
        &self,
        commands: &mut Commands,
        target: &SplatTarget,
        scene: &Scene,
        timestamps: Option<wgpu::RenderPassTimestampWrites<'_>>,
    ) -> Result<()> {
        Self::check(target, scene)?;
        self.kernels
            .raster
            .particle_pass(&self.gpu, commands.encoder(), target, scene, timestamps);
        Ok(())
    }

    /// Records `project_particles`: each particle's fragment (`[status, r, g, b]`, see
    /// [`twin::Fragment`]) into `out`, as the splat kernels compute it. Needs the coarse depth
    /// level, so record it after [`record_compute`](Self::record_compute).
    pub fn record_projection(
        &self,
        commands: &mut Commands,
        target: &SplatTarget,
        scene: &Scene,
        out: &Buffer<[u32; 4]>,
    ) -> Result<()> {
        Self::check(target, scene)?;
        if scene.particles.is_empty() {
            return Ok(());
        }
        self.kernels
            .project
            .bind("params", &scene.params)
            .bind("particles", &scene.particles)
            .bind("scene_depth", &target.depth_view)
            .bind("hiz", &target.hiz)
            .bind("projected", out)
            .invocations(scene.particles.len())
            .record(commands)
    }

    /// The depth buffer of `target` as `scene`'s opaque geometry left it, row-major.
    pub async fn read_depth(&self, target: &SplatTarget, scene: &Scene) -> Result<Vec<f32>> {
        Self::check(target, scene)?;
        let out = self
            .gpu
            .buffer_zeroed::<f32>(u64::from(target.width) * u64::from(target.height))?;
        self.kernels
            .copy_depth
            .bind("params", &scene.params)
            .bind("scene_depth", &target.depth_view)
            .bind("depth_out", &out)
            .invocations_2d([target.width, target.height])
            .run()?;
        out.read().await
    }

    /// Draws `scene` into `target` by the compute path (`compute = true`) or the rasterizer, and
    /// waits for it.
    pub async fn render(&self, target: &SplatTarget, scene: &Scene, compute: bool) -> Result<()> {
        let mut commands = self.gpu.commands();
        self.record_geometry(&mut commands, target, scene)?;
        if compute {
            self.record_compute(&mut commands, target, scene, None)?;
        } else {
            self.record_raster(&mut commands, target, scene, None)?;
        }
        commands.submit()?.wait().await
    }
}

impl Scene {
    /// The camera the scene was made with.
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// Number of particles.
    pub fn len(&self) -> u64 {
        self.particles.len()
    }

    /// Whether there are no particles.
    pub fn is_empty(&self) -> bool {
        self.particles.is_empty()
    }
}

impl SplatTarget {
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
