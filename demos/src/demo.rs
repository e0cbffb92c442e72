//! The [`Demo`] trait every demo implements, and the headless runner that renders frames
//! offscreen and writes a PNG (`--headless --frames N --out FILE.png`). [`render`] is async and
//! runs in the browser too; the PNG and the binaries' entry point are native only.

use shoal::{Commands, Gpu, Image, wgpu};

use crate::blit::Blit;
use crate::cli::Options;

/// Boxed errors of the demo runners (shoal, I/O, PNG, windowing).
pub type DemoError = Box<dyn std::error::Error>;

/// What [`Demo::verify`] returns: a check that reads results back (async, so it runs in the
/// browser too), `Ok` with what was verified or `Err` with what differed.
pub type Verification<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<String, String>> + 'a>>;

/// A demo: compute work per frame, then a draw into the target.
pub trait Demo: Sized {
    /// The binary's name (also the PNG's default name).
    const NAME: &'static str;
    /// The render size when `--size` is not given.
    const SIZE: [u32; 2] = [640, 480];

    /// Creates the demo's kernels and state for `options` (size, mode), drawing into targets of
    /// `format`.
    fn new(gpu: &Gpu, options: &Options, format: wgpu::TextureFormat)
    -> Result<Self, shoal::Error>;
    /// Records frame `frame`'s compute work.
    fn update(&mut self, commands: &mut Commands, frame: u64) -> Result<(), shoal::Error>;
    /// Records the draw of the current state into `target` (`size` pixels), after the frame's
    /// compute work in the same batch (a profiled batch times its passes). By default, the
    /// [`picture`](Demo::picture) scaled to the target (a demo with a scene of its own overrides
    /// this).
    fn draw(
        &mut self,
        commands: &mut Commands,
        target: &wgpu::TextureView,
        size: [u32; 2],
    ) -> Result<(), shoal::Error> {
        match self.picture() {
            Some((image, blit)) => blit.draw(commands, image, target, size),
            None => Ok(()),
        }
    }

    /// The image a demo that shows one picture computes, and the blit that draws it: what the
    /// default [`draw`](Demo::draw) shows. Default: none.
    fn picture(&mut self) -> Option<(&Image, &mut Blit)> {
        None
    }

    /// The WGSL files the demo's kernels are compiled from, as paths from the workspace root
    /// (`"wgsl/blur.wgsl"`). A native window watches them and hands an edited file to
    /// [`Demo::reload`] (hot reload). Default: none.
    fn sources(&self) -> &'static [&'static str] {
        &[]
    }

    /// Checks the demo's results against their CPU twins after the frames ran, with a line
    /// saying what was checked; `None` (the default) when the picture is all there is.
    fn verify(&self) -> Option<Verification<'_>> {
        None
    }

    /// Rebuilds the kernels compiled from `source` (one of [`Demo::sources`], read anew; its
    /// [`path`](shoal::Source::path) says which). On an error the demo must keep its old
    /// kernels: the window prints the error (which names file and line) and runs on.
    fn reload(&mut self, gpu: &Gpu, source: shoal::Source) -> Result<(), shoal::Error> {
        let _ = (gpu, source);
        Ok(())
    }
}

/// What a headless run produced.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// RGBA8 pixels, row by row.
    pub pixels: Vec<[u8; 4]>,
    /// Width and height.
    pub size: [u32; 2],
    /// GPU milliseconds of the last frame (timestamps, or the wall clock where there are none).
    pub gpu_ms: f64,
}

/// The format demos draw into offscreen (and the PNG's).
pub const HEADLESS_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// Runs `frames` frames of `D` offscreen and returns the last one's pixels.
pub async fn render<D: Demo>(gpu: &Gpu, options: &Options) -> Result<Rendered, shoal::Error> {
    let mut demo = D::new(gpu, options, HEADLESS_FORMAT)?;
    render_frames(gpu, &mut demo, options.size, 0..options.frames as u64).await
}

/// Runs the frames `frames` of a demo made for [`HEADLESS_FORMAT`] into an offscreen target of
/// `size` and returns the last one's pixels (tests use it to set a demo up first).
pub async fn render_frames<D: Demo>(
    gpu: &Gpu,
    demo: &mut D,
    size: [u32; 2],
    frames: std::ops::Range<u64>,
) -> Result<Rendered, shoal::Error> {
    let target = gpu.image_zeroed_with(
        size[0],
        size[1],
        HEADLESS_FORMAT,
        wgpu::TextureUsages::RENDER_ATTACHMENT
            | wgpu::TextureUsages::COPY_SRC
            | wgpu::TextureUsages::TEXTURE_BINDING,
    )?;
    let mut gpu_ms = 0.0;
    for frame in frames {
        let mut commands = gpu.commands().profiled();
        demo.update(&mut commands, frame)?;
        demo.draw(&mut commands, target.view(), size)?;
        let timings = commands.submit()?.timings().await?;
        gpu_ms = timings.iter().map(|t| t.millis()).sum();
    }
    let pixels = target.read::<[u8; 4]>().await?;
    Ok(Rendered {
        pixels,
        size,
        gpu_ms,
    })
}

/// Writes RGBA8 pixels as a PNG.
#[cfg(not(target_arch = "wasm32"))]
pub fn write_png(
    path: &std::path::Path,
    size: [u32; 2],
    pixels: &[[u8; 4]],
) -> Result<(), DemoError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut encoder = png::Encoder::new(file, size[0], size[1]);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(bytemuck::cast_slice(pixels))?;
    Ok(())
}

/// The entry point of a demo binary: parses the command line, then runs headless or in a window.
/// (In the browser, [`crate::web`] runs the demos in a canvas instead.)
#[cfg(not(target_arch = "wasm32"))]
pub fn main<D: Demo>() -> std::process::ExitCode {
    env_logger::init();
    let options = match Options::parse(std::env::args().skip(1), D::SIZE) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{}: {e}", D::NAME);
            return std::process::ExitCode::FAILURE;
        }
    };
    let result = if options.headless {
        headless::<D>(&options)
    } else {
        crate::window::run::<D>(options)
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}: {e}", D::NAME);
            std::process::ExitCode::FAILURE
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn headless<D: Demo>(options: &Options) -> Result<(), DemoError> {
    let gpu = Gpu::blocking()?;
    let mut demo = D::new(&gpu, options, HEADLESS_FORMAT)?;
    let frames = 0..options.frames as u64;
    let rendered = pollster::block_on(render_frames(&gpu, &mut demo, options.size, frames))?;
    if let Some(check) = demo.verify() {
        println!("{}: {}", D::NAME, pollster::block_on(check)?);
    }
    let out = options
        .out
        .clone()
        .unwrap_or_else(|| format!("target/shoal/{}.png", D::NAME).into());
    write_png(&out, rendered.size, &rendered.pixels)?;
    println!(
        "{}: {} frame(s) at {}x{} on {} -> {} (last frame {:.2} GPU ms)",
        D::NAME,
        options.frames,
        rendered.size[0],
        rendered.size[1],
        gpu.adapter_details(),
        out.display(),
        rendered.gpu_ms
    );
    Ok(())
}
