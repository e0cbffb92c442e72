//! The one registry of `shoal-kernels`: every kernel family run against its CPU twin, each
//! through `new`, `record` (into a `gpu.commands()` batch) and `run` (most through one helper,
//! `record_and_run`). It drives `cargo xtask run`, the web site's kernels page and the
//! contract test (every entry passes on the test adapter). The image and filter checks are here, the simulations' in `showcase/sims.rs`, the
//! primitives' in `checks.rs`.

use std::future::Future;
use std::pin::Pin;

use glam::Vec4;
use shoal::wgpu::TextureFormat;
use shoal::{AppendBuffer, Gpu, Image, Record};

use crate::checks;
use crate::test_image::test_image;
use crate::{
    BilateralArgs, BlurArgs, CartoonArgs, GridArgs, InvertArgs, MultiplyArgs, RayTraceArgs,
    RayTraceSceneArgs, SobelArgs, Strategy, TextureAddArgs, VectorLengthsArgs, bilateral, blur,
    grid, invert, raytrace, sobel, texture_add, vector_lengths,
};

mod sims;

/// What a check verified, or why it failed.
pub type Outcome = Result<String, String>;

/// A check of one kernel family on a device.
pub type Check = for<'a> fn(&'a Gpu) -> Pin<Box<dyn Future<Output = Outcome> + 'a>>;

/// One entry of the registry: a check of one family against its CPU twin.
#[derive(Clone, Copy)]
pub struct Entry {
    /// The family's type, as the crate root names it (`GaussianBlur`).
    pub family: &'static str,
    /// What the check runs, for a table row; it starts with the family's type.
    pub name: &'static str,
    /// The check.
    pub check: Check,
}

/// An [`Entry`] of `$family` named `$name` running the async fn `$check(gpu)`.
macro_rules! entry {
    ($family:literal, $name:literal, $check:expr) => {
        Entry {
            family: $family,
            name: $name,
            check: |g| Box::pin($check(g)),
        }
    };
}

/// Every entry: the image kernels, the filters, the simulations, then the primitives and the
/// splatting.
pub const ALL: &[Entry] = &[
    entry!("Invert", "Invert 320x200 (the lesson's)", invert),
    entry!(
        "Grid",
        "Grid 1280x720, (80, 45, 1) groups (the lesson's)",
        grid
    ),
    entry!(
        "TextureAdd",
        "TextureAdd 256x144 (the Direct3D 12 book's)",
        texture_add
    ),
    entry!("RayTracer", "RayTracer ortho 512x512 (the lesson's)", ortho),
    entry!(
        "RayTracer",
        "RayTracer scene 160x120 (beyond the lesson)",
        scene
    ),
    entry!(
        "VectorLengths",
        "VectorLengths append/consume (the Direct3D 12 book's exercise 3)",
        lengths
    ),
    entry!(
        "GaussianBlur",
        "GaussianBlur 96x64, sigma 2, 3 passes (the Direct3D 12 book's)",
        gaussian_blur
    ),
    entry!(
        "Sobel",
        "Sobel edges and multiply 96x64 (the Direct3D 12 book's exercise 6)",
        sobel
    ),
    entry!(
        "Cartoon",
        "Cartoon 96x64, blur + edges + multiply (the Direct3D 12 book's exercise 6)",
        cartoon
    ),
    entry!(
        "Bilateral",
        "Bilateral 64x48 (the Direct3D 12 book's exercise 4)",
        bilateral
    ),
    entry!(
        "Boids",
        "Boids 512 members, 3 steps (the lesson's)",
        sims::flock
    ),
    entry!(
        "Waves",
        "Waves 64x64, 21 steps (the Direct3D 12 book's exercise 5)",
        sims::surface
    ),
    entry!(
        "Particles",
        "Particles 300 + a fountain, 4 steps (the Direct3D 12 book's)",
        sims::fountain
    ),
    entry!(
        "Scan",
        "Scan multi-level, 3 tiles + 17 and a tile + 1 u32",
        scan_multi_level
    ),
    entry!(
        "Scan",
        "Scan decoupled look-back, 3 tiles + 17 and a tile + 1 u32",
        scan_look_back
    ),
    entry!(
        "WorkgroupScan",
        "WorkgroupScan 3 blocks + 17 and a block - 1, the OpenGL compute-shader lesson's kernel",
        checks::workgroup_scan
    ),
    entry!(
        "Reduce",
        "Reduce max and min, 20,011 and 4,099 u32",
        checks::reduce
    ),
    entry!(
        "Compact",
        "Compact 20,011 and 4,099 -> indirect dispatch counts",
        checks::compact
    ),
    entry!(
        "Segmented",
        "Segmented reduce-by-key 20,011 and scan 4,099 u32",
        checks::segmented
    ),
    entry!(
        "Histogram",
        "Histogram 256 bins, 20,011 and 4,099",
        checks::histogram
    ),
    entry!(
        "RadixSort",
        "RadixSort keys, pairs, argsort and by key, 20,011 and 4,099",
        checks::sort
    ),
    entry!(
        "Matmul",
        "Matmul tiled 129x67x131 and naive 33x17x65",
        checks::matmul
    ),
    entry!(
        "Splat",
        "Splat 'normal' scene, 20,000 particles, 160x120 (the particle-rendering article)",
        checks::splat
    ),
];

