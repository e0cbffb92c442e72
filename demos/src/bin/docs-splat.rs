//! Renders the three particle scenes of `docs/particles.md` (the particle-rendering article) with the compute path and
//! writes them as PNG under `docs/images/` (or the directory given as the first argument).
//!
//! A quarter of the benchmark's resolution in each direction, with a sixteenth of its particles,
//! so the per-pixel density — and so the look — is the benchmark's. HDR is tone-mapped with
//! `x / (1 + x)` and encoded as sRGB.

use std::path::PathBuf;
use std::process::ExitCode;

use shoal::Record;
use shoal_kernels::splat::{SceneData, SceneKind, Splat, SplatFrameArgs};

const WIDTH: u32 = 412;
const HEIGHT: u32 = 444;
const PARTICLES: usize = 125_000;

fn srgb(linear: f32) -> u8 {
    let v = linear / (1.0 + linear);
    let v = if v <= 0.003_130_8 {
        12.92 * v
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    };
    (v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

fn write_png(path: &std::path::Path, pixels: &[[f32; 4]]) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), WIDTH, HEIGHT);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let data: Vec<u8> = pixels
        .iter()
        .flat_map(|p| [srgb(p[0]), srgb(p[1]), srgb(p[2])])
        .collect();
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(&data).map_err(|e| e.to_string())
}

fn run(dir: PathBuf) -> Result<(), String> {
    let gpu = shoal::Gpu::blocking().map_err(|e| e.to_string())?;
    let splat = Splat::new(&gpu, None).map_err(|e| e.to_string())?;
    println!(
        "rendering on {} with {}",
        gpu.adapter_details(),
        splat.packing().name()
    );
    let target = splat.target(WIDTH, HEIGHT).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    for kind in SceneKind::ALL {
        let scene = splat
            .upload(&SceneData::generate(kind, WIDTH, HEIGHT, PARTICLES, 1))
            .map_err(|e| e.to_string())?;
        let frame = SplatFrameArgs {
            target: &target,
            scene: &scene,
        };
        pollster::block_on(async { splat.run(frame)?.wait().await }).map_err(|e| e.to_string())?;
        let pixels = pollster::block_on(target.read_hdr()).map_err(|e| e.to_string())?;
        let path = dir.join(format!("particles-{}.png", kind.name()));
        write_png(&path, &pixels)?;
        let peak = pixels
            .iter()
            .flat_map(|p| [p[0], p[1], p[2]])
            .fold(0.0f32, f32::max);
        println!("wrote {} (brightest channel {peak:.2})", path.display());
    }
    Ok(())
}

fn main() -> ExitCode {
    env_logger::init();
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("docs/images"));
    match run(dir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
