//! `cargo xtask bench`: Shoal's benchmarks on the adapter `SHOAL_BACKEND` selects.
//!
//! `cargo xtask bench -- <group>` runs only the groups whose names contain `<group>`.

mod overhead;
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
        && let Err(e) = overhead::run(&gpu) {
            eprintln!("overhead benchmark failed: {e}");
            return std::process::ExitCode::FAILURE;
        }
    if wanted("splat")
        && let Err(e) = splat::run(&gpu) {
            eprintln!("splat benchmark failed: {e}");
            return std::process::ExitCode::FAILURE;
        }
    if ["sims", "boids", "blur", "sobel", "bilateral", "waves", "particles"].iter().any(|g| wanted(g))
        && let Err(e) = sims::run(&gpu, &|name| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()) || f == "sims"))
    {
        eprintln!("sims benchmark failed: {e}");
        return std::process::ExitCode::FAILURE;
    }
    std::process::ExitCode::SUCCESS
}
