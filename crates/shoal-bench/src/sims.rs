//! The filters and simulations of issue 5, timed with GPU timestamps (`Commands::profiled`):
//! what shared memory buys (the blur's N + 2R cache against a naive blur, the boids' tiles
//! against reading every member from memory), steps per second, and a CPU baseline for each
//! (the kernels crate's CPU twin, one thread).
//!
//! Each entry records one repetition per profiled submission and reports the median over the
//! repetitions of the sum of that repetition's dispatch times.

use std::time::Instant;

use shoal::{Commands, Gpu, Result, TimingSource};
use shoal_kernels::boids::{self, Boids, Variant};

/// The median GPU time in milliseconds of `reps` repetitions of what `record` records, after
/// one warm-up repetition, and whether it came from GPU timestamps.
fn gpu_millis(gpu: &Gpu, reps: usize, mut record: impl FnMut(&mut Commands) -> Result<()>) -> Result<(f64, bool)> {
    let mut times = Vec::with_capacity(reps);
    let mut timestamps = true;
    for rep in 0..=reps {
        let mut commands = gpu.commands().profiled();
        record(&mut commands)?;
        let timings = pollster::block_on(commands.submit()?.timings())?;
        timestamps &= timings.iter().all(|t| t.source == TimingSource::GpuTimestamp);
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
    if timestamps { "GPU timestamps" } else { "wall clock" }
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
        let (ms, ts) = gpu_millis(gpu, 3, |c| {
            time += 1.0 / 60.0;
            flock.record_steps(c, &[time])
        })?;
        results.push(ms);
        println!("  boids {n} members, {variant:?}: {ms:9.2} ms/step  {:8.2} steps/s  ({})", 1e3 / ms, source(ts));
    }
    let params = boids::Params::at(0.0, &boids::Rules::default());
    let cpu = cpu_millis(1, || {
        std::hint::black_box(boids::cpu::boids_step(&start, &params));
    });
    println!("  boids {n} members, CPU twin (1 thread): {cpu:9.2} ms/step");
    println!("  boids naive / tiled = {:.2}x; CPU / tiled = {:.2}x", results[1] / results[0], cpu / results[0]);
    Ok(())
}

/// Runs every entry whose name `wanted` accepts.
pub(crate) fn run(gpu: &Gpu, wanted: &dyn Fn(&str) -> bool) -> Result<()> {
    println!("\nfilters and simulations (issue 5), median of the repetitions:");
    if wanted("boids") {
        boids(gpu)?;
    }
    Ok(())
}
