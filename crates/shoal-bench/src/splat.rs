//! Particle splatting (the particle-rendering article): the article's table — rasterization against the compute path
//! in both packings, in the scenes 'normal', 'spread' and 'clumpy', ~2 million particles at
//! 1648x1776 — in GPU milliseconds from timestamps, with % change against rasterization.
//!
//! As in the document, the compute cost includes the clear of the integer buffer, the coarse
//! depth build and the composite; neither side includes the opaque scene, which both draw first.
//! Each cell is the median of [`REPEATS`] frames after one warm-up frame.

use shoal::{Gpu, Record};
use shoal_kernels::splat::{
    Packing, SceneData, SceneKind, Splat, SplatFrameArgs, SplatRasterArgs, SplatTarget,
};

const WIDTH: u32 = 1648;
const HEIGHT: u32 = 1776;
const PARTICLES: usize = 2_000_000;
const REPEATS: usize = 3;

/// The label a profiled batch gives the opaque scene's pass, which neither side's time includes.
const GEOMETRY: &str = "splat: splat geometry";

/// GPU time of the rasterized particles (one render pass, after the opaque scene).
fn raster_ms(
    gpu: &Gpu,
    splat: &Splat,
    target: &SplatTarget,
    scene: &shoal_kernels::splat::Scene,
) -> Result<f64, shoal::Error> {
    let mut commands = gpu.commands().profiled();
    splat.record(&mut commands, SplatRasterArgs { target, scene })?;
    let timings = pollster::block_on(commands.submit()?.timings())?;
    Ok(timings
        .iter()
        .filter(|t| t.label != GEOMETRY)
        .map(|t| t.millis())
        .sum())
}

/// GPU time of the compute path: clear, coarse depth, splat (dispatches) and composite (a
/// render pass), each timed by the profiled batch. Returns the total and the four parts.
fn compute_ms(
    gpu: &Gpu,
    splat: &Splat,
    target: &SplatTarget,
    scene: &shoal_kernels::splat::Scene,
) -> Result<(f64, Vec<f64>), shoal::Error> {
    let mut commands = gpu.commands().profiled();
    splat.record(&mut commands, SplatFrameArgs { target, scene })?;
    let timings = pollster::block_on(commands.submit()?.timings())?;
    let parts: Vec<f64> = (timings.iter())
        .filter(|t| t.label != GEOMETRY)
        .map(|t| t.millis())
        .collect();
    Ok((parts.iter().sum(), parts))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Runs the table on `gpu` and prints it.
pub(crate) fn run(gpu: &Gpu) -> Result<(), shoal::Error> {
    if !gpu.has_timestamps() {
        println!(
            "splat: this adapter has no timestamp queries; the table needs GPU times, skipped"
        );
        return Ok(());
    }
    let mut splats = vec![Splat::new(gpu, Some(Packing::TwoU32))?];
    if gpu.has_int64_atomics() {
        splats.push(Splat::new(gpu, Some(Packing::Int64))?);
    }
    let target = splats[0].target(WIDTH, HEIGHT)?;
    println!(
        "\nparticle splatting: {PARTICLES} particles at {WIDTH}x{HEIGHT}, GPU ms (median of {REPEATS}), % change vs rasterization"
    );
    let mut rows: Vec<(String, Vec<f64>)> = vec![("rasterization".into(), Vec::new())];
    rows.extend(
        splats
            .iter()
            .map(|s| (s.packing().name().to_string(), Vec::new())),
    );
    let mut parts_note = Vec::new();
    for kind in SceneKind::ALL {
        let scene = splats[0].upload(&SceneData::generate(kind, WIDTH, HEIGHT, PARTICLES, 1))?;
        raster_ms(gpu, &splats[0], &target, &scene)?;
        let raster: Vec<f64> = (0..REPEATS)
            .map(|_| raster_ms(gpu, &splats[0], &target, &scene))
            .collect::<Result<_, _>>()?;
        rows[0].1.push(median(raster));
        for (i, splat) in splats.iter().enumerate() {
            compute_ms(gpu, splat, &target, &scene)?;
            let mut runs = Vec::new();
            for _ in 0..REPEATS {
                runs.push(compute_ms(gpu, splat, &target, &scene)?);
            }
            runs.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (total, parts) = runs.swap_remove(runs.len() / 2);
            rows[i + 1].1.push(total);
            parts_note.push(format!(
                "  {:<8} {:<20} clear {:.2}  hi-z {:.2}  splat {:.2}  composite {:.2} ms",
                kind.name(),
                splat.packing().name(),
                parts.first().copied().unwrap_or(0.0),
                parts.get(1).copied().unwrap_or(0.0),
                parts.get(2).copied().unwrap_or(0.0),
                parts.get(3).copied().unwrap_or(0.0),
            ));
        }
    }
    println!(
        "  {:<22}{:>20}{:>20}{:>20}",
        "", "'normal'", "'spread'", "'clumpy'"
    );
    let raster = rows[0].1.clone();
    for (name, cells) in &rows {
        let text: Vec<String> = cells
            .iter()
            .zip(&raster)
            .map(|(ms, r)| {
                if name == "rasterization" {
                    format!("{ms:.2} ms")
                } else {
                    format!("{ms:.2} ms ({:+.0}%)", (ms / r - 1.0) * 100.0)
                }
            })
            .collect();
        println!(
            "  {:<22}{:>20}{:>20}{:>20}",
            name, text[0], text[1], text[2]
        );
    }
    println!("  compute parts:");
    for line in parts_note {
        println!("{line}");
    }
    Ok(())
}
