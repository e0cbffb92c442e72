//! The wave equation of the Direct3D 12 book (exercise 5) on the document's 512 x 512 grid, drawn as a lit
//! height-field mesh: the vertex shader reads the current solution image directly, estimates
//! normals by central differences and a camera looks at the surface at an angle, with a depth
//! buffer. Drops fall at pseudo-random places; the first frame runs a warm-up so even one
//! headless frame shows rings. `cargo run --release -p shoal-demos --bin waves
//! [-- --headless --frames 60 --out waves.png]`.

use glam::{Mat4, Vec3, Vec4};
use shoal::{Buffer, Commands, Error, Gpu, RenderPipeline, wgpu};
use shoal_kernels::waves::DOCUMENT_SIZE;
use shoal_kernels::{Record, WaveParams, Waves, WavesDisturbArgs, WavesStep};

use crate::cli::Options;
use crate::demo::Demo;
use crate::draw::{self, Depth, PipelineKind, Target};

/// Steps of the solution per frame.
const STEPS_PER_FRAME: u32 = 4;
/// Drops before the first frame is drawn, and the steps they spread for.
const WARMUP: (u32, u32) = (6, 240);
/// How tall a unit of height is drawn (the grid is 2 units wide).
const HEIGHT_SCALE: f32 = 0.06;
/// The document's constants with a 4x longer time step, so rings cross the 512-texel grid in
/// a few hundred steps: c dt / dx = 0.48, inside the stability bound 0.707.
const PARAMS: WaveParams = WaveParams {
    width: DOCUMENT_SIZE,
    height: DOCUMENT_SIZE,
    spatial_step: 1.0,
    time_step: 0.12,
    speed: 4.0,
    damping: 0.2,
};

/// The camera: above the near edge, looking at the centre.
pub const EYE: Vec3 = Vec3::new(0.0, 1.3, 1.9);

/// The drawing's uniform (`View` in `wgsl/demos/waves.wgsl`).
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct View {
    view_proj: Mat4,
    eye: Vec4,
    params: Vec4,
}
shoal::pod_element!(View);

/// The demo (see the module docs).
pub struct WavesDemo {
    waves: Waves,
    grid: u32,
    pipeline: RenderPipeline,
    view: Buffer<View>,
    depth: Depth,
    drops: u32,
}

impl WavesDemo {
    /// The simulation (to read the heights back, say).
    pub fn waves(&self) -> &Waves {
        &self.waves
    }

    /// The next drop: a pseudo-random interior texel and a magnitude, the same on every run.
    fn drop(&mut self, commands: &mut Commands) -> Result<(), Error> {
        let n = self.grid;
        let h = (self.drops.wrapping_mul(2_654_435_761)) ^ 0x9e37_79b9;
        let (x, y) = (n / 4 + h % (n / 2), n / 4 + (h >> 16) % (n / 2));
        self.drops += 1;
        let magnitude = 6.0;
        self.waves
            .record(commands, WavesDisturbArgs { x, y, magnitude })
    }
}

impl Demo for WavesDemo {
    const NAME: &'static str = "waves";

    fn new(gpu: &Gpu, options: &Options, format: wgpu::TextureFormat) -> Result<Self, Error> {
        // `--mode N` picks an N x N grid instead of the document's 512 x 512.
        let grid = match options.mode.as_deref() {
            None => DOCUMENT_SIZE,
            Some(m) => m.parse().map_err(|_| Error::InvalidParameter {
                kernel: "waves demo".into(),
                parameter: "--mode".into(),
                value: m.into(),
                rule: "the grid's side, a number of texels (at least 8)".into(),
            })?,
        };
        let (width, height) = (grid.max(8), grid.max(8));
        let waves = Waves::new(
            gpu,
            WaveParams {
                width,
                height,
                ..PARAMS
            },
        )?;
        let pipeline = draw::pipeline(
            gpu,
            shoal::wgsl!("../../wgsl/demos/waves.wgsl"),
            ("surface", "shade"),
            format,
            PipelineKind {
                depth: true,
                ..PipelineKind::FLAT
            },
        )?;
        Ok(Self {
            grid: grid.max(8),
            waves,
            pipeline,
            view: gpu.uniform(&View {
                view_proj: Mat4::IDENTITY,
                eye: EYE.extend(1.0),
                params: Vec4::new(HEIGHT_SCALE, 0.0, 0.0, 0.0),
            })?,
            depth: Depth::default(),
            drops: 0,
        })
    }

    fn update(&mut self, commands: &mut Commands, frame: u64) -> Result<(), Error> {
        if frame == 0 {
            for _ in 0..WARMUP.0 {
                self.drop(commands)?;
                for _ in 0..WARMUP.1 / WARMUP.0 {
                    self.waves.record(commands, WavesStep)?;
                }
            }
        } else if frame.is_multiple_of(45) {
            self.drop(commands)?;
        }
        for _ in 0..STEPS_PER_FRAME {
            self.waves.record(commands, WavesStep)?;
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
            view_proj: draw::camera(EYE, Vec3::new(0.0, -0.1, 0.0), size, 10.0),
            eye: EYE.extend(1.0),
            params: Vec4::new(HEIGHT_SCALE, 0.0, 0.0, 0.0),
        }])?;
        let call = (self.pipeline.bind("heights", self.waves.current())).bind("view", &self.view);
        let target = Target {
            view: target,
            depth: Some(self.depth.image(commands.gpu(), size)?),
            clear: wgpu::Color {
                r: 0.55,
                g: 0.7,
                b: 0.85,
                a: 1.0,
            },
        };
        let cells = self.grid - 1;
        draw::clear_and_draw(commands, "waves", target, call, 0..cells * cells * 6, 0..1)
    }

    fn sources(&self) -> &'static [&'static str] {
        &["wgsl/waves.wgsl"]
    }

    fn reload(&mut self, _gpu: &Gpu, source: shoal::Source) -> Result<(), Error> {
        self.waves.set_source(source)
    }
}
