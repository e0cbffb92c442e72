//! The image filters of the Direct3D 12 book on the test picture, shown with the full-screen blit:
//! `--mode gaussian` (default; the document's cached separable blur, three passes), `naive`
//! (the same blur reading every tap from the texture), `sobel` (inverted edges, exercise 6),
//! `cartoon` (blur, edges, multiply) and `bilateral` (exercise 4).
//! `cargo run --release -p shoal-demos --bin blur [-- --mode sobel] [--headless --out blur.png]`.

use glam::Vec4;
use shoal::{Commands, Error, Gpu, Image, wgpu};
use shoal_kernels::blur::BlurVariant;
use shoal_kernels::{
    Bilateral, BilateralArgs, BilateralParams, BlurArgs, BlurParams, Cartoon, CartoonArgs,
    CartoonParams, GaussianBlur, Record, Sobel, SobelArgs,
};

use crate::blit::Blit;
use crate::cli::Options;
use crate::demo::Demo;

/// The modes `--mode` takes, the default first.
pub const MODES: &[&str] = &["gaussian", "naive", "sobel", "cartoon", "bilateral"];

/// σ and passes of the Gaussian modes: a clearly visible blur of the test picture.
const SIGMA: f32 = 2.5;
const PASSES: u32 = 3;

enum Filter {
    // The blur and the cartoon are boxed: they are much larger than the other filters.
    Gaussian(Box<GaussianBlur>),
    Sobel(Sobel),
    Cartoon(Box<Cartoon>),
    Bilateral(Bilateral),
}

/// The demo (see the module docs).
pub struct BlurDemo {
    filter: Filter,
    /// The unfiltered picture, and what the filter wrote.
    input: Image,
    output: Image,
    blit: Blit,
}

impl BlurDemo {
    /// Replaces the picture the filter reads (`width x height` texels of the demo's size).
    pub fn set_input(&mut self, texels: &[Vec4]) -> Result<(), Error> {
        self.input.write(texels)
    }

    /// The filtered image of the last frame (`rgba32float`).
    pub fn output(&self) -> &Image {
        &self.output
    }
}

impl Demo for BlurDemo {
    const NAME: &'static str = "blur";

    fn new(gpu: &Gpu, options: &Options, format: wgpu::TextureFormat) -> Result<Self, Error> {
        let [w, h] = options.size;
        let filter = match options.mode.as_deref().unwrap_or("gaussian") {
            m @ ("gaussian" | "naive") => {
                let params = BlurParams {
                    sigma: SIGMA,
                    ..BlurParams::default()
                };
                let mut blur = GaussianBlur::new(gpu, params)?;
                if m == "naive" {
                    blur.set_variant(BlurVariant::Naive)?;
                }
                Filter::Gaussian(Box::new(blur))
            }
            "sobel" => Filter::Sobel(Sobel::new(gpu)?),
            "cartoon" => Filter::Cartoon(Box::new(Cartoon::new(gpu, CartoonParams::default())?)),
            "bilateral" => Filter::Bilateral(Bilateral::new(
                gpu,
                BilateralParams {
                    spatial_sigma: 3.0,
                    range_sigma: 0.15,
                },
            )?),
            other => {
                return Err(Error::InvalidParameter {
                    kernel: "blur demo".into(),
                    parameter: "--mode".into(),
                    value: other.into(),
                    rule: format!("one of {}", MODES.join(", ")),
                });
            }
        };
        let picture = shoal_kernels::test_image::test_image(w, h);
        let input = gpu.image_from(w, h, wgpu::TextureFormat::Rgba32Float, &picture)?;
        Ok(Self {
            filter,
            input,
            output: gpu.image_zeroed(w, h, wgpu::TextureFormat::Rgba32Float)?,
            blit: Blit::new(gpu, format)?,
        })
    }

    fn update(&mut self, commands: &mut Commands, _frame: u64) -> Result<(), Error> {
        // Every frame filters the original picture again: the cost shown is one filtering.
        let (src, dst) = (&self.input, &self.output);
        match &self.filter {
            Filter::Gaussian(blur) => {
                commands.copy_image(&self.input, &self.output)?;
                let (image, passes) = (&self.output, PASSES);
                blur.record(commands, BlurArgs { image, passes })
            }
            Filter::Sobel(sobel) => sobel.record(commands, SobelArgs { src, dst }),
            Filter::Cartoon(cartoon) => cartoon.record(commands, CartoonArgs { src, dst }),
            Filter::Bilateral(b) => b.record(commands, BilateralArgs { src, dst }),
        }
    }

    fn picture(&mut self) -> Option<(&Image, &mut Blit)> {
        Some((&self.output, &mut self.blit))
    }

    fn sources(&self) -> &'static [&'static str] {
        match self.filter {
            Filter::Gaussian(_) => &["wgsl/blur.wgsl"],
            Filter::Sobel(_) => &["wgsl/sobel.wgsl"],
            Filter::Cartoon(_) => &["wgsl/blur.wgsl", "wgsl/sobel.wgsl"],
            Filter::Bilateral(_) => &["wgsl/bilateral.wgsl"],
        }
    }

    fn reload(&mut self, _gpu: &Gpu, source: shoal::Source) -> Result<(), Error> {
        let blur = source.path().ends_with("blur.wgsl");
        match &mut self.filter {
            Filter::Gaussian(b) => b.set_source(source),
            Filter::Sobel(s) => s.set_source(source),
            Filter::Cartoon(c) if blur => c.set_blur_source(source),
            Filter::Cartoon(c) => c.set_sobel_source(source),
            Filter::Bilateral(b) => b.set_source(source),
        }
    }
}
