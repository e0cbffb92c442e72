//! Particle splatting (the particle-rendering article): the article's table — rasterization against the compute path
//! in both packings, in the scenes 'normal', 'spread' and 'clumpy', ~2 million particles at
//! 1648x1776 — in GPU milliseconds from timestamps, with % change against rasterization.
//!
//! As in the document, the compute cost includes the clear of the integer buffer, the coarse
//! depth build and the composite; neither side includes the opaque scene, which both draw first.
//! Each cell is the median of [`REPEATS`] frames after one warm-up frame.

use shoal::{Buffer, Gpu, Usage, wgpu};
use shoal_kernels::splat::{Packing, SceneData, SceneKind, Splat, SplatTarget};

const WIDTH: u32 = 1648;
const HEIGHT: u32 = 1776;
const PARTICLES: usize = 2_000_000;
const REPEATS: usize = 3;

/// Two timestamps around one render pass, resolved into a buffer Shoal reads back.
struct PassTimer {
    queries: wgpu::QuerySet,
    resolved: Buffer<[u32; 2]>,
}

impl PassTimer {
    fn new(gpu: &Gpu) -> Result<Self, shoal::Error> {
        let queries = gpu.device().create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("splat render pass"),
            ty: wgpu::QueryType::Timestamp,
            count: 2,
        });
        Ok(Self {
            queries,
            resolved: gpu.buffer_zeroed_with(2, Usage::QUERY_RESOLVE)?,
        })
    }

    fn writes(&self) -> Option<wgpu::RenderPassTimestampWrites<'_>> {
        Some(wgpu::RenderPassTimestampWrites {
            query_set: &self.queries,
            beginning_of_pass_write_index: Some(0),
            end_of_pass_write_index: Some(1),
        })
    }

    fn resolve(&self, commands: &mut shoal::Commands) {
        commands
            .encoder()
            .resolve_query_set(&self.queries, 0..2, self.resolved.raw(), 0);
    }

    fn millis(&self, gpu: &Gpu) -> Result<f64, shoal::Error> {
        let t = self.resolved.read_blocking()?;
        let tick = |w: [u32; 2]| (u64::from(w[1]) << 32) | u64::from(w[0]);
        let ticks = tick(t[1]).saturating_sub(tick(t[0]));
        Ok(ticks as f64 * f64::from(gpu.queue().get_timestamp_period()) / 1e6)
    }
}

/// GPU time of the rasterized particles (one render pass).
fn raster_ms(
    gpu: &Gpu,
    splat: &Splat,
    target: &SplatTarget,
    scene: &shoal_kernels::splat::Scene,
    timer: &PassTimer,
) -> Result<f64, shoal::Error> {
    let mut commands = gpu.commands();
    splat.record_geometry(&mut commands, target, scene)?;
    splat.record_raster(&mut commands, target, scene, timer.writes())?;
    timer.resolve(&mut commands);
    commands.submit()?.wait_blocking()?;
    timer.millis(gpu)
}

/// GPU time of the compute path: clear, coarse depth, splat (timed dispatches) and composite
/// (a timed render pass). Returns the total and the four parts.
fn compute_ms(
    gpu: &Gpu,
    splat: &Splat,
    target: &SplatTarget,
    scene: &shoal_kernels::splat::Scene,
    timer: &PassTimer,
) -> Result<(f64, Vec<f64>), shoal::Error> {
    let mut commands = gpu.commands().profiled();
    splat.record_geometry(&mut commands, target, scene)?;
    splat.record_compute(&mut commands, target, scene, timer.writes())?;
    timer.resolve(&mut commands);
    let timings = pollster::block_on(commands.submit()?.timings())?;
    let mut parts: Vec<f64> = timings.iter().map(|t| t.millis()).collect();
    parts.push(timer.millis(gpu)?);
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
    let timer = PassTimer::new(gpu)?;
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
        raster_ms(gpu, &splats[0], &target, &scene, &timer)?;
        let raster: Vec<f64> = (0..REPEATS)
            .map(|_| raster_ms(gpu, &splats[0], &target, &scene, &timer))
            .collect::<Result<_, _>>()?;
        rows[0].1.push(median(raster));
        for (i, splat) in splats.iter().enumerate() {
            compute_ms(gpu, splat, &target, &scene, &timer)?;
            let mut runs = Vec::new();
            for _ in 0..REPEATS {
                runs.push(compute_ms(gpu, splat, &target, &scene, &timer)?);
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
