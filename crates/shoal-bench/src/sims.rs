//! The filters and simulations of issue 5, timed with GPU timestamps (`Commands::profiled`):
//! what shared memory buys (the blur's N + 2R cache against a naive blur, the boids' tiles
//! against reading every member from memory), steps per second, and a CPU baseline for each
//! (the kernels crate's CPU twin, one thread).
//!
//! Each entry records one repetition per profiled submission and reports the median over the
//! repetitions of the sum of that repetition's dispatch times.

use std::time::Instant;

use shoal::wgpu::TextureFormat;
use shoal::{Commands, Gpu, Result, TimingSource};
use shoal_kernels::blur::BlurVariant;
use shoal_kernels::boids::Variant;
use shoal_kernels::test_image::test_image;
use shoal_kernels::{
    Bilateral, BilateralArgs, BilateralParams, BlurArgs, BlurParams, Boids, BoidsStepArgs,
    GaussianBlur, Record, Sobel, SobelArgs, WaveParams, Waves, WavesDisturbArgs, WavesStep,
    bilateral, blur, boids, sobel, waves,
};

/// The median GPU time in milliseconds of `reps` repetitions of what `record` records, after
/// one warm-up repetition, and whether it came from GPU timestamps.
fn gpu_millis(
    gpu: &Gpu,
    reps: usize,
    mut record: impl FnMut(&mut Commands) -> Result<()>,
) -> Result<(f64, bool)> {
    let mut times = Vec::with_capacity(reps);
    let mut timestamps = true;
    for rep in 0..=reps {
        let mut commands = gpu.commands().profiled();
        record(&mut commands)?;
        let timings = pollster::block_on(commands.submit()?.timings())?;
        timestamps &= timings
            .iter()
            .all(|t| t.source == TimingSource::GpuTimestamp);
        if rep > 0 {
            times.push(timings.iter().map(|t| t.millis()).sum::<f64>());
        }
    }
    times.sort_by(f64::total_cmp);
    Ok((times[times.len() / 2], timestamps))
}

fn cpu_millis(reps: usize, mut f: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn source(timestamps: bool) -> &'static str {
    if timestamps {
        "GPU timestamps"
    } else {
        "wall clock"
    }
}

/// Boids: one step of the document's 16384 members, tiled against naive, and a CPU step.
fn boids(gpu: &Gpu) -> Result<()> {
    let n = boids::DOCUMENT_FLOCK_SIZE;
    let start = boids::document_flock(n);
    let mut flock = Boids::new(gpu, &start)?;
    let mut time = 0.0f32;
    let mut results = Vec::new();
    for variant in [Variant::Tiled, Variant::Naive] {
        flock.set_variant(variant);
        // An O(N²) step of 16384 members takes seconds on a software adapter: one timed step.
        let (ms, ts) = gpu_millis(gpu, 1, |c| {
            time += 1.0 / 60.0;
            flock.record(c, BoidsStepArgs { time })
        })?;
        results.push(ms);
        println!(
            "  boids {n} members, {variant:?}: {ms:9.2} ms/step  {:8.2} steps/s  ({})",
            1e3 / ms,
            source(ts)
        );
    }
    let params = boids::Params::at(0.0, &boids::Rules::default());
    let cpu = cpu_millis(1, || {
        std::hint::black_box(boids::cpu::boids_step_cpu(&start, &params));
    });
    println!("  boids {n} members, CPU twin (1 thread): {cpu:9.2} ms/step");
    println!(
        "  boids naive / tiled = {:.2}x; CPU / tiled = {:.2}x",
        results[1] / results[0],
        cpu / results[0]
    );
    Ok(())
}

