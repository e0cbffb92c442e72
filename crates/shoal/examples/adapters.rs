//! Prints the adapter `SHOAL_BACKEND` selects and its compute limits beside the specification's
//! minimums. Fails when there is no such adapter.

fn main() -> std::process::ExitCode {
    env_logger::init(); // RUST_LOG=shoal=debug shows what Shoal does
    match shoal::Gpu::blocking() {
        Ok(gpu) => {
            println!("adapter: {}", gpu.adapter_details());
            println!(
                "features: timestamps {}, subgroups {}, 64-bit atomics {}",
                gpu.has_timestamps(),
                gpu.has_subgroups(),
                gpu.has_int64_atomics()
            );
            print!("{}", gpu.limits());
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
