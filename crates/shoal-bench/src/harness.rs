//! The kernel benchmark harness: every entry is timed with GPU timestamps (median of several runs
//! after a warm-up), checked against its CPU twin, and compared with a vec4 copy kernel over the
//! same bytes in the same process, with a sequential CPU baseline, and with a peer library where
//! one exists. Results go to `target/shoal/bench/` as CSV, JSON and an SVG plot.
//!
//! The JSON is serde_json's, from the [`Row`]s' derived `Serialize`. The CSV and the SVG stay
//! hand-written, a `format!` a line: the fields are our own numbers and names (no commas, quotes
//! or markup in them), and a CSV or plotting crate would be more code to build than the few lines
//! it would replace.
//!
//! A kernel family adds itself with one [`Entry`]: a name, the bytes per element its copy
//! comparison should move, and a `setup` that makes a [`Case`] for a size.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use serde::Serialize;
use shoal::glam::UVec4;
use shoal::{Commands, Gpu, Kernel, TimingSource};

/// Timed runs per measurement, after one warm-up run.
const RUNS: usize = 7;

/// Makes the data and objects of a [`Case`] for `n` elements.
pub(crate) type Setup = fn(&Gpu, u64) -> Result<Box<dyn Case>, String>;

/// A benchmark: one kernel family's operation, at any size.
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    /// Shown in the table, e.g. `scan u32 (look-back)`.
    pub(crate) name: &'static str,
    /// Bytes of input per element (the copy kernel moves that many per element, read and write).
    pub(crate) bytes_per_element: u64,
    /// Sizes to skip (e.g. where the CPU twin would take too long).
    pub(crate) max_log2: u32,
    /// Makes the data and objects for `n` elements.
    pub(crate) setup: Setup,
}

/// One entry at one size.
pub(crate) trait Case {
    /// Records one run into `commands` (timed by the profiled batch).
    fn record(&mut self, commands: &mut Commands) -> Result<(), shoal::Error>;
    /// Reads the result of the last run back and compares it with the CPU twin.
    fn verify(&mut self) -> Result<(), String>;
    /// Runs the CPU baseline once and returns its time in nanoseconds.
    fn cpu(&mut self) -> f64;
    /// Runs the peer library once (GPU timestamps, ns), when there is one for this entry.
    fn peer(&mut self) -> Option<Result<f64, String>> {
        None
    }
}

/// One row of results, also one object of the JSON's `rows`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Row {
    /// The [`Entry`]'s name (`primitive` in the CSV and the JSON).
    #[serde(rename = "primitive")]
    pub(crate) name: String,
    /// Elements.
    pub(crate) n: u64,
    /// The kernel's GPU time, median of [`RUNS`].
    pub(crate) gpu_ms: f64,
    /// The vec4 copy of the same bytes, median of [`RUNS`].
    pub(crate) copy_ms: f64,
    /// The sequential CPU baseline, median of three.
    pub(crate) cpu_ms: f64,
    /// The peer library, median of [`RUNS`]; `null` in the JSON where there is none.
    pub(crate) peer_ms: Option<f64>,
    /// `timestamps`, or `wall clock` where the adapter has no GPU timestamps.
    pub(crate) timing: &'static str,
}

/// The JSON file: the adapter, the runs per median and the rows.
#[derive(Serialize)]
struct JsonReport<'a> {
    /// The adapter's details, as printed above the table.
    adapter: String,
    /// Timed runs per median ([`RUNS`]).
    runs: usize,
    /// Every result row.
    rows: &'a [Row],
}

impl Row {
    /// Elements per second of GPU time.
    fn per_second(&self) -> f64 {
        self.n as f64 / (self.gpu_ms / 1e3)
    }
}

/// The middle value (the upper one of an even count); NaN when there is none.
fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        f64::NAN
    } else {
        v[v.len() / 2]
    }
}

/// GPU nanoseconds of one profiled batch, and whether they came from timestamps.
fn timed(
    gpu: &Gpu,
    record: &mut dyn FnMut(&mut Commands) -> Result<(), shoal::Error>,
) -> Result<(f64, bool), String> {
    let mut commands = gpu.commands().profiled();
    record(&mut commands).map_err(|e| e.to_string())?;
    let timings = pollster::block_on(commands.submit().map_err(|e| e.to_string())?.timings())
        .map_err(|e| e.to_string())?;
    let stamped = timings
        .iter()
        .all(|t| t.source == TimingSource::GpuTimestamp);
    Ok((timings.iter().map(|t| t.nanos).sum(), stamped))
}

/// The vec4 copy kernel: `bytes` read and written, 16 per invocation.
pub(crate) struct Copy {
    /// The `copy` entry point.
    kernel: Kernel,
}

