//! A run's results as text: the table printed natively and shown in the browser, the CSV, the
//! JSON (serde_json's, from the derived `Serialize`) and the Markdown page published under
//! `docs/bench/`, the same on every adapter. The CSV stays hand-written, a `format!` a line: its
//! fields are our own numbers and names (no commas or quotes in them).

use serde::Serialize;

use crate::harness::{RUNS, Row};

/// The JSON file: where and how it was measured, and the rows.
#[derive(Serialize)]
pub struct Report {
    /// The adapter's details, as printed above the table.
    pub adapter: String,
    /// The backend's name in the file names: `vulkan`, `gl`, `webgpu`, or `swiftshader` (its
    /// Vulkan driver run natively).
    pub backend: String,
    /// The file names' adapter part: `lavapipe`, `llvmpipe`, `swiftshader`, or the adapter's
    /// name in lower case, words joined by `-` ([`adapter_slug`]).
    pub adapter_slug: String,
    /// What was measured when, beyond the adapter.
    #[serde(flatten)]
    pub stamp: Stamp,
    /// `release` (optimised, what `cargo xtask bench` builds) or `debug`.
    pub build: &'static str,
    /// Timed runs per median ([`RUNS`]).
    pub runs: usize,
    /// Every result row.
    pub rows: Vec<Row>,
}

/// Where and when a run was measured, beyond the adapter: `cargo xtask bench` passes the commit,
/// the CPU and the date (natively in `SHOAL_BENCH_COMMIT`, `SHOAL_BENCH_CPU` and
/// `SHOAL_BENCH_DATE`, to the bench page in its address); each is `None` when the bench runs
/// without xtask.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Stamp {
    /// The commit the benchmark was built from (`git describe --always --dirty`).
    pub commit: Option<String>,
    /// The machine's CPU (its model name and hardware threads, from `/proc/cpuinfo`).
    pub cpu: Option<String>,
    /// The day of the run (UTC, `YYYY-MM-DD`).
    pub date: Option<String>,
    /// The filter words the run was given: empty when every benchmark ran.
    pub filter: Vec<String>,
}

/// The adapter part of the published files' names: Mesa's software drivers by the name they are
/// known by (its Vulkan driver calls itself llvmpipe too), SwiftShader by its own, any other
/// adapter by its name up to a parenthesis, in lower case, words joined by `-`.
pub fn adapter_slug(details: &shoal::AdapterDetails) -> String {
    let name = details.name.to_ascii_lowercase();
    match details.backend {
        shoal::wgpu::Backend::Vulkan if name.contains("llvmpipe") => return "lavapipe".into(),
        _ if name.contains("llvmpipe") => return "llvmpipe".into(),
        _ if name.contains("swiftshader") => return "swiftshader".into(),
        _ => {}
    }
    let words: Vec<&str> = name
        .split('(')
        .next()
        .unwrap_or_default()
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        "unknown".into()
    } else {
        words.join("-")
    }
}

