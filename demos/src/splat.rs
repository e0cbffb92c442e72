//! Rendering single-pixel particles with compute shaders and integer atomics (the particle-rendering article): the
//! 'normal' scene's particles splatted over its opaque geometry with 64-bit atomics where the
//! adapter has them (2 x u32 with the carry elsewhere), then composited into the frame —
//! tone-mapped `x / (1 + x)` and sRGB-encoded, as `docs/particles.md`'s pictures.
//! `--mode normal|spread|clumpy` picks the scene. `cargo run --release -p shoal-demos --bin
//! splat [-- --mode clumpy] [--headless --out splat.png]`.

use glam::Vec4;
use shoal::{Buffer, Commands, Error, Gpu, Record, RenderPipeline, wgpu};
use shoal_kernels::splat::{Packing, SceneData, SceneKind, Splat, SplatFrameArgs, SplatTarget};

use crate::cli::Options;
use crate::demo::Demo;
use crate::draw::{self, PipelineKind, Target};

/// Particles per pixel, the density of `docs/particles.md`'s pictures (125 000 on 412 x 444).
pub const PARTICLES_PER_PIXEL: f64 = 125_000.0 / (412.0 * 444.0);

/// The composite's tone map and sRGB encoding of one HDR texel, as `wgsl/demos/splat.wgsl`
/// computes it, to 8 bits (the CPU twin of the frame).
pub fn tone_map(hdr: [f32; 4]) -> [u8; 4] {
    let encode = |x: f32| {
        let v = x / (1.0 + x);
        let v = if v <= 0.003_130_8 {
            12.92 * v
        } else {
            1.055 * v.powf(1.0 / 2.4) - 0.055
        };
        (v.clamp(0.0, 1.0) * 255.0).round() as u8
    };
    [encode(hdr[0]), encode(hdr[1]), encode(hdr[2]), 255]
}

/// The demo (see the module docs).
pub struct SplatDemo {
    splat: Splat,
    target: SplatTarget,
    scene: shoal_kernels::splat::Scene,
    pipeline: RenderPipeline,
    uniform: Buffer<Vec4>,
    encode_srgb: bool,
}

impl SplatDemo {
    /// The kernel's HDR image of the last frame, row-major RGBA.
    pub async fn read_hdr(&self) -> Result<Vec<[f32; 4]>, Error> {
        self.target.read_hdr().await
    }

    /// Which packing the splatting adds with.
    pub fn packing(&self) -> Packing {
        self.splat.packing()
    }
}

impl Demo for SplatDemo {
    const NAME: &'static str = "splat";

    fn new(gpu: &Gpu, options: &Options, format: wgpu::TextureFormat) -> Result<Self, Error> {
        let mode = options.mode.as_deref().unwrap_or("normal");
        let kind = SceneKind::ALL
            .into_iter()
            .find(|k| k.name() == mode)
            .ok_or_else(|| Error::InvalidParameter {
                kernel: "splat demo".into(),
                parameter: "--mode".into(),
                value: mode.into(),
                rule: "one of normal, spread, clumpy".into(),
            })?;
        let [w, h] = options.size;
        let splat = Splat::new(gpu, None)?;
        let target = splat.target(w, h)?;
        let count = (PARTICLES_PER_PIXEL * f64::from(w) * f64::from(h)) as usize;
        let scene = splat.upload(&SceneData::generate(kind, w, h, count, 1))?;
        let pipeline = draw::pipeline(
            gpu,
            shoal::wgsl!("../../wgsl/demos/splat.wgsl"),
            ("fullscreen", "tone_map"),
            format,
            PipelineKind::FLAT,
        )?;
        Ok(Self {
            splat,
            target,
            scene,
            pipeline,
            uniform: gpu.uniform(&Vec4::ZERO)?,
            encode_srgb: !format.is_srgb(),
        })
    }

    fn update(&mut self, commands: &mut Commands, _frame: u64) -> Result<(), Error> {
        let (target, scene) = (&self.target, &self.scene);
        self.splat
            .record(commands, SplatFrameArgs { target, scene })
    }

    fn draw(
        &mut self,
        commands: &mut Commands,
        target: &wgpu::TextureView,
        size: [u32; 2],
    ) -> Result<(), Error> {
        let srgb = if self.encode_srgb { 1.0 } else { 0.0 };
        self.uniform
            .write(&[Vec4::new(size[0] as f32, size[1] as f32, srgb, 0.0)])?;
        // The kernel's own HDR image, sampled in place (its target is made sampleable).
        let call = (self.pipeline.bind("hdr", self.target.hdr())).bind("composite", &self.uniform);
        let target = Target {
            view: target,
            depth: None,
            clear: wgpu::Color::BLACK,
        };
        draw::clear_and_draw(commands, "splat composite", target, call, 0..3, 0..1)
    }

    /// The splatting kernels' files: `splat_int64.wgsl` only where the 64-bit packing runs.
    fn sources(&self) -> &'static [&'static str] {
        match self.splat.packing() {
            Packing::TwoU32 => &["wgsl/splat.wgsl", "wgsl/splat_common.wgsl"],
            Packing::Int64 => &[
                "wgsl/splat.wgsl",
                "wgsl/splat_int64.wgsl",
                "wgsl/splat_common.wgsl",
            ],
        }
    }

    fn reload(&mut self, _gpu: &Gpu, source: shoal::Source) -> Result<(), Error> {
        self.splat.set_source(source)
    }
}
