//! Boids flocking (the OpenGL compute-shader lesson's "Compute Shader Boids"): the document's 16384 members and rules, drawn
//! as its paper airplanes — an 8-vertex triangle strip instanced over the flock, with the
//! vertex shader reading the kernel's member buffer directly (no copy through the CPU),
//! oriented by a look-at from the velocity and coloured by instance id. The document's camera:
//! at (0, 0, -200) looking at the origin, 60° field of view. `--mode N` flies N members (a
//! multiple of 256). `cargo run --release -p shoal-demos --bin boids [-- --headless --out boids.png]`.

use glam::{Mat4, Vec3};
use shoal::{Buffer, Commands, Error, Gpu, RenderPipeline, wgpu};
use shoal_kernels::{Boids, BoidsStepArgs, Record, boids};

use crate::cli::Options;
use crate::demo::Demo;
use crate::draw::{self, Depth, PipelineKind, Target};

/// The document's time step between frames (its `update` adds each frame's dt).
pub const DT: f32 = 1.0 / 60.0;
/// Steps run before the first frame is drawn, so one headless frame shows a flock in flight.
pub const WARMUP_STEPS: u32 = 2;
/// The document's camera position.
pub const EYE: Vec3 = Vec3::new(0.0, 0.0, -200.0);

/// The document's view-projection for a target of `size`.
pub fn view_proj(size: [u32; 2]) -> Mat4 {
    let aspect = size[0].max(1) as f32 / size[1].max(1) as f32;
    Mat4::perspective_rh(60f32.to_radians(), aspect, 0.1, 3000.0)
        * Mat4::look_at_rh(EYE, Vec3::ZERO, Vec3::Y)
}

/// The demo (see the module docs).
pub struct BoidsDemo {
    flock: Boids,
    steps: u64,
    pipeline: RenderPipeline,
    mvp: Buffer<Mat4>,
    depth: Depth,
}

impl BoidsDemo {
    /// The flock (its buffer is what the vertex shader draws).
    pub fn flock(&self) -> &Boids {
        &self.flock
    }
}

impl Demo for BoidsDemo {
    const NAME: &'static str = "boids";

    fn new(gpu: &Gpu, options: &Options, format: wgpu::TextureFormat) -> Result<Self, Error> {
        let n = match options.mode.as_deref() {
            None => boids::DOCUMENT_FLOCK_SIZE,
            Some(m) => m.parse().map_err(|_| Error::InvalidParameter {
                kernel: "boids demo".into(),
                parameter: "--mode".into(),
                value: m.into(),
                rule: "the number of members, a multiple of 256".into(),
            })?,
        };
        let flock = Boids::new(gpu, &boids::document_flock(n))?;
        let pipeline = draw::pipeline(
            gpu,
            shoal::wgsl!("../../wgsl/demos/boids.wgsl"),
            ("airplane", "shade"),
            format,
            PipelineKind {
                topology: wgpu::PrimitiveTopology::TriangleStrip,
                depth: true,
                additive: false,
            },
        )?;
        Ok(Self {
            flock,
            steps: 0,
            pipeline,
            mvp: gpu.uniform(&Mat4::IDENTITY)?,
            depth: Depth::default(),
        })
    }

    fn update(&mut self, commands: &mut Commands, frame: u64) -> Result<(), Error> {
        let steps = if frame == 0 { WARMUP_STEPS } else { 1 };
        for _ in 0..steps {
            self.steps += 1;
            let time = self.steps as f32 * DT;
            self.flock.record(commands, BoidsStepArgs { time })?;
        }
        Ok(())
    }

    fn draw(
        &mut self,
        commands: &mut Commands,
        target: &wgpu::TextureView,
        size: [u32; 2],
    ) -> Result<(), Error> {
        self.mvp.write(&[view_proj(size)])?;
        let call = (self.pipeline.bind("members", self.flock.members())).bind("mvp", &self.mvp);
        let target = Target {
            view: target,
            depth: Some(self.depth.image(commands.gpu(), size)?),
            clear: wgpu::Color {
                r: 0.02,
                g: 0.03,
                b: 0.06,
                a: 1.0,
            },
        };
        let members = self.flock.len() as u32;
        draw::clear_and_draw(commands, "boids", target, call, 0..8, 0..members)
    }

    fn sources(&self) -> &'static [&'static str] {
        &["wgsl/boids.wgsl"]
    }

    fn reload(&mut self, _gpu: &Gpu, source: shoal::Source) -> Result<(), Error> {
        self.flock.set_source(source)
    }
}
