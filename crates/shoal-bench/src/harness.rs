//! The kernel benchmark harness: every entry is timed (median of several runs after a warm-up),
//! checked against its CPU twin, and compared with the vec4 copy kernel over the same bytes in
//! the same process ([`crate::copy`]), with a sequential CPU baseline, and with a peer library
//! where one exists (its output checked too). The same code runs natively (blocked on by
//! pollster) and in the browser (awaited from the page), so both verify alike.
//!
//! A kernel family adds itself with one [`Entry`]: a name, the bytes per element its copy
//! comparison should move, and a `setup` that makes a [`Case`] for a size.

use std::future::Future;
use std::pin::Pin;

use serde::Serialize;
use shoal::{Commands, Gpu, TimingSource};
use web_time::Instant;

use crate::copy::Copy;

/// Timed runs per measurement, after one warm-up run.
pub const RUNS: usize = 7;

/// Runs recorded into one batch per measurement where the adapter has no timestamp queries: the
/// batch's wall clock, from submit to the queue's completion, divided by this.
pub const WALL_CLOCK_REPS: usize = 10;

/// Timed runs of each peer configuration when there are several to choose from.
const CHOOSE_RUNS: usize = 3;

/// A boxed future (no `Send`: WebGPU's objects stay on the browser's thread).
pub type Fut<'a, T> = Pin<Box<dyn Future<Output = T> + 'a>>;

/// Makes the data and objects of a [`Case`] for `n` elements.
pub type Setup = fn(&Gpu, u64) -> Result<Box<dyn Case>, String>;

/// A benchmark: one kernel family's operation, at any size.
#[derive(Clone, Copy)]
pub struct Entry {
    /// Shown in the table, e.g. `scan u32 (look-back)`.
    pub name: &'static str,
    /// Bytes of input per element (the copy kernel moves that many per element, read and write).
    pub bytes_per_element: u64,
    /// Sizes to skip (e.g. where the CPU twin would take too long).
    pub max_log2: u32,
    /// Makes the data and objects for `n` elements.
    pub setup: Setup,
}

/// One entry at one size.
pub trait Case {
    /// Records restoring what a run changes in its own input (an in-place sort's keys), before
    /// every run and never timed: in a batch of its own before the profiled one, or where
    /// there are no timestamps, the wall clock of the resets alone subtracted.
    fn reset(&mut self, commands: &mut Commands) -> Result<(), shoal::Error> {
        let _ = commands;
        Ok(())
    }
    /// Records one run into `commands` (timed by the profiled batch: its dispatches, and its
    /// copies and clears where the device times them, [`Commands::profiled`]).
    fn record(&mut self, commands: &mut Commands) -> Result<(), shoal::Error>;
    /// Reads the result of the last run back and compares it with the CPU twin.
    fn verify(&mut self) -> Fut<'_, Result<(), String>>;
    /// Runs the CPU baseline once and returns its time in nanoseconds.
    fn cpu(&mut self) -> f64;
    /// The peer library's configurations for this adapter (what `peer_config` records); the
    /// harness measures each and keeps the fastest. Empty where there is no peer.
    fn peer_configs(&self) -> Vec<String> {
        Vec::new()
    }
    /// Runs the peer in configuration `config` (an index into [`Case::peer_configs`]) once and
    /// returns its GPU nanoseconds; with `check`, also reads its output back and compares it
    /// with the CPU twin.
    fn peer(&mut self, config: usize, check: bool) -> Fut<'_, Result<f64, String>> {
        let _ = (config, check);
        Box::pin(async { Err("this entry has no peer".to_string()) })
    }
}

/// One row of results, also one object of the JSON's `rows`.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// The [`Entry`]'s name (`primitive` in the CSV and the JSON).
    #[serde(rename = "primitive")]
    pub name: String,
    /// Elements.
    pub n: u64,
    /// The kernel's GPU time, median of [`RUNS`].
    pub gpu_ms: f64,
    /// The vec4 copy of the same bytes, median of [`RUNS`].
    pub copy_ms: f64,
    /// The sequential CPU baseline, median of three.
    pub cpu_ms: f64,
    /// The peer library, median of [`RUNS`]; `null` in the JSON where there is none.
    pub peer_ms: Option<f64>,
    /// The peer's configuration that was measured (the fastest of those tried).
    pub peer_config: Option<String>,
    /// How the times were taken: `timestamps`, or the wall-clock fallback's description.
    pub timing: String,
    /// Where the kernel's time goes, kernel by kernel (in the order they first run), from GPU
    /// timestamps; empty where the adapter has none.
    pub kernels: Vec<KernelTime>,
}