async fn scan_multi_level(gpu: &Gpu) -> Outcome {
    checks::scan(gpu, Strategy::MultiLevel).await
}

async fn scan_look_back(gpu: &Gpu) -> Outcome {
    checks::scan(gpu, Strategy::LookBack).await
}

/// The contract every entry goes through, on a family built with its `new`: `first` recorded
/// into a fresh `gpu.commands()` batch and submitted, then `second` run on its own (the two may
/// be different operations of the family). The caller reads both results back.
pub(crate) fn record_and_run<F, A, B>(family: &F, first: A, second: B) -> Result<(), String>
where
    F: Record<A> + Record<B>,
{
    let mut commands = family.gpu().commands();
    <F as Record<A>>::record(family, &mut commands, first).map_err(err)?;
    commands.submit().map_err(err)?;
    <F as Record<B>>::run(family, second).map_err(err)?;
    Ok(())
}

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
    let first = InvertArgs {
        input: &input,
        output: &output,
    };
    let second = InvertArgs {
        input: &output,
        output: &twice,
    };
    record_and_run(&kernel, first, second)?;
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
    // The lesson's image recorded into a batch, then an odd size run on its own.
    let (sw, sh) = (37, 21);
    let small = gpu
        .image_zeroed(sw, sh, TextureFormat::Rgba32Float)
        .map_err(err)?;
    let family = crate::Grid::new(gpu).map_err(err)?;
    record_and_run(
        &family,
        GridArgs { image: &image },
        GridArgs { image: &small },
    )?;
    let ok = image.read::<[f32; 4]>().await.map_err(err)? == grid::grid_cpu(w, h)
        && small.read::<[f32; 4]>().await.map_err(err)? == grid::grid_cpu(sw, sh);
    if ok {
        Ok(format!(
            "{w}x{h} recorded and {sw}x{sh} run, every pixel exact; work group (0,0) orange"
        ))
    } else {
        Err("pixels differ from the CPU".into())
    }
}

