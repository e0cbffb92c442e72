//! Append/consume particles (the Direct3D 12 book, §13.5): three fountains emit into an append buffer, every
//! step consumes the live particles and appends the survivors, dispatched indirectly from the
//! GPU's own count. Drawn as small additive quads read straight from the live append buffer
//! (count and items), one instance per slot. The first frame runs a warm-up so one headless
//! frame shows full fountains. `cargo run --release -p shoal-demos --bin particles
//! [-- --headless --out particles.png]`.

use glam::{Mat4, Vec3, Vec4};
use shoal::{Buffer, Commands, Error, Gpu, RenderPipeline, wgpu};
use shoal_kernels::particles::Emitter;
use shoal_kernels::{ParticleSettings, Particles, ParticlesParams, ParticlesStep, Record};

use crate::cli::Options;
use crate::demo::Demo;
use crate::draw::{self, PipelineKind, Target};

/// Seconds a particle lives.
pub const LIFETIME: f32 = 2.0;
/// New particles per fountain per step.
pub const EMIT: u32 = 40;
/// Steps before the first frame: long enough for the oldest particles to start dying.
pub const WARMUP_STEPS: u32 = 150;
/// Side of a particle's quad in pixels.
const QUAD_PX: f32 = 3.0;
/// The camera.
pub const EYE: Vec3 = Vec3::new(0.0, 2.5, 11.0);

/// The fountains: three in a row.
pub fn settings() -> ParticleSettings {
    ParticleSettings {
        lifetime: LIFETIME,
        emit_per_emitter: EMIT,
        emitters: [-3.0, 0.0, 3.0]
            .map(|x| Emitter::fountain(Vec3::new(x, 0.0, 0.0)))
            .to_vec(),
        ..ParticleSettings::default()
    }
}

/// The view-projection for a target of `size`.
pub fn view_proj(size: [u32; 2]) -> Mat4 {
    draw::camera(EYE, Vec3::new(0.0, 1.5, 0.0), size, 100.0)
}

#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct View {
    view_proj: Mat4,
    params: Vec4,
}
shoal::pod_element!(View);

/// The demo (see the module docs).
pub struct ParticlesDemo {
    particles: Particles,
    capacity: u32,
    pipeline: RenderPipeline,
    view: Buffer<View>,
}

impl ParticlesDemo {
    /// The simulation.
    pub fn particles(&self) -> &Particles {
        &self.particles
    }
}

impl Demo for ParticlesDemo {
    const NAME: &'static str = "particles";

    fn new(gpu: &Gpu, _options: &Options, format: wgpu::TextureFormat) -> Result<Self, Error> {
        let settings = settings();
        // Every particle lives LIFETIME / dt steps; one more step's emissions on top.
        let steps = (LIFETIME / settings.dt).ceil() as u32 + 2;
        let capacity = steps * EMIT * settings.emitters.len() as u32;
        let params = ParticlesParams {
            initial: &[],
            capacity: u64::from(capacity),
            settings,
        };
        let particles = Particles::new(gpu, params)?;
        let pipeline = draw::pipeline(
            gpu,
            shoal::wgsl!("../../wgsl/demos/particles.wgsl"),
            ("quad", "glow"),
            format,
            PipelineKind {
                topology: wgpu::PrimitiveTopology::TriangleStrip,
                depth: false,
                additive: true,
            },
        )?;
        Ok(Self {
            particles,
            capacity,
            pipeline,
            view: gpu.uniform(&View {
                view_proj: Mat4::IDENTITY,
                params: Vec4::ZERO,
            })?,
        })
    }

    fn update(&mut self, commands: &mut Commands, frame: u64) -> Result<(), Error> {
        let steps = if frame == 0 { WARMUP_STEPS } else { 1 };
        for _ in 0..steps {
            self.particles.record(commands, ParticlesStep)?;
        }
        Ok(())
    }

    fn draw(
        &mut self,
        commands: &mut Commands,
        target: &wgpu::TextureView,
        size: [u32; 2],
    ) -> Result<(), Error> {
        self.view.write(&[View {
            view_proj: view_proj(size),
            params: Vec4::new(size[0] as f32, size[1] as f32, QUAD_PX, LIFETIME),
        }])?;
        let call = (self.pipeline.bind("live", self.particles.buffer())).bind("view", &self.view);
        let target = Target {
            view: target,
            depth: None,
            clear: wgpu::Color::BLACK,
        };
        draw::clear_and_draw(commands, "particles", target, call, 0..4, 0..self.capacity)
    }

    fn sources(&self) -> &'static [&'static str] {
        &["wgsl/particles.wgsl"]
    }

    fn reload(&mut self, _gpu: &Gpu, source: shoal::Source) -> Result<(), Error> {
        self.particles.set_source(source)
    }
}