/// One kernel's share of a [`Row`]: its dispatches in one run and their time.
#[derive(Debug, Clone, Serialize)]
pub struct KernelTime {
    /// The kernel: its WGSL file and entry point, e.g. `wgsl/radix_sort_lanes.wgsl:scatter`.
    pub kernel: String,
    /// Its dispatches in one run.
    pub dispatches: usize,
    /// Their GPU time, the median over the runs of each run's sum (the kernels' medians need
    /// not add up to the row's).
    pub ms: f64,
}

impl Row {
    /// Elements per second of GPU time.
    pub fn per_second(&self) -> f64 {
        self.n as f64 / (self.gpu_ms / 1e3)
    }
}

/// What the harness reports while it runs.
pub enum Progress<'a> {
    /// Entry `name` at 2^`log2` starts; it is number `done` of `total`.
    Started {
        /// 1-based.
        done: usize,
        /// Entries times sizes.
        total: usize,
        /// The entry.
        name: &'a str,
        /// The size's log2.
        log2: u32,
    },
    /// A row is measured and verified, in `seconds` of wall time.
    Finished {
        /// The row.
        row: &'a Row,
        /// Wall time of the whole measurement.
        seconds: f64,
    },
}

/// The middle value (the upper one of an even count); NaN when there is none.
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        f64::NAN
    } else {
        v[v.len() / 2]
    }
}

/// How [`timed`] measures on `gpu`, as the JSON's `timing` field says it.
pub fn timing_source(gpu: &Gpu) -> String {
    if gpu.has_timestamps() {
        "timestamps".into()
    } else {
        format!(
            "wall clock: {WALL_CLOCK_REPS} runs in one batch, submit to the queue's completion, divided by {WALL_CLOCK_REPS}"
        )
    }
}

/// GPU nanoseconds of one run of `record`, and whether they came from timestamps: the sum of
/// the timestamps of its dispatches (and of its copies and clears where the device times them),
/// or without timestamp queries the wall clock of [`WALL_CLOCK_REPS`] runs in one batch (submit
/// to completion) divided by their number.
pub async fn timed(
    gpu: &Gpu,
    record: &mut dyn FnMut(&mut Commands) -> Result<(), shoal::Error>,
) -> Result<(f64, bool), String> {
    let (nanos, kernels) = timed_kernels(gpu, &mut |c, step| match step {
        Step::Reset => Ok(()),
        Step::Run => record(c),
    })
    .await?;
    Ok((nanos, kernels.is_some()))
}

/// What [`timed_kernels`] asks its closure to record: a [`Case::reset`] or a run.
#[derive(Clone, Copy)]
enum Step {
    Reset,
    Run,
}

/// Nanoseconds from submitting `commands` to the queue's completion of them.
async fn wall_clock(commands: Commands) -> Result<f64, String> {
    let started = Instant::now();
    let submission = commands.submit().map_err(|e| e.to_string())?;
    submission.wait().await.map_err(|e| e.to_string())?;
    Ok(started.elapsed().as_nanos() as f64)
}

/// What `case` records for each [`Step`].
fn steps(case: &mut dyn Case) -> impl FnMut(&mut Commands, Step) -> Result<(), shoal::Error> {
    move |c, step| match step {
        Step::Reset => case.reset(c),
        Step::Run => case.record(c),
    }
}