async fn texture_add(gpu: &Gpu) -> Outcome {
    let (w, h) = (256, 144);
    let a = pattern(w, h);
    let b: Vec<[f32; 4]> = a.iter().map(|t| t.map(|c| c * 0.5 + 1.0)).collect();
    let image = |texels: &[[f32; 4]]| gpu.image_from(w, h, TextureFormat::Rgba32Float, texels);
    let (ia, ib) = (image(&a).map_err(err)?, image(&b).map_err(err)?);
    let zeroed = || gpu.image_zeroed(w, h, TextureFormat::Rgba32Float);
    let (sum, twice) = (zeroed().map_err(err)?, zeroed().map_err(err)?);
    let family = crate::TextureAdd::new(gpu).map_err(err)?;
    // a + b recorded into a batch, then (a + b) + b run on its own.
    let first = TextureAddArgs {
        a: &ia,
        b: &ib,
        output: &sum,
    };
    let second = TextureAddArgs {
        a: &sum,
        b: &ib,
        output: &twice,
    };
    record_and_run(&family, first, second)?;
    let want = texture_add::texture_add_cpu(&a, &b);
    let ok = sum.read::<[f32; 4]>().await.map_err(err)? == want
        && twice.read::<[f32; 4]>().await.map_err(err)? == texture_add::texture_add_cpu(&want, &b);
    if ok {
        Ok(format!("{w}x{h}, recorded and run, every pixel exact"))
    } else {
        Err("pixels differ from the CPU".into())
    }
}

async fn ortho(gpu: &Gpu) -> Outcome {
    let n = raytrace::ORTHO_SIZE;
    let (sw, sh) = (97, 61);
    let image = gpu
        .image_zeroed(n, n, TextureFormat::Rgba32Float)
        .map_err(err)?;
    let small = gpu
        .image_zeroed(sw, sh, TextureFormat::Rgba32Float)
        .map_err(err)?;
    let family = crate::RayTracer::new(gpu).map_err(err)?;
    // The lesson's size recorded into a batch, an odd size run on its own.
    let (first, second) = (
        RayTraceArgs { image: &image },
        RayTraceArgs { image: &small },
    );
    record_and_run(&family, first, second)?;
    let mut differ = 0;
    for (image, w, h) in [(&image, n, n), (&small, sw, sh)] {
        let got = image.read::<[f32; 4]>().await.map_err(err)?;
        differ += got
            .iter()
            .zip(raytrace::ortho_cpu(w, h))
            .filter(|(g, c)| **g != *c)
            .count();
    }
    if differ <= 8 {
        Ok(format!(
            "{n}x{n} recorded and {sw}x{sh} run: hit masks, {differ} edge pixels differ (8 allowed)"
        ))
    } else {
        Err(format!("{differ} pixels differ"))
    }
}

async fn scene(gpu: &Gpu) -> Outcome {
    let (w, h) = (160, 120);
    let s = raytrace::Scene::default();
    let zeroed = || gpu.image_zeroed(w, h, TextureFormat::Rgba32Float);
    let (image, again) = (zeroed().map_err(err)?, zeroed().map_err(err)?);
    let family = crate::RayTracer::new(gpu).map_err(err)?;
    // Recorded into a batch, then run on its own into a second image (the kept uniform).
    let args = |image| RayTraceSceneArgs { scene: &s, image };
    record_and_run(&family, args(&image), args(&again))?;
    let want = raytrace::scene_cpu(&s, w, h);
    let tolerance = raytrace::SCENE_TOLERANCE;
    let allowed = (raytrace::SCENE_OUTLIERS * (w * h) as f64) as usize;
    let mut worst = 0;
    for image in [&image, &again] {
        let got = image.read::<[f32; 4]>().await.map_err(err)?;
        let off = got
            .iter()
            .zip(&want)
            .filter(|(g, c)| (0..4).any(|k| (g[k] - c[k]).abs() > tolerance))
            .count();
        worst = worst.max(off);
    }
    if worst <= allowed {
        Ok(format!(
            "{w}x{h} recorded and run, at most {worst} pixels beyond {tolerance} ({allowed} allowed)"
        ))
    } else {
        Err(format!(
            "{worst} pixels beyond {tolerance} ({allowed} allowed)"
        ))
    }
}