/// The blur at the particle paper's 1648x1776 with radius 15 (σ = 7.5), one pass (horizontal +
/// vertical): the N + 2R cache against reading every tap.
fn blur(gpu: &Gpu) -> Result<()> {
    let (w, h) = (1648, 1776);
    let src = test_image(w, h);
    let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src)?;
    let mut filter = GaussianBlur::new(
        gpu,
        BlurParams {
            sigma: 7.5,
            ..BlurParams::default()
        },
    )?;
    let mut results = Vec::new();
    for variant in [BlurVariant::Cached, BlurVariant::Naive] {
        filter.set_variant(variant)?;
        let args = BlurArgs {
            image: &image,
            passes: 1,
        };
        let (ms, ts) = gpu_millis(gpu, 3, |c| filter.record(c, args))?;
        results.push(ms);
        let texels_per_s = (w * h) as f64 / (ms / 1e3);
        println!(
            "  blur {w}x{h} r=15, {variant:?} (N = {}): {ms:9.2} ms/pass  {:8.1} Mtexel/s  ({})",
            filter.workgroup_size(),
            texels_per_s / 1e6,
            source(ts)
        );
    }
    let cpu = cpu_millis(1, || {
        std::hint::black_box(blur::gaussian_blur_cpu(&src, w, h, filter.weights(), 1));
    });
    println!("  blur {w}x{h} r=15, CPU twin (1 thread): {cpu:9.2} ms/pass");
    println!(
        "  blur naive / cached = {:.2}x; CPU / cached = {:.2}x",
        results[1] / results[0],
        cpu / results[0]
    );
    Ok(())
}

/// Sobel at 1648x1776.
fn sobel_entry(gpu: &Gpu) -> Result<()> {
    let (w, h) = (1648, 1776);
    let src = test_image(w, h);
    let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src)?;
    let out = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float)?;
    let filter = Sobel::new(gpu)?;
    let args = SobelArgs {
        src: &image,
        dst: &out,
    };
    let (ms, ts) = gpu_millis(gpu, 3, |c| filter.record(c, args))?;
    let cpu = cpu_millis(1, || {
        std::hint::black_box(sobel::sobel_cpu(&src, w, h));
    });
    println!(
        "  sobel {w}x{h}: {ms:9.2} ms  ({}); CPU twin {cpu:.2} ms = {:.2}x",
        source(ts),
        cpu / ms
    );
    Ok(())
}

/// The bilateral filter at 640x480 with σs = 2 (a 9x9 window), σr = 0.2.
fn bilateral_entry(gpu: &Gpu) -> Result<()> {
    let (w, h) = (640, 480);
    let src = test_image(w, h);
    let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src)?;
    let out = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float)?;
    let params = BilateralParams {
        spatial_sigma: 2.0,
        range_sigma: 0.2,
    };
    let filter = Bilateral::new(gpu, params)?;
    let args = BilateralArgs {
        src: &image,
        dst: &out,
    };
    let (ms, ts) = gpu_millis(gpu, 3, |c| filter.record(c, args))?;
    let cpu = cpu_millis(1, || {
        std::hint::black_box(bilateral::bilateral_cpu(&src, w, h, &params));
    });
    println!(
        "  bilateral {w}x{h} 9x9: {ms:9.2} ms  ({}); CPU twin {cpu:.2} ms = {:.2}x",
        source(ts),
        cpu / ms
    );
    Ok(())
}

/// Wave steps per second on the document's 512x512 grid, 20 steps per repetition.
fn waves_entry(gpu: &Gpu) -> Result<()> {
    let size = waves::DOCUMENT_SIZE;
    let params = WaveParams {
        width: size,
        height: size,
        ..WaveParams::default()
    };
    let surface = Waves::new(gpu, params)?;
    surface.run(WavesDisturbArgs {
        x: 256,
        y: 256,
        magnitude: 1.0,
    })?;
    let steps = 20;
    let (ms, ts) = gpu_millis(gpu, 3, |c| {
        (0..steps).try_for_each(|_| surface.record(c, WavesStep))
    })?;
    let per_step = ms / steps as f64;
    let mut cpu_surface = waves::cpu::WavesCpu::new(size, size, surface.constants());
    cpu_surface.disturb(256, 256, 1.0);
    let cpu = cpu_millis(3, || cpu_surface.step());
    println!(
        "  waves {size}x{size}: {per_step:9.3} ms/step  {:8.1} steps/s  ({}); CPU twin {cpu:.3} ms/step = {:.2}x",
        1e3 / per_step,
        source(ts),
        cpu / per_step
    );
    Ok(())
}

/// Runs every entry whose name `wanted` accepts.
pub(crate) fn run(gpu: &Gpu, wanted: &dyn Fn(&str) -> bool) -> Result<()> {
    println!("\nfilters and simulations (issue 5), median of the repetitions:");
    if wanted("blur") {
        blur(gpu)?;
    }
    if wanted("sobel") {
        sobel_entry(gpu)?;
    }
    if wanted("bilateral") {
        bilateral_entry(gpu)?;
    }
    if wanted("waves") {
        waves_entry(gpu)?;
    }
    if wanted("boids") {
        boids(gpu)?;
    }
    Ok(())
}