impl Copy {
    /// Compiles the copy kernel on `gpu`.
    pub(crate) fn new(gpu: &Gpu) -> Result<Self, shoal::Error> {
        let kernel = gpu.kernel(shoal::Source::new(
            "bench/copy.wgsl",
            "#import shoal::fold
            @group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
            @group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;
            @compute @workgroup_size(256)
            fn copy(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) lid: u32) {
                let i = shoal_linear_index(wid, nwg, lid, 256u);
                if i < arrayLength(&src) { dst[i] = src[i]; }
            }",
        ))?;
        Ok(Self { kernel })
    }

    /// The copy of `bytes`, ready to run (its buffers are made once).
    fn prepare(&self, gpu: &Gpu, bytes: u64) -> Result<CopyRun, String> {
        let len = bytes.div_ceil(16);
        let src = gpu
            .buffer_from(&(0..len as u32).map(UVec4::splat).collect::<Vec<_>>())
            .map_err(|e| e.to_string())?;
        let dst = gpu.buffer_zeroed::<UVec4>(len).map_err(|e| e.to_string())?;
        let mut run = CopyRun {
            gpu: gpu.clone(),
            kernel: self.kernel.clone(),
            src,
            dst,
        };
        run.nanos()?;
        let last =
            pollster::block_on(run.dst.read_range(len - 1..len)).map_err(|e| e.to_string())?;
        if last[0] != UVec4::splat((len - 1) as u32) {
            return Err("the copy kernel copied wrongly".into());
        }
        Ok(run)
    }
}

/// A copy kernel bound to its buffers.
struct CopyRun {
    /// The device the copy runs on.
    gpu: Gpu,
    /// [`Copy`]'s kernel.
    kernel: Kernel,
    /// What is read: the bytes rounded up to whole vec4s.
    src: shoal::Buffer<UVec4>,
    /// Where it is written, as long as `src`.
    dst: shoal::Buffer<UVec4>,
}

impl CopyRun {
    /// GPU nanoseconds of one copy.
    fn nanos(&mut self) -> Result<f64, String> {
        let (kernel, src, dst) = (&self.kernel, &self.src, &self.dst);
        Ok(timed(&self.gpu, &mut |c| {
            kernel
                .bind("src", src)
                .bind("dst", dst)
                .invocations(src.len())
                .record(c)
        })?
        .0)
    }
}

/// Runs `entries` at `sizes` (log2), printing progress, and returns the rows.
pub(crate) fn run(gpu: &Gpu, entries: &[Entry], sizes: &[u32]) -> Result<Vec<Row>, String> {
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
            let n = 1u64 << log2;
            eprint!("[{done}/{total}] {} at 2^{log2} ... ", entry.name);
            let started = Instant::now();
            let mut copy_run = copy.prepare(gpu, n * entry.bytes_per_element)?;
            let mut case = (entry.setup)(gpu, n)?;
            let (_, stamped) = timed(gpu, &mut |c| case.record(c))?;
            case.verify()
                .map_err(|e| format!("{} at n = {n}: {e}", entry.name))?;
            let has_peer = match case.peer() {
                None => false,
                Some(warm_up) => warm_up.map(|_| true)?,
            };
            // The copy, the kernel and the peer take turns run after run, so that a change in the
            // machine's load (software adapters share the CPU) weighs on all three alike.
            let (mut times, mut copies, mut peers) = (Vec::new(), Vec::new(), Vec::new());
            for _ in 0..RUNS {
                copies.push(copy_run.nanos()?);
                times.push(timed(gpu, &mut |c| case.record(c))?.0);
                if has_peer {
                    peers.push(case.peer().unwrap_or(Err("peer vanished".into()))?);
                }
            }
            let cpu_ms = median((0..3).map(|_| case.cpu()).collect()) / 1e6;
            let copy_ms = median(copies) / 1e6;
            let peer_ms = has_peer.then(|| median(peers) / 1e6);
            let row = Row {
                name: entry.name.to_string(),
                n,
                gpu_ms: median(times) / 1e6,
                copy_ms,
                cpu_ms,
                peer_ms,
                timing: if stamped { "timestamps" } else { "wall clock" },
            };
            eprintln!(
                "{:.3} ms ({:.2}x copy) verified, {:.1} s",
                row.gpu_ms,
                row.gpu_ms / row.copy_ms,
                started.elapsed().as_secs_f64()
            );
            rows.push(row);
        }
    }
    Ok(rows)
}

/// `a / b` with two decimals, for the table.
fn ratio(a: f64, b: f64) -> String {
    format!("{:.2}", a / b)
}