/// [`timed`] of a run preceded by a reset, with the nanoseconds of each kernel where they came
/// from timestamps: kernel, dispatches, nanoseconds, in the order the kernels first ran.
async fn timed_kernels(
    gpu: &Gpu,
    record: &mut dyn FnMut(&mut Commands, Step) -> Result<(), shoal::Error>,
) -> Result<(f64, Option<Vec<(String, usize, f64)>>), String> {
    let submit = |commands: Commands| async {
        let submission = commands.submit().map_err(|e| e.to_string())?;
        submission.timings().await.map_err(|e| e.to_string())
    };
    if !gpu.has_timestamps() {
        // Resets and runs alternate in one batch; the resets alone, timed the same way first (so
        // that the last run's output stays for `verify`), are taken off.
        let (mut resets, mut both) = (gpu.commands(), gpu.commands());
        for _ in 0..WALL_CLOCK_REPS {
            record(&mut resets, Step::Reset).map_err(|e| e.to_string())?;
            record(&mut both, Step::Reset).map_err(|e| e.to_string())?;
            record(&mut both, Step::Run).map_err(|e| e.to_string())?;
        }
        let resets = wall_clock(resets).await?;
        let both = wall_clock(both).await?;
        return Ok(((both - resets).max(0.0) / WALL_CLOCK_REPS as f64, None));
    }
    let mut reset = gpu.commands();
    record(&mut reset, Step::Reset).map_err(|e| e.to_string())?;
    reset.submit().map_err(|e| e.to_string())?;
    let mut commands = gpu.commands().profiled();
    record(&mut commands, Step::Run).map_err(|e| e.to_string())?;
    let timings = submit(commands).await?;
    let nanos = timings.iter().map(|t| t.nanos).sum::<f64>();
    if !timings
        .iter()
        .all(|t| t.source == TimingSource::GpuTimestamp)
    {
        return Ok((nanos, None));
    }
    let mut kernels: Vec<(String, usize, f64)> = Vec::new();
    for t in &timings {
        match kernels.iter_mut().find(|k| k.0 == t.label) {
            Some(k) => {
                k.1 += 1;
                k.2 += t.nanos;
            }
            None => kernels.push((t.label.clone(), 1, t.nanos)),
        }
    }
    Ok((nanos, Some(kernels)))
}