impl Report {
    /// A report of `rows` measured on `gpu`, built as this crate was.
    pub fn new(gpu: &shoal::Gpu, stamp: Stamp, rows: Vec<Row>) -> Self {
        let details = gpu.adapter_details();
        Self {
            adapter: details.to_string(),
            backend: match details.backend {
                shoal::wgpu::Backend::BrowserWebGpu => "webgpu".into(),
                b => format!("{b:?}").to_lowercase(),
            },
            adapter_slug: adapter_slug(details),
            stamp,
            build: if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            },
            runs: RUNS,
            rows,
        }
    }

    /// The table: absolute milliseconds beside every ratio, then each peer's configuration.
    pub fn table(&self) -> String {
        let mut s = format!(
            "kernels on {} ({} build{}; times: median of {RUNS} runs after a warm-up)\n\n",
            self.adapter,
            self.build,
            self.stamp
                .commit
                .as_ref()
                .map(|c| format!(" of {c}"))
                .unwrap_or_default(),
        );
        s.push_str(&format!(
            "{:<28} {:>5} {:>10} {:>10} {:>7} {:>10} {:>8} {:>10} {:>10} {:>11}\n",
            "primitive",
            "n",
            "GPU ms",
            "copy ms",
            "x copy",
            "CPU ms",
            "CPU/GPU",
            "peer ms",
            "peer/shoal",
            "elements/s"
        ));
        let or_dash = |v: Option<String>| v.unwrap_or_else(|| "-".into());
        for r in &self.rows {
            s.push_str(&format!(
                "{:<28} {:>5} {:>10.3} {:>10.3} {:>7} {:>10.3} {:>8} {:>10} {:>10} {:>11.3e}\n",
                r.name,
                format!("2^{}", r.n.trailing_zeros()),
                r.gpu_ms,
                r.copy_ms,
                ratio(r.gpu_ms, r.copy_ms),
                r.cpu_ms,
                ratio(r.cpu_ms, r.gpu_ms),
                or_dash(r.peer_ms.map(|p| format!("{p:.3}"))),
                or_dash(r.peer_ms.map(|p| ratio(p, r.gpu_ms))),
                r.per_second(),
            ));
        }
        let mut configs: Vec<String> = Vec::new();
        for r in &self.rows {
            if let Some(c) = &r.peer_config {
                let line = format!("  {}: lampshade {c}", r.name);
                if !configs.contains(&line) {
                    configs.push(line);
                }
            }
        }
        if !configs.is_empty() {
            s.push_str("\npeer configurations (the fastest of those tried):\n");
            s.push_str(&configs.join("\n"));
            s.push('\n');
        }
        s.push_str(&self.kernel_split());
        let timings: Vec<&str> = self.rows.iter().fold(Vec::new(), |mut v, r| {
            if !v.contains(&r.timing.as_str()) {
                v.push(r.timing.as_str());
            }
            v
        });
        s.push_str(&format!("timing: {}\n", timings.join("; ")));
        s
    }

    /// Where each entry's time goes at its largest size, kernel by kernel (GPU timestamps; nothing
    /// without them): the WGSL file, the entry point, its dispatches per run and their median ms.
    fn kernel_split(&self) -> String {
        let mut s = String::new();
        for (i, r) in self.rows.iter().enumerate() {
            let largest = self.rows[i + 1..].iter().all(|o| o.name != r.name);
            if !largest || r.kernels.is_empty() {
                continue;
            }
            if s.is_empty() {
                s.push_str(
                    "\nper kernel at each entry's largest size (median ms, dispatches per run):\n",
                );
            }
            let parts: Vec<String> = r
                .kernels
                .iter()
                .map(|k| {
                    let name = k.kernel.strip_prefix("wgsl/").unwrap_or(&k.kernel);
                    format!("{name} {:.3} x{}", k.ms, k.dispatches)
                })
                .collect();
            s.push_str(&format!(
                "  {} 2^{}: {}\n",
                r.name,
                r.n.trailing_zeros(),
                parts.join(", ")
            ));
        }
        s
    }

    /// The rows as CSV, with the ratios.
    pub fn csv(&self) -> String {
        let mut csv = String::from(
            "primitive,n,gpu_ms,copy_ms,cpu_ms,peer_ms,elements_per_s,x_copy,cpu_over_gpu,peer_over_shoal,peer_config,timing\n",
        );
        for r in &self.rows {
            let peer = r.peer_ms.map(|p| p.to_string()).unwrap_or_default();
            let peer_ratio = r
                .peer_ms
                .map(|p| (p / r.gpu_ms).to_string())
                .unwrap_or_default();
            csv.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{},{},{}\n",
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
                r.peer_config.as_deref().unwrap_or("").replace(',', ";"),
                r.timing.replace(',', ";")
            ));
        }
        csv
    }

    /// The published files' name without extension: `<backend>-<adapter>`, e.g.
    /// `vulkan-lavapipe`, `gl-llvmpipe`, `webgpu-swiftshader`.
    pub fn stem(&self) -> String {
        format!("{}-{}", self.backend, self.adapter_slug)
    }

    /// The Markdown page of `docs/bench/`: the stamp (commit, adapter, CPU, date, build, what
    /// ran), the plot beside it ([`Report::stem`]`.svg`) and the table.
    pub fn markdown(&self) -> String {
        let or_unknown = |v: &Option<String>| v.clone().unwrap_or_else(|| "unknown".into());
        let sizes: Vec<u64> = self.rows.iter().map(|r| r.n).collect();
        let log2 = |n: Option<&u64>| n.map_or(0, |n| n.trailing_zeros());
        let ran = if self.stamp.filter.is_empty() {
            "every primitive".to_string()
        } else {
            format!(
                "the primitives matching {} (not a full run)",
                self.stamp
                    .filter
                    .iter()
                    .map(|w| format!("`{w}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        format!(
            "# Benchmarks: {adapter}\n\n\
             Generated by `cargo xtask bench`: a new run on this adapter replaces this page, its \
             JSON and its plot.\n\n\
             | | |\n|---|---|\n\
             | commit | `{commit}` |\n\
             | adapter | {adapter} |\n\
             | CPU | {cpu} |\n\
             | date | {date} |\n\
             | build | {build}, median of {runs} runs after a warm-up |\n\
             | run | {ran}, 2^{lo} to 2^{hi} elements |\n\n\
             ![GPU time relative to the copy kernel, {adapter}]({stem}.svg)\n\n\
             ```text\n{table}```\n",
            adapter = self.adapter,
            commit = or_unknown(&self.stamp.commit),
            cpu = or_unknown(&self.stamp.cpu),
            date = or_unknown(&self.stamp.date),
            build = self.build,
            runs = self.runs,
            lo = log2(sizes.iter().min()),
            hi = log2(sizes.iter().max()),
            stem = self.stem(),
            table = self.table(),
        )
    }

    /// The JSON text.
    pub fn json(&self) -> Result<String, String> {
        serde_json::to_string_pretty(self)
            .map(|j| j + "\n")
            .map_err(|e| e.to_string())
    }

    /// The plot ([`crate::plot::svg`]).
    pub fn svg(&self) -> String {
        crate::plot::svg(&self.rows, &self.adapter)
    }
}

/// `a / b` with two decimals, for the table.
fn ratio(a: f64, b: f64) -> String {
    format!("{:.2}", a / b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::KernelTime;

    fn row(name: &str, n: u64, kernels: Vec<KernelTime>) -> Row {
        Row {
            name: name.into(),
            n,
            gpu_ms: 1.0,
            copy_ms: 1.0,
            cpu_ms: 1.0,
            peer_ms: None,
            peer_config: None,
            timing: "timestamps".into(),
            kernels,
        }
    }

    fn kernel(name: &str, dispatches: usize, ms: f64) -> KernelTime {
        KernelTime {
            kernel: name.into(),
            dispatches,
            ms,
        }
    }

    /// The split is printed once per entry, for its largest size, and not for an entry whose
    /// rows have no per-kernel times (no timestamps).
    #[test]
    fn kernel_split_lists_each_entrys_largest_size() {
        let report = Report {
            adapter: "test".into(),
            backend: "test".into(),
            adapter_slug: "test".into(),
            stamp: Stamp::default(),
            build: "release",
            runs: RUNS,
            rows: vec![
                row("sort", 1 << 16, vec![kernel("wgsl/a.wgsl:count", 4, 0.5)]),
                row(
                    "sort",
                    1 << 20,
                    vec![
                        kernel("wgsl/a.wgsl:count", 4, 2.0),
                        kernel("wgsl/a.wgsl:scatter", 4, 3.25),
                    ],
                ),
                row("scan", 1 << 20, Vec::new()),
            ],
        };
        let split = report.kernel_split();
        assert!(split.contains("  sort 2^20: a.wgsl:count 2.000 x4, a.wgsl:scatter 3.250 x4\n"));
        assert!(!split.contains("2^16"));
        assert!(!split.contains("scan"));
        assert!(report.table().contains(&split));
        let json = report.json().expect("json");
        assert!(json.contains("\"kernel\": \"wgsl/a.wgsl:scatter\""));
        assert!(json.contains("\"dispatches\": 4"));
    }

    fn details(name: &str, backend: shoal::wgpu::Backend) -> shoal::AdapterDetails {
        shoal::AdapterDetails {
            name: name.into(),
            backend,
            driver: String::new(),
            driver_info: String::new(),
            device_type: shoal::wgpu::DeviceType::Cpu,
            subgroup_sizes: [0, 0],
        }
    }

    /// Mesa's drivers by their names (lavapipe calls itself llvmpipe), others by their words.
    #[test]
    fn adapters_are_named_for_their_files() {
        use shoal::wgpu::Backend::{BrowserWebGpu, Gl, Vulkan};
        let slug = |name, backend| adapter_slug(&details(name, backend));
        assert_eq!(slug("llvmpipe (LLVM 15.0.6, 256 bits)", Vulkan), "lavapipe");
        assert_eq!(slug("llvmpipe (LLVM 15.0.6, 256 bits)", Gl), "llvmpipe");
        assert_eq!(slug("SwiftShader Device (Subzero)", Vulkan), "swiftshader");
        assert_eq!(slug("google swiftshader", BrowserWebGpu), "swiftshader");
        assert_eq!(
            slug("NVIDIA GeForce RTX 3080 (Laptop)", Vulkan),
            "nvidia-geforce-rtx-3080"
        );
        assert_eq!(slug("", Gl), "unknown");
    }

    /// The page carries every part of the stamp, says when the run was partial, and shows the
    /// plot that is written beside it.
    #[test]
    fn the_page_is_stamped() {
        let stamp = Stamp {
            commit: Some("abc1234".into()),
            cpu: Some("Some CPU (2 threads)".into()),
            date: Some("2026-11-29".into()),
            filter: vec!["scan".into()],
        };
        let report = Report {
            adapter: "llvmpipe (Vulkan, software)".into(),
            backend: "vulkan".into(),
            adapter_slug: "lavapipe".into(),
            stamp,
            build: "release",
            runs: RUNS,
            rows: vec![
                row("scan", 1 << 16, Vec::new()),
                row("scan", 1 << 20, Vec::new()),
            ],
        };
        assert_eq!(report.stem(), "vulkan-lavapipe");
        let page = report.markdown();
        for part in [
            "| commit | `abc1234` |",
            "| CPU | Some CPU (2 threads) |",
            "| date | 2026-11-29 |",
            "| adapter | llvmpipe (Vulkan, software) |",
            "matching `scan` (not a full run), 2^16 to 2^20 elements",
            "](vulkan-lavapipe.svg)",
            &report.table(),
        ] {
            assert!(page.contains(part), "{part:?} missing from\n{page}");
        }
        let json = report.json().expect("json");
        for key in [
            "\"commit\": \"abc1234\"",
            "\"cpu\":",
            "\"date\":",
            "\"adapter_slug\": \"lavapipe\"",
        ] {
            assert!(json.contains(key), "{key} missing from {json}");
        }
    }
}
