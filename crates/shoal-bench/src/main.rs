//! `cargo xtask bench`: Shoal's benchmarks on the adapter `SHOAL_BACKEND` selects, built
//! optimised (`--release`).
//!
//! `cargo xtask bench -- <group>` runs only the groups (or primitives) whose names contain
//! `<group>`: `overhead`, `kernels`, or a primitive such as `scan` or `sort`. A word that
//! selects nothing is an error listing the names.
//! `SHOAL_BENCH_MAX_LOG2` (default 22) sets the largest size, 2^16 to 2^max.
//! `SHOAL_BENCH_COMMIT`, `SHOAL_BENCH_CPU` and `SHOAL_BENCH_DATE` (set by xtask) stamp the
//! published table (`docs/bench/<backend>-<adapter>.{md,json,svg}`).
//! `SHOAL_BENCH_WITHOUT_SUBGROUPS` withholds subgroup operations from the device, so that the
//! kernels take the paths of an adapter without them (set by `cargo xtask bench --swiftshader`).

mod devices;
mod immediates_overhead;
mod overhead;
mod sims;
mod splat;

use std::path::{Path, PathBuf};

use shoal_bench::harness;
use shoal_bench::primitives;
use shoal_bench::report::{Report, Stamp};

/// The groups a filter word can select besides the primitives (`primitives::ENTRIES`): the
/// overhead and splat benchmarks and the simulations (each by its name, or all as `sims`).
const GROUPS: [&str; 8] = [
    "overhead",
    "splat",
    "devices",
    "blur",
    "sobel",
    "bilateral",
    "waves",
    "boids",
];

/// Whether the filter word `word` selects at least one benchmark (as `main` selects them).
fn selects_something(word: &str) -> bool {
    word == "sims"
        || word == "kernels"
        || GROUPS.iter().any(|g| g.contains(word))
        || primitives::ENTRIES.iter().any(|e| e.name.contains(word))
}

/// The message for filter words that select nothing (a typo would otherwise run nothing and
/// succeed): the words, and every name a word can match.
fn unmatched(words: &[&String]) -> String {
    let mut text = format!(
        "no benchmark matches {}: a word selects the benchmarks whose names contain it\n\
         benchmarks: {}, sims (all of {}), kernels (all the primitives)\nprimitives:",
        words
            .iter()
            .map(|w| format!("`{w}`"))
            .collect::<Vec<_>>()
            .join(", "),
        GROUPS[..3].join(", "),
        GROUPS[3..].join(", ")
    );
    for entry in primitives::ENTRIES {
        text.push_str(&format!("\n  {}", entry.name));
    }
    text
}

fn main() -> std::process::ExitCode {
    env_logger::init();
    let filter: Vec<String> = std::env::args().skip(1).collect();
    let typos: Vec<&String> = filter.iter().filter(|w| !selects_something(w)).collect();
    if !typos.is_empty() {
        eprintln!("error: {}", unmatched(&typos));
        return std::process::ExitCode::FAILURE;
    }
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    // SHOAL_BENCH_WITHOUT_SUBGROUPS: the paths of an adapter without subgroups (the browser's),
    // e.g. on Chromium's SwiftShader run natively (`cargo xtask bench --swiftshader`).
    let options = shoal::GpuOptions {
        withheld_features: if std::env::var_os("SHOAL_BENCH_WITHOUT_SUBGROUPS").is_some() {
            shoal::wgpu::Features::SUBGROUP | shoal::wgpu::Features::SUBGROUP_BARRIER
        } else {
            shoal::wgpu::Features::empty()
        },
        ..Default::default()
    };
    let gpu = match pollster::block_on(shoal::Gpu::with_options(options.clone())) {
        Ok(gpu) => gpu,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    println!("benchmarks on {}", gpu.adapter_details());
    if wanted("overhead")
        && let Err(e) = overhead::run(&gpu).and_then(|()| immediates_overhead::run(&gpu))
    {
        eprintln!("overhead benchmark failed: {e}");
        return std::process::ExitCode::FAILURE;
    }
    if wanted("splat")
        && let Err(e) = splat::run(&gpu)
    {
        eprintln!("splat benchmark failed: {e}");
        return std::process::ExitCode::FAILURE;
    }
    if wanted("devices")
        && let Err(e) = devices::run(&options)
    {
        eprintln!("devices benchmark failed: {e}");
        return std::process::ExitCode::FAILURE;
    }
    if ["sims", "boids", "blur", "sobel", "bilateral", "waves"]
        .iter()
        .any(|g| wanted(g))
        && let Err(e) = sims::run(&gpu, &|name| {
            filter.is_empty()
                || filter
                    .iter()
                    .any(|f| name.contains(f.as_str()) || f == "sims")
        })
    {
        eprintln!("sims benchmark failed: {e}");
        return std::process::ExitCode::FAILURE;
    }
    let max: u32 = std::env::var("SHOAL_BENCH_MAX_LOG2")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(22)
        .clamp(16, 26);
    let entries = primitives::selected(&filter);
    if !entries.is_empty()
        && let Err(e) = kernels(&gpu, &entries, &primitives::sizes(max), &filter)
    {
        eprintln!("\nkernel benchmarks failed: {e}");
        return std::process::ExitCode::FAILURE;
    }
    std::process::ExitCode::SUCCESS
}

/// Runs the primitives, prints the table and publishes it: the page, JSON and plot under
/// `docs/bench/`, the CSV (for a spreadsheet, not committed) under `target/shoal/bench/`.
fn kernels(
    gpu: &shoal::Gpu,
    entries: &[harness::Entry],
    sizes: &[u32],
    filter: &[String],
) -> Result<(), String> {
    let rows = pollster::block_on(harness::run(gpu, entries, sizes, &mut |p| match p {
        harness::Progress::Started {
            done,
            total,
            name,
            log2,
        } => eprint!("[{done}/{total}] {name} at 2^{log2} ... "),
        harness::Progress::Finished { row, seconds } => eprintln!(
            "{:.3} ms ({:.2}x copy) verified, {seconds:.1} s",
            row.gpu_ms,
            row.gpu_ms / row.copy_ms
        ),
    }))?;
    let stamp = Stamp {
        commit: std::env::var("SHOAL_BENCH_COMMIT").ok(),
        cpu: std::env::var("SHOAL_BENCH_CPU").ok(),
        date: std::env::var("SHOAL_BENCH_DATE").ok(),
        filter: filter.to_vec(),
    };
    let report = Report::new(gpu, stamp, rows);
    println!("\n{}", report.table());
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = manifest.ancestors().nth(2).unwrap_or(manifest);
    let write = |dir: PathBuf, files: &[(&str, String)]| -> Result<(), String> {
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        for (ext, text) in files {
            let path = dir.join(format!("{}.{ext}", report.stem()));
            std::fs::write(&path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            println!("written: {}", path.display());
        }
        Ok(())
    };
    write(
        root.join("docs").join("bench"),
        &[
            ("md", report.markdown()),
            ("json", report.json()?),
            ("svg", report.svg()),
        ],
    )?;
    write(
        root.join("target").join("shoal").join("bench"),
        &[("csv", report.csv())],
    )
}
