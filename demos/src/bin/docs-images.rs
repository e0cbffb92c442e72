//! Writes the pictures of `docs/images/` from the kernels themselves: the lesson's grid, the
//! document's orthographic sphere and the shaded ray-traced scene. Each image is checked
//! against its CPU twin before it is written, so the docs show verified output.
//!
//! `cargo run -p shoal-demos --bin docs-images [-- <dir>]` (default `docs/images`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use shoal::wgpu::TextureFormat;
use shoal::{Gpu, Image};
use shoal_kernels::{
    Grid, GridArgs, RayTraceArgs, RayTraceSceneArgs, RayTracer, Record, grid, raytrace,
};

/// Writes rgba32float texels as an 8-bit RGB PNG (the pictures are opaque).
fn write_png(path: &Path, width: u32, height: u32, texels: &[[f32; 4]]) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Best);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    let bytes: Vec<u8> = texels
        .iter()
        .flat_map(|t| [t[0], t[1], t[2]].map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8))
        .collect();
    writer.write_image_data(&bytes).map_err(|e| e.to_string())
}

async fn render(gpu: &Gpu, dir: &Path) -> Result<Vec<String>, String> {
    let err = |e: shoal::Error| e.to_string();
    let mut written = Vec::new();
    let mut save = |name: &str, image: &Image, texels: &[[f32; 4]]| -> Result<(), String> {
        let path = dir.join(name);
        write_png(&path, image.width(), image.height(), texels)?;
        written.push(path.display().to_string());
        Ok(())
    };

    // The grid at half the document's size keeps the file small; the pattern is the same.
    let [w, h] = [640, 368];
    let image = gpu
        .image_zeroed(w, h, TextureFormat::Rgba32Float)
        .map_err(err)?;
    Grid::new(gpu)
        .map_err(err)?
        .run(GridArgs { image: &image })
        .map_err(err)?;
    let texels = image.read::<[f32; 4]>().await.map_err(err)?;
    if texels != grid::grid_cpu(w, h) {
        return Err("grid differs from its CPU twin".into());
    }
    save("grid.png", &image, &texels)?;

    let tracer = RayTracer::new(gpu).map_err(err)?;
    let n = raytrace::ORTHO_SIZE;
    let image = gpu
        .image_zeroed(n, n, TextureFormat::Rgba32Float)
        .map_err(err)?;
    tracer.run(RayTraceArgs { image: &image }).map_err(err)?;
    let texels = image.read::<[f32; 4]>().await.map_err(err)?;
    let differ = texels
        .iter()
        .zip(raytrace::ortho_cpu(n, n))
        .filter(|(g, c)| **g != *c)
        .count();
    if differ > 8 {
        return Err(format!(
            "orthographic sphere: {differ} pixels differ from the CPU twin"
        ));
    }
    save("raytrace-ortho.png", &image, &texels)?;

    let (w, h) = (480, 320);
    let image = gpu
        .image_zeroed(w, h, TextureFormat::Rgba32Float)
        .map_err(err)?;
    let scene = raytrace::Scene::default();
    let args = RayTraceSceneArgs {
        scene: &scene,
        image: &image,
    };
    tracer.run(args).map_err(err)?;
    let texels = image.read::<[f32; 4]>().await.map_err(err)?;
    let off = texels
        .iter()
        .zip(raytrace::scene_cpu(&scene, w, h))
        .filter(|(g, c)| (0..3).any(|k| (g[k] - c[k]).abs() > 2e-3))
        .count();
    if off > (w * h) as usize / 200 {
        return Err(format!(
            "shaded scene: {off} pixels differ from the CPU twin"
        ));
    }
    save("raytrace-scene.png", &image, &texels)?;
    Ok(written)
}

fn main() -> ExitCode {
    env_logger::init();
    let dir = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join("docs")
                .join("images")
        });
    let result = shoal::Gpu::blocking()
        .map_err(|e| e.to_string())
        .and_then(|gpu| {
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            eprintln!("rendering on {}", gpu.adapter_details());
            pollster::block_on(render(&gpu, &dir))
        });
    match result {
        Ok(written) => {
            for path in written {
                println!("wrote {path}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