async fn lengths(gpu: &Gpu) -> Outcome {
    let family = crate::VectorLengths::new(gpu).map_err(err)?;
    // 64 vectors recorded into a batch, then 37 run on their own.
    for (n, seed, recorded) in [(64u64, 64, true), (37, 37, false)] {
        let input = vector_lengths::exercise_vectors(n as usize, seed);
        let vectors = gpu.append_buffer_from(&input, n).map_err(err)?;
        let out: AppendBuffer<f32> = gpu.append_buffer(n).map_err(err)?;
        let args = VectorLengthsArgs {
            vectors: &vectors,
            lengths: &out,
        };
        if recorded {
            let mut commands = gpu.commands();
            family.record(&mut commands, args).map_err(err)?;
            commands.submit().map_err(err)?;
        } else {
            family.run(args).map_err(err)?;
        }
        let got = vector_lengths::sorted(out.read().await.map_err(err)?);
        if got != vector_lengths::sorted(vector_lengths::vector_lengths_cpu(&input)) {
            return Err(format!("{n} vectors: lengths differ from the CPU"));
        }
    }
    Ok("64 vectors recorded, 37 run: multisets of lengths equal, all in [1, 10]".into())
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
    let filter = crate::GaussianBlur::new(gpu, params).map_err(err)?;
    // Two passes recorded into a batch, one more run on its own.
    let passes = |passes| BlurArgs {
        image: &image,
        passes,
    };
    record_and_run(&filter, passes(2), passes(1))?;
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
    let filter = crate::Sobel::new(gpu).map_err(err)?;
    // The edges recorded, then the picture multiplied by them run.
    let sobel = SobelArgs {
        src: &image,
        dst: &edges,
    };
    let multiply = MultiplyArgs {
        base: &image,
        edges: &edges,
        dst: &product,
    };
    record_and_run(&filter, sobel, multiply)?;
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
    let zeroed = || gpu.image_zeroed(w, h, TextureFormat::Rgba32Float);
    let (out, again) = (zeroed().map_err(err)?, zeroed().map_err(err)?);
    let params = crate::CartoonParams::default();
    let filter = crate::Cartoon::new(gpu, params).map_err(err)?;
    // Recorded into a batch, then run on its own into a second image (the kept scratch).
    let args = |dst| CartoonArgs { src: &image, dst };
    record_and_run(&filter, args(&out), args(&again))?;
    let want = sobel::cartoon_cpu(&src, w, h, &params).map_err(err)?;
    // The blur's 1e-5 passes through the Sobel's x8 gain at most.
    let e = compare("cartoon", &out, &want, 1e-4).await?;
    let e2 = compare("cartoon (run)", &again, &want, 1e-4).await?;
    compare("source", &image, &src, 0.0).await?;
    Ok(format!(
        "{w}x{h}, sigma {}, {} passes, recorded and run: every texel within {:.1e} of the CPU, source untouched",
        params.sigma,
        params.passes,
        e.max(e2)
    ))
}

async fn bilateral(gpu: &Gpu) -> Outcome {
    let (w, h) = (64, 48);
    let (src, image) = picture(gpu, w, h)?;
    let zeroed = || gpu.image_zeroed(w, h, TextureFormat::Rgba32Float);
    let (out, again) = (zeroed().map_err(err)?, zeroed().map_err(err)?);
    let params = crate::BilateralParams::default();
    let filter = crate::Bilateral::new(gpu, params).map_err(err)?;
    // Recorded into a batch, then run on its own into a second image.
    let args = |dst| BilateralArgs { src: &image, dst };
    record_and_run(&filter, args(&out), args(&again))?;
    // exp on the GPU may differ from the CPU's by a few ulps; the weights are normalised.
    let want = bilateral::bilateral_cpu(&src, w, h, &params);
    let e = compare("bilateral", &out, &want, 2e-5).await?;
    compare("bilateral (run)", &again, &want, 2e-5).await?;
    Ok(format!(
        "{w}x{h}, sigma_s {}, sigma_r {}: every texel within {e:.1e} of the CPU",
        params.spatial_sigma, params.range_sigma
    ))
}