/// Prints the table and writes CSV, JSON and SVG under `target/shoal/bench/`.
pub(crate) fn report(gpu: &Gpu, rows: &[Row]) -> Result<PathBuf, String> {
    println!(
        "\nkernels on {} (GPU time: median of {RUNS} runs after a warm-up)\n",
        gpu.adapter_details()
    );
    println!(
        "{:<30} {:>6} {:>10} {:>12} {:>9} {:>9} {:>10} {:>11}",
        "primitive", "n", "GPU ms", "elements/s", "x copy", "CPU/GPU", "peer ms", "peer/shoal"
    );
    for r in rows {
        println!(
            "{:<30} {:>6} {:>10.3} {:>12.3e} {:>9} {:>9} {:>10} {:>11}",
            r.name,
            format!("2^{}", r.n.trailing_zeros()),
            r.gpu_ms,
            r.per_second(),
            ratio(r.gpu_ms, r.copy_ms),
            ratio(r.cpu_ms, r.gpu_ms),
            r.peer_ms
                .map(|p| format!("{p:.3}"))
                .unwrap_or_else(|| "-".into()),
            r.peer_ms
                .map(|p| ratio(p, r.gpu_ms))
                .unwrap_or_else(|| "-".into()),
        );
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/shoal/bench");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let backend = format!("{:?}", gpu.adapter_details().backend).to_lowercase();
    let stem = dir.join(format!("primitives-{backend}"));
    let mut csv = String::from(
        "primitive,n,gpu_ms,copy_ms,cpu_ms,peer_ms,elements_per_s,x_copy,cpu_over_gpu,peer_over_shoal,timing\n",
    );
    for r in rows {
        let peer = r.peer_ms.map(|p| p.to_string()).unwrap_or_default();
        let peer_ratio = r
            .peer_ms
            .map(|p| (p / r.gpu_ms).to_string())
            .unwrap_or_default();
        csv.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{}\n",
            r.name,
            r.n,
            r.gpu_ms,
            r.copy_ms,
            r.cpu_ms,
            peer,
            r.per_second(),
            r.gpu_ms / r.copy_ms,
            r.cpu_ms / r.gpu_ms,
            peer_ratio,
            r.timing
        ));
    }
    let report = JsonReport {
        adapter: gpu.adapter_details().to_string(),
        runs: RUNS,
        rows,
    };
    let json = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())? + "\n";
    let write = |ext: &str, text: &str| -> Result<(), String> {
        let mut f = std::fs::File::create(stem.with_extension(ext)).map_err(|e| e.to_string())?;
        f.write_all(text.as_bytes()).map_err(|e| e.to_string())
    };
    write("csv", &csv)?;
    write("json", &json)?;
    write("svg", &svg(rows, &gpu.adapter_details().name))?;
    println!("\nwritten: {}.{{csv,json,svg}}", stem.display());
    Ok(stem)
}

/// A log-log plot of time relative to the copy kernel against n, one line per primitive.
fn svg(rows: &[Row], adapter: &str) -> String {
    let (w, h, left, right, top, bottom) = (760.0, 420.0, 70.0, 230.0, 40.0, 50.0);
    let names: Vec<&str> = rows.iter().fold(Vec::new(), |mut v, r| {
        if !v.contains(&r.name.as_str()) {
            v.push(r.name.as_str());
        }
        v
    });
    let xs: Vec<f64> = rows.iter().map(|r| (r.n as f64).log2()).collect();
    let ys: Vec<f64> = rows
        .iter()
        .map(|r| (r.gpu_ms / r.copy_ms).log10())
        .collect();
    let (x0, x1) = (
        xs.iter().copied().fold(f64::MAX, f64::min) - 0.5,
        xs.iter().copied().fold(f64::MIN, f64::max) + 0.5,
    );
    let (y0, y1) = (
        ys.iter().copied().fold(0.0, f64::min).floor(),
        ys.iter().copied().fold(1.0, f64::max).ceil(),
    );
    let px = |x: f64| left + (x - x0) / (x1 - x0) * (w - left - right);
    let py = |y: f64| h - bottom - (y - y0) / (y1 - y0) * (h - top - bottom);
    let colours = [
        "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666",
        "#1f78b4", "#b2df8a",
    ];
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{left}\" y=\"20\" font-size=\"14\">GPU time / vec4 copy of the same bytes ({adapter})</text>\n"
    );
    let mut decade = y0;
    while decade <= y1 {
        let y = py(decade);
        s.push_str(&format!(
            "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}x</text>\n",
            w - right,
            left - 6.0,
            y + 4.0,
            10f64.powf(decade)
        ));
        decade += 1.0;
    }
    for x in (x0.ceil() as u32)..=(x1.floor() as u32) {
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">2^{x}</text>\n",
            px(x as f64),
            h - bottom + 18.0
        ));
    }
    s.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">n (elements)</text>\n",
        (left + w - right) / 2.0,
        h - 10.0
    ));
    for (k, name) in names.iter().enumerate() {
        let colour = colours[k % colours.len()];
        let points: Vec<String> = rows
            .iter()
            .zip(xs.iter().zip(&ys))
            .filter(|(r, _)| r.name == *name)
            .map(|(_, (&x, &y))| format!("{:.1},{:.1}", px(x), py(y)))
            .collect();
        s.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\n",
            points.join(" ")
        ));
        for p in &points {
            let (x, y) = p.split_once(',').unwrap_or(("0", "0"));
            s.push_str(&format!(
                "<circle cx=\"{x}\" cy=\"{y}\" r=\"3\" fill=\"{colour}\"/>\n"
            ));
        }
        let ly = top + 10.0 + k as f64 * 18.0;
        s.push_str(&format!(
            "<line x1=\"{:.1}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"{colour}\" stroke-width=\"3\"/><text x=\"{:.1}\" y=\"{:.1}\">{name}</text>\n",
            w - right + 10.0,
            w - right + 30.0,
            w - right + 36.0,
            ly + 4.0
        ));
    }
    s.push_str("</svg>\n");
    s
}
