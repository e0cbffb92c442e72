//! Every image, filter, simulation and atomic kernel family run once against its CPU twin, through
//! `new`, `record` (into a `gpu.commands()` batch) and `run`, for `cargo xtask run`, the web
//! site's kernels page and the contract test. Each entry's name starts with its family's type.

use std::future::Future;
use std::pin::Pin;

use glam::Vec4;
use shoal::wgpu::TextureFormat;
use shoal::{AppendBuffer, Gpu, Image};

use crate::test_image::test_image;
use crate::{
    bilateral, blur, boids, grid, invert, particles, raytrace, sobel, texture_add, vector_lengths,
    waves,
};

/// What a check verified, or why it failed.
pub type Outcome = Result<String, String>;

/// A check of one kernel family.
pub type Check = for<'a> fn(&'a Gpu) -> Pin<Box<dyn Future<Output = Outcome> + 'a>>;

/// Every check, by name.
pub const ALL: &[(&str, Check)] = &[
    ("Invert 320x200 (the lesson's)", |g| Box::pin(invert(g))),
    ("Grid 1280x720, (80, 45, 1) groups (the lesson's)", |g| {
        Box::pin(grid(g))
    }),
    ("TextureAdd 256x144 (the Direct3D 12 book's)", |g| {
        Box::pin(texture_add(g))
    }),
    ("RayTracer ortho 512x512 (the lesson's)", |g| {
        Box::pin(ortho(g))
    }),
    ("RayTracer scene 160x120 (beyond the lesson)", |g| {
        Box::pin(scene(g))
    }),
    (
        "VectorLengths append/consume (the Direct3D 12 book's exercise 3)",
        |g| Box::pin(lengths(g)),
    ),
    (
        "GaussianBlur 96x64, sigma 2, 3 passes (the Direct3D 12 book's)",
        |g| Box::pin(gaussian_blur(g)),
    ),
    (
        "Sobel edges and multiply 96x64 (the Direct3D 12 book's exercise 6)",
        |g| Box::pin(sobel(g)),
    ),
    (
        "Cartoon 96x64, blur + edges + multiply (the Direct3D 12 book's exercise 6)",
        |g| Box::pin(cartoon(g)),
    ),
    ("Bilateral 64x48 (the Direct3D 12 book's exercise 4)", |g| {
        Box::pin(bilateral(g))
    }),
    ("Boids 512 members, 3 steps (the lesson's)", |g| {
        Box::pin(flock(g))
    }),
    (
        "Waves 64x64, 21 steps (the Direct3D 12 book's exercise 5)",
        |g| Box::pin(surface(g)),
    ),
    (
        "Particles 300 + a fountain, 4 steps (the Direct3D 12 book's)",
        |g| Box::pin(fountain(g)),
    ),
];

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The largest of `errors`, NaN if any is NaN (a NaN never passes a tolerance).
fn max_error(errors: impl Iterator<Item = f32>) -> f32 {
    errors.fold(0.0, |m, e| {
        if e.is_nan() || m.is_nan() {
            f32::NAN
        } else {
            m.max(e)
        }
    })
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
    let output = gpu
        .image_zeroed(w, h, TextureFormat::Rgba32Float)
        .map_err(err)?;
    let twice = gpu
        .image_zeroed(w, h, TextureFormat::Rgba32Float)
        .map_err(err)?;
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
    let image = gpu
        .image_zeroed(w, h, TextureFormat::Rgba32Float)
        .map_err(err)?;
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
    let out = gpu
        .image_zeroed(w, h, TextureFormat::Rgba32Float)
        .map_err(err)?;
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
    let image = gpu
        .image_zeroed(n, n, TextureFormat::Rgba32Float)
        .map_err(err)?;
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
    let image = gpu
        .image_zeroed(w, h, TextureFormat::Rgba32Float)
        .map_err(err)?;
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

/// The test picture as an rgba32float image, and its texels.
fn picture(gpu: &Gpu, w: u32, h: u32) -> Result<(Vec<Vec4>, Image), String> {
    let texels = test_image(w, h);
    let image = gpu
        .image_from(w, h, TextureFormat::Rgba32Float, &texels)
        .map_err(err)?;
    Ok((texels, image))
}

/// The largest per-channel difference between `image` and `want`, checked against `tolerance`.
async fn compare(what: &str, image: &Image, want: &[Vec4], tolerance: f32) -> Result<f32, String> {
    let got: Vec<Vec4> = image.read().await.map_err(err)?;
    if got.len() != want.len() {
        return Err(format!(
            "{what}: {} texels, the CPU has {}",
            got.len(),
            want.len()
        ));
    }
    let worst = max_error(
        got.iter()
            .zip(want)
            .map(|(g, w)| (*g - *w).abs().max_element()),
    );
    if worst <= tolerance {
        Ok(worst)
    } else {
        Err(format!(
            "{what}: a texel differs from the CPU by {worst} (tolerance {tolerance})"
        ))
    }
}

async fn gaussian_blur(gpu: &Gpu) -> Outcome {
    let (w, h) = (96, 64);
    let (src, image) = picture(gpu, w, h)?;
    let params = blur::BlurParams {
        sigma: 2.0,
        ..blur::BlurParams::default()
    };
    let filter = blur::GaussianBlur::new(gpu, params).map_err(err)?;
    // Two passes recorded into a batch, one more run on its own.
    let mut commands = gpu.commands();
    filter.record(&mut commands, &image, 2).map_err(err)?;
    commands.submit().map_err(err)?;
    filter.run(&image, 1).map_err(err)?;
    let want = blur::gaussian_blur_cpu(&src, w, h, filter.weights(), 3);
    let e = compare("blur", &image, &want, 1e-5).await?;
    Ok(format!(
        "{w}x{h}, R = {}, N = {}: every texel within {e:.1e} of the CPU",
        filter.radius(),
        filter.workgroup_size()
    ))
}

async fn sobel(gpu: &Gpu) -> Outcome {
    let (w, h) = (96, 64);
    let (src, image) = picture(gpu, w, h)?;
    let edges = gpu
        .image_zeroed(w, h, TextureFormat::Rgba32Float)
        .map_err(err)?;
    let product = gpu
        .image_zeroed(w, h, TextureFormat::Rgba32Float)
        .map_err(err)?;
    let filter = sobel::Sobel::new(gpu).map_err(err)?;
    let mut commands = gpu.commands();
    filter.record(&mut commands, &image, &edges).map_err(err)?;
    commands.submit().map_err(err)?;
    filter.run_multiply(&image, &edges, &product).map_err(err)?;
    let want_edges = sobel::sobel_cpu(&src, w, h);
    let want = sobel::composite_multiply_cpu(&src, &want_edges);
    let e = compare("edges", &edges, &want_edges, 1e-5).await?;
    let m = compare("multiply", &product, &want, 1e-5).await?;
    Ok(format!(
        "{w}x{h}: edges within {e:.1e}, picture x edges within {m:.1e} of the CPU"
    ))
}

async fn cartoon(gpu: &Gpu) -> Outcome {
    let (w, h) = (96, 64);
    let (src, image) = picture(gpu, w, h)?;
    let out = gpu
        .image_zeroed(w, h, TextureFormat::Rgba32Float)
        .map_err(err)?;
    let params = sobel::CartoonParams::default();
    let filter = sobel::Cartoon::new(gpu, params).map_err(err)?;
    let mut commands = gpu.commands();
    filter.record(&mut commands, &image, &out).map_err(err)?;
    commands.submit().map_err(err)?;
    let want = sobel::cartoon_cpu(&src, w, h, &params).map_err(err)?;
    // The blur's 1e-5 passes through the Sobel's x8 gain at most.
    let e = compare("cartoon", &out, &want, 1e-4).await?;
    compare("source", &image, &src, 0.0).await?;
    Ok(format!(
        "{w}x{h}, sigma {}, {} passes: every texel within {e:.1e} of the CPU, source untouched",
        params.sigma, params.passes
    ))
}

async fn bilateral(gpu: &Gpu) -> Outcome {
    let (w, h) = (64, 48);
    let (src, image) = picture(gpu, w, h)?;
    let out = gpu
        .image_zeroed(w, h, TextureFormat::Rgba32Float)
        .map_err(err)?;
    let params = bilateral::BilateralParams::default();
    let filter = bilateral::Bilateral::new(gpu, params).map_err(err)?;
    let mut commands = gpu.commands();
    filter.record(&mut commands, &image, &out).map_err(err)?;
    commands.submit().map_err(err)?;
    // exp on the GPU may differ from the CPU's by a few ulps; the weights are normalised.
    let e = compare(
        "bilateral",
        &out,
        &bilateral::bilateral_cpu(&src, w, h, &params),
        2e-5,
    )
    .await?;
    Ok(format!(
        "{w}x{h}, sigma_s {}, sigma_r {}: every texel within {e:.1e} of the CPU",
        params.spatial_sigma, params.range_sigma
    ))
}

async fn flock(gpu: &Gpu) -> Outcome {
    let start = boids::document_flock(512);
    let mut flock = boids::Boids::new(gpu, &start).map_err(err)?;
    let times = [0.0f32, 0.5, 1.0];
    // Two steps recorded into a batch, the third run on its own.
    let mut commands = gpu.commands();
    for &t in &times[..2] {
        flock.record_step(&mut commands, t).map_err(err)?;
    }
    commands.submit().map_err(err)?;
    flock.step(times[2]).map_err(err)?;
    let got = flock.read().await.map_err(err)?;
    let want = times.iter().fold(start, |members, &t| {
        boids::cpu::boids_step_cpu(&members, &boids::Params::at(t, flock.rules()))
    });
    // Relative to max(1, |cpu|): sums over 512 members in the same order, fused on the GPU.
    let worst = max_error(got.iter().zip(&want).flat_map(|(g, w)| {
        [(g.position, w.position), (g.velocity, w.velocity)]
            .map(|(a, b)| ((a - b).abs() / b.abs().max(glam::Vec3::ONE)).max_element())
    }));
    if worst < 1e-3 {
        Ok(format!(
            "{} members, 3 steps: within {worst:.1e} of the CPU",
            got.len()
        ))
    } else {
        Err(format!(
            "a member differs from the CPU by {worst} (relative)"
        ))
    }
}

async fn surface(gpu: &Gpu) -> Outcome {
    let size = 64;
    let mut surface =
        waves::Waves::new(gpu, size, size, waves::WaveParams::default()).map_err(err)?;
    let mut cpu = waves::cpu::WavesCpu::new(size, size, surface.constants());
    let mut commands = gpu.commands();
    surface
        .record_disturb(&mut commands, 20, 30, 1.0)
        .map_err(err)?;
    cpu.disturb(20, 30, 1.0);
    for _ in 0..20 {
        surface.record_step(&mut commands).map_err(err)?;
        cpu.step();
    }
    commands.submit().map_err(err)?;
    surface.step().map_err(err)?;
    cpu.step();
    let got = surface.read().await.map_err(err)?;
    let scale = cpu.curr.iter().fold(1e-6f32, |m, h| m.max(h.abs()));
    let worst = max_error(
        got.iter()
            .zip(&cpu.curr)
            .map(|(g, w)| (g - w).abs() / scale),
    );
    if worst < 1e-4 {
        Ok(format!(
            "{size}x{size}, 21 steps: every height within {worst:.1e} (relative) of the CPU"
        ))
    } else {
        Err(format!(
            "a height differs from the CPU by {worst} (relative)"
        ))
    }
}

async fn fountain(gpu: &Gpu) -> Outcome {
    let start: Vec<particles::Particle> = (0..300u32)
        .map(|i| particles::Particle {
            position: glam::Vec3::new(i as f32 * 0.1, 0.0, 0.0),
            velocity: glam::Vec3::new(0.0, 1.0 + (i % 7) as f32, 0.0),
            acceleration: glam::Vec3::new(0.0, -9.8, 0.0),
            age: (i % 30) as f32 * 0.01,
            id: i,
        })
        .collect();
    let settings = particles::ParticleSettings {
        lifetime: 0.3,
        emit_per_emitter: 25,
        emitters: vec![particles::Emitter::fountain(glam::Vec3::ZERO)],
        ..particles::ParticleSettings::default()
    };
    let mut system = particles::Particles::new(gpu, &start, 1000, settings.clone()).map_err(err)?;
    let mut want = start;
    let mut commands = gpu.commands();
    for _ in 0..3 {
        want = particles::cpu::particles_step_cpu(&want, &system.next_step(), &settings.emitters);
        system.record_step(&mut commands).map_err(err)?;
    }
    commands.submit().map_err(err)?;
    want = particles::cpu::particles_step_cpu(&want, &system.next_step(), &settings.emitters);
    system.step().map_err(err)?;
    let count = system.count().await.map_err(err)?;
    let mut got = system.read().await.map_err(err)?;
    got.sort_by_key(|p| p.id);
    want.sort_by_key(|p| p.id);
    let ids = |v: &[particles::Particle]| v.iter().map(|p| p.id).collect::<Vec<_>>();
    if count as usize != want.len() || ids(&got) != ids(&want) {
        return Err(format!(
            "{count} particles live, the CPU has {}, or their ids differ",
            want.len()
        ));
    }
    let worst = max_error(got.iter().zip(&want).map(|(g, w)| {
        (g.position - w.position)
            .abs()
            .max((g.velocity - w.velocity).abs())
            .max_element()
    }));
    if worst < 1e-4 {
        Ok(format!(
            "{count} particles after 4 steps: the CPU's ids, states within {worst:.1e}"
        ))
    } else {
        Err(format!("a particle differs from the CPU by {worst}"))
    }
}