/// Runs `entries` at `sizes` (log2), telling `progress`, and returns the rows.
pub async fn run(
    gpu: &Gpu,
    entries: &[Entry],
    sizes: &[u32],
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Vec<Row>, String> {
    let copy = Copy::new(gpu).map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    let total = entries
        .iter()
        .map(|e| sizes.iter().filter(|&&s| s <= e.max_log2).count())
        .sum::<usize>();
    let mut done = 0;
    for entry in entries {
        for &log2 in sizes.iter().filter(|&&s| s <= entry.max_log2) {
            done += 1;
            progress(Progress::Started {
                done,
                total,
                name: entry.name,
                log2,
            });
            let started = Instant::now();
            let row = measure(gpu, &copy, entry, 1 << log2)
                .await
                .map_err(|e| format!("{} at n = 2^{log2}: {e}", entry.name))?;
            progress(Progress::Finished {
                row: &row,
                seconds: started.elapsed().as_secs_f64(),
            });
            rows.push(row);
        }
    }
    Ok(rows)
}

/// One row: the entry at `n` elements beside the copy, the peer and the CPU.
async fn measure(gpu: &Gpu, copy: &Copy, entry: &Entry, n: u64) -> Result<Row, String> {
    let copy_run = copy.prepare(gpu, n * entry.bytes_per_element).await?;
    let mut case = (entry.setup)(gpu, n)?;
    let stamped = timed_kernels(gpu, &mut steps(case.as_mut()))
        .await?
        .1
        .is_some();
    case.verify().await?;
    // lampshade times itself with timestamp queries only.
    let configs = if gpu.has_timestamps() {
        case.peer_configs()
    } else {
        Vec::new()
    };
    let peer = choose_peer(case.as_mut(), configs.len()).await?;
    // The copy, the kernel and the peer take turns run after run, so that a change in the
    // machine's load (software adapters share the CPU) weighs on all three alike.
    let (mut times, mut copies, mut peers) = (Vec::new(), Vec::new(), Vec::new());
    let mut kernels: Vec<(String, usize, Vec<f64>)> = Vec::new();
    for _ in 0..RUNS {
        copies.push(copy_run.nanos().await?);
        let (nanos, split) = timed_kernels(gpu, &mut steps(case.as_mut())).await?;
        times.push(nanos);
        for (kernel, dispatches, ns) in split.unwrap_or_default() {
            match kernels.iter_mut().find(|k| k.0 == kernel) {
                Some(k) => k.2.push(ns),
                None => kernels.push((kernel, dispatches, vec![ns])),
            }
        }
        if let Some(p) = peer {
            peers.push(case.peer(p, false).await?);
        }
    }
    Ok(Row {
        name: entry.name.to_string(),
        n,
        gpu_ms: median(times) / 1e6,
        copy_ms: median(copies) / 1e6,
        cpu_ms: median((0..3).map(|_| case.cpu()).collect()) / 1e6,
        peer_ms: peer.map(|_| median(peers) / 1e6),
        peer_config: peer.map(|p| configs[p].clone()),
        timing: if stamped {
            "timestamps".into()
        } else {
            timing_source(gpu)
        },
        kernels: kernels
            .into_iter()
            .map(|(kernel, dispatches, ns)| KernelTime {
                kernel,
                dispatches,
                ms: median(ns) / 1e6,
            })
            .collect(),
    })
}

/// Runs each of the `count` peer configurations once with its output checked, then, when there
/// are several, [`CHOOSE_RUNS`] times more each; returns the fastest's index by median.
async fn choose_peer(case: &mut dyn Case, count: usize) -> Result<Option<usize>, String> {
    let mut best: Option<(usize, f64)> = None;
    for config in 0..count {
        case.peer(config, true)
            .await
            .map_err(|e| format!("the peer: {e}"))?;
        let mut times = Vec::new();
        if count > 1 {
            for _ in 0..CHOOSE_RUNS {
                times.push(case.peer(config, false).await?);
            }
        }
        let t = median(times);
        if best.is_none_or(|(_, b)| t < b) {
            best = Some((config, t));
        }
    }
    Ok(best.map(|(config, _)| config))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shoal::{Buffer, Kernel};

    /// A run that changes its own input: `v = 2v + 1` on every element, which the reset puts
    /// back to zero, so one run after a reset leaves ones.
    struct Doubling {
        kernel: Kernel,
        zeros: Buffer<u32>,
        v: Buffer<u32>,
    }

    impl Case for Doubling {
        fn reset(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
            c.copy(&self.zeros, &self.v)?;
            Ok(())
        }
        fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
            let n = self.v.len();
            self.kernel.bind("v", &self.v).invocations(n).record(c)
        }
        fn verify(&mut self) -> Fut<'_, Result<(), String>> {
            Box::pin(async { Ok(()) })
        }
        fn cpu(&mut self) -> f64 {
            0.0
        }
    }

    /// Every run starts from its reset, and the reset's copy is not among the timed kernels:
    /// with timestamps (one run), and without them (wall clock, several runs in one batch), on a
    /// device asked for without timestamp queries.
    #[test]
    fn resets_come_before_every_run_and_are_not_timed() {
        for withheld in [wgpu_features(false), wgpu_features(true)] {
            let options = shoal::GpuOptions {
                withheld_features: withheld,
                ..Default::default()
            };
            let gpu = pollster::block_on(Gpu::with_options(options)).expect("gpu");
            let kernel = gpu
                .kernel(
                    "@group(0) @binding(0) var<storage, read_write> v: array<u32>;
                     @compute @workgroup_size(64)
                     fn double(@builtin(global_invocation_id) id: vec3<u32>) {
                         if id.x < arrayLength(&v) { v[id.x] = 2u * v[id.x] + 1u; }
                     }",
                )
                .expect("kernel");
            let n = 1000;
            let mut case = Doubling {
                kernel,
                zeros: gpu.buffer_zeroed(n).expect("buffer"),
                v: gpu.buffer_from(&vec![7u32; n as usize]).expect("buffer"),
            };
            let (nanos, kernels) =
                pollster::block_on(timed_kernels(&gpu, &mut steps(&mut case))).expect("timed");
            assert!(nanos.is_finite() && nanos >= 0.0, "{nanos}");
            let got = pollster::block_on(case.v.read()).expect("read");
            assert_eq!(got, vec![1u32; n as usize], "withheld {withheld:?}");
            match kernels {
                Some(k) => {
                    assert!(gpu.has_timestamps(), "kernels only from timestamps");
                    let names: Vec<&str> = k.iter().map(|k| k.0.as_str()).collect();
                    assert_eq!(names.len(), 1, "the dispatch alone: {names:?}");
                    assert!(!names.contains(&"copy"), "{names:?}");
                }
                None => assert!(!gpu.has_timestamps(), "wall clock only without timestamps"),
            }
        }
    }

    /// No features withheld, or the timestamp queries.
    fn wgpu_features(timestamps: bool) -> shoal::wgpu::Features {
        if timestamps {
            shoal::wgpu::Features::TIMESTAMP_QUERY
        } else {
            shoal::wgpu::Features::empty()
        }
    }
}
