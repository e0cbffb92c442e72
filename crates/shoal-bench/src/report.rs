//! A run's results as text: the table printed natively and shown in the browser, the CSV, and
//! the JSON (serde_json's, from the derived `Serialize`), the same on every adapter. The CSV
//! stays hand-written, a `format!` a line: its fields are our own numbers and names (no commas
//! or quotes in them).

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
    /// The commit the benchmark was built from (`git describe --always --dirty`), when known.
    pub commit: Option<String>,
    /// `release` (optimised, what `cargo xtask bench` builds) or `debug`.
    pub build: &'static str,
    /// Timed runs per median ([`RUNS`]).
    pub runs: usize,
    /// Every result row.
    pub rows: Vec<Row>,
}

impl Report {
    /// A report of `rows` measured on `gpu`, built as this crate was.
    pub fn new(gpu: &shoal::Gpu, commit: Option<String>, rows: Vec<Row>) -> Self {
        let details = gpu.adapter_details();
        Self {
            adapter: details.to_string(),
            // SwiftShader run natively (`cargo xtask bench --swiftshader`) keeps its own files.
            backend: match details.backend {
                shoal::wgpu::Backend::Vulkan
                    if details.name.to_ascii_lowercase().contains("swiftshader") =>
                {
                    "swiftshader".into()
                }
                b => format!("{b:?}").to_lowercase(),
            },
            commit,
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
            self.commit
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
            commit: None,
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
}
