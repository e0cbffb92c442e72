//! `cargo xtask bench`: Shoal's benchmarks on the adapter `SHOAL_BACKEND` selects.
//!
//! `cargo xtask bench -- <group>` runs only the groups (or primitives) whose names contain
//! `<group>`: `overhead`, `kernels`, or a primitive such as `scan` or `sort`.
//! `SHOAL_BENCH_MAX_LOG2` (default 22) sets the largest size, 2^16 to 2^max.

mod harness;
mod overhead;
mod primitives;
mod sims;
mod splat;

fn main() -> std::process::ExitCode {
    let filter: Vec<String> = std::env::args().skip(1).collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    let gpu = match shoal::Gpu::blocking() {
        Ok(gpu) => gpu,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    println!("benchmarks on {}", gpu.adapter_details());
    if wanted("overhead")
        && let Err(e) = overhead::run(&gpu)
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
    if [
        "sims",
        "boids",
        "blur",
        "sobel",
        "bilateral",
        "waves",
        "particles",
    ]
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
    let sizes: Vec<u32> = [16, 20, 22, 24, 26]
        .into_iter()
        .filter(|&s| s <= max)
        .collect();
    let entries: Vec<harness::Entry> = primitives::ENTRIES
        .iter()
        .filter(|e| wanted("kernels") || wanted(e.name))
        .copied()
        .collect();
    if !entries.is_empty() {
        let result =
            harness::run(&gpu, &entries, &sizes).and_then(|rows| harness::report(&gpu, &rows));
        if let Err(e) = result {
            eprintln!("\nkernel benchmarks failed: {e}");
            return std::process::ExitCode::FAILURE;
        }
    }
    std::process::ExitCode::SUCCESS
}
