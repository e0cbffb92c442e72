//! Every image, filter, simulation and atomic kernel family run once against its CPU twin, through
//! `new`, `record` (into a `gpu.commands()` batch) and `run`, for `cargo xtask run`, the web
//! site's kernels page and the contract test. Each entry's name starts with its family's type.

use std::future::Future;
use std::pin::Pin;

use shoal::wgpu::TextureFormat;
use shoal::{AppendBuffer, Gpu};

use crate::{grid, invert, raytrace, texture_add, vector_lengths};

/// What a check verified, or why it failed.
pub type Outcome = Result<String, String>;

/// A check of one kernel family.
pub type Check = for<'a> fn(&'a Gpu) -> Pin<Box<dyn Future<Output = Outcome> + 'a>>;

/// Every check, by name.
pub const ALL: &[(&str, Check)] = &[
    ("Invert 320x200 (000)", |g| Box::pin(invert(g))),
    ("Grid 1280x720, (80, 45, 1) groups (000)", |g| {
        Box::pin(grid(g))
    }),
    ("TextureAdd 256x144 (002 §13.2)", |g| {
        Box::pin(texture_add(g))
    }),
    ("RayTracer ortho 512x512 (000)", |g| Box::pin(ortho(g))),
    ("RayTracer scene 160x120 (beyond 000)", |g| {
        Box::pin(scene(g))
    }),
    ("VectorLengths append/consume (002 ex. 3)", |g| {
        Box::pin(lengths(g))
    }),
];

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn pattern(w: u32, h: u32) -> Vec<[f32; 4]> {
    (0..w * h)
        .map(|i| {
            [
                (i % 97) as f32 / 97.0,
                (i % 13) as f32 * 0.25,
                -(i as f32),
                0.5,
            ]
        })
        .collect()
}

async fn invert(gpu: &Gpu) -> Outcome {
    let (w, h) = (320, 200);
    let texels = pattern(w, h);
    let input = gpu
        .image_from(w, h, TextureFormat::Rgba32Float, &texels)
        .map_err(err)?;
    let output = gpu.image(w, h, TextureFormat::Rgba32Float).map_err(err)?;
    let twice = gpu.image(w, h, TextureFormat::Rgba32Float).map_err(err)?;
    let kernel = crate::Invert::new(gpu).map_err(err)?;
    // Recorded into a batch, then run on its own on the batch's result: back to the input.
    let mut commands = gpu.commands();
    kernel.record(&mut commands, &input, &output).map_err(err)?;
    commands.submit().map_err(err)?;
    kernel.run(&output, &twice).map_err(err)?;
    let want = invert::invert_cpu(&texels);
    let ok = output.read::<[f32; 4]>().await.map_err(err)? == want
        && twice.read::<[f32; 4]>().await.map_err(err)? == invert::invert_cpu(&want);
    if ok {
        Ok(format!(
            "{w}x{h} rgba32float, recorded and run, every pixel exact"
        ))
    } else {
        Err("pixels differ from the CPU".into())
    }
}

async fn grid(gpu: &Gpu) -> Outcome {
    let [w, h] = grid::SIZE;
    let image = gpu.image(w, h, TextureFormat::Rgba32Float).map_err(err)?;
    let mut commands = gpu.commands();
    crate::Grid::new(gpu)
        .map_err(err)?
        .record(&mut commands, &image)
        .map_err(err)?;
    commands.submit().map_err(err)?;
    let ok = image.read::<[f32; 4]>().await.map_err(err)? == grid::grid_cpu(w, h);
    if ok {
        Ok(format!(
            "{w}x{h}, every pixel exact; work group (0,0) orange"
        ))
    } else {
        Err("pixels differ from the CPU".into())
    }
}

async fn texture_add(gpu: &Gpu) -> Outcome {
    let (w, h) = (256, 144);
    let a = pattern(w, h);
    let b: Vec<[f32; 4]> = a.iter().map(|t| t.map(|c| c * 0.5 + 1.0)).collect();
    let ia = gpu
        .image_from(w, h, TextureFormat::Rgba32Float, &a)
        .map_err(err)?;
    let ib = gpu
        .image_from(w, h, TextureFormat::Rgba32Float, &b)
        .map_err(err)?;
    let out = gpu.image(w, h, TextureFormat::Rgba32Float).map_err(err)?;
    crate::TextureAdd::new(gpu)
        .map_err(err)?
        .run(&ia, &ib, &out)
        .map_err(err)?;
    let ok = out.read::<[f32; 4]>().await.map_err(err)? == texture_add::texture_add_cpu(&a, &b);
    if ok {
        Ok(format!("{w}x{h}, every pixel exact"))
    } else {
        Err("pixels differ from the CPU".into())
    }
}

async fn ortho(gpu: &Gpu) -> Outcome {
    let n = raytrace::ORTHO_SIZE;
    let image = gpu.image(n, n, TextureFormat::Rgba32Float).map_err(err)?;
    crate::RayTracer::new(gpu)
        .map_err(err)?
        .run(&image)
        .map_err(err)?;
    let got = image.read::<[f32; 4]>().await.map_err(err)?;
    let differ = got
        .iter()
        .zip(raytrace::ortho_cpu(n, n))
        .filter(|(g, c)| **g != *c)
        .count();
    if differ <= 8 {
        Ok(format!(
            "{n}x{n} hit mask, {differ} edge pixels differ (8 allowed)"
        ))
    } else {
        Err(format!("{differ} pixels differ"))
    }
}

async fn scene(gpu: &Gpu) -> Outcome {
    let (w, h) = (160, 120);
    let s = raytrace::Scene::default();
    let image = gpu.image(w, h, TextureFormat::Rgba32Float).map_err(err)?;
    let mut commands = gpu.commands();
    crate::RayTracer::new(gpu)
        .map_err(err)?
        .record_scene(&mut commands, &s, &image)
        .map_err(err)?;
    commands.submit().map_err(err)?;
    let got = image.read::<[f32; 4]>().await.map_err(err)?;
    let off = got
        .iter()
        .zip(raytrace::scene_cpu(&s, w, h))
        .filter(|(g, c)| (0..4).any(|k| (g[k] - c[k]).abs() > raytrace::SCENE_TOLERANCE))
        .count();
    let allowed = (raytrace::SCENE_OUTLIERS * (w * h) as f64) as usize;
    let tolerance = raytrace::SCENE_TOLERANCE;
    if off <= allowed {
        Ok(format!(
            "{w}x{h}, {off} pixels beyond {tolerance} ({allowed} allowed)"
        ))
    } else {
        Err(format!(
            "{off} pixels beyond {tolerance} ({allowed} allowed)"
        ))
    }
}

async fn lengths(gpu: &Gpu) -> Outcome {
    let input = vector_lengths::exercise_vectors(64, 64);
    let vectors = gpu.append_buffer_from(&input, 64).map_err(err)?;
    let out: AppendBuffer<f32> = gpu.append_buffer(64).map_err(err)?;
    let mut commands = gpu.commands();
    crate::VectorLengths::new(gpu)
        .map_err(err)?
        .record(&mut commands, &vectors, &out)
        .map_err(err)?;
    commands.submit().map_err(err)?;
    let got = vector_lengths::sorted(out.read().await.map_err(err)?);
    if got == vector_lengths::sorted(vector_lengths::vector_lengths_cpu(&input)) {
        Ok("64 vectors, multiset of lengths equal, all in [1, 10]".into())
    } else {
        Err("lengths differ from the CPU".into())
    }
}
