//! The sphere ray tracer of the OpenGL compute-shader lesson — 512x512, orthographic, one sphere — and,
//! with `--mode scene`, the shaded scene beyond it (spheres, a plane, shadows, one reflection).
//! `cargo run -p shoal-demos --bin raytrace [-- --mode scene] [--headless --out raytrace.png]`.

use crate::blit::Blit;
use crate::cli::Options;
use crate::demo::Demo;
use shoal::{Commands, Gpu, Image, wgpu};
use shoal_kernels::{RayTraceArgs, RayTraceSceneArgs, RayTracer, Record, Scene};

/// The demo (see the module docs).
pub struct RayTraceDemo {
    tracer: RayTracer,
    scene: Option<Scene>,
    image: Image,
    blit: Blit,
}

impl Demo for RayTraceDemo {
    const NAME: &'static str = "raytrace";
    const SIZE: [u32; 2] = [shoal_kernels::raytrace::ORTHO_SIZE; 2];

    fn new(
        gpu: &Gpu,
        options: &Options,
        format: wgpu::TextureFormat,
    ) -> Result<Self, shoal::Error> {
        let [w, h] = options.size;
        let tracer = RayTracer::new(gpu)?;
        let scene = match options.mode.as_deref() {
            Some("scene") => Some(Scene::default()),
            _ => None,
        };
        Ok(Self {
            tracer,
            scene,
            image: gpu.image_zeroed(w, h, wgpu::TextureFormat::Rgba32Float)?,
            blit: Blit::new(gpu, format)?,
        })
    }

    fn update(&mut self, commands: &mut Commands, _frame: u64) -> Result<(), shoal::Error> {
        match &self.scene {
            Some(scene) => {
                let args = RayTraceSceneArgs {
                    scene,
                    image: &self.image,
                };
                self.tracer.record(commands, args)
            }
            None => self
                .tracer
                .record(commands, RayTraceArgs { image: &self.image }),
        }
    }

    fn picture(&mut self) -> Option<(&Image, &mut Blit)> {
        Some((&self.image, &mut self.blit))
    }

    fn sources(&self) -> &'static [&'static str] {
        &["wgsl/raytrace.wgsl"]
    }

    fn reload(&mut self, _gpu: &Gpu, source: shoal::Source) -> Result<(), shoal::Error> {
        self.tracer.set_source(source)
    }
}
