//! The showcase of `cargo xtask run`: runs every program of the conformance suite (and, as they
//! land, every kernel) on the adapter `SHOAL_BACKEND` selects, each checked against its CPU
//! reference, and prints what was verified.

use std::process::ExitCode;

fn main() -> ExitCode {
    let gpu = match shoal::Gpu::blocking() {
        Ok(gpu) => gpu,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let adapter = gpu.adapter_details().to_string();
    println!("\nShoal showcase on {adapter}\n");
    // The conformance programs, then each parallel primitive of shoal-kernels.
    let programs: Vec<(&str, Box<dyn Fn() -> Result<String, String> + '_>)> = shoal_conformance::programs::ALL
        .iter()
        .map(|&(name, program)| {
            let gpu = &gpu;
            (name, Box::new(move || pollster::block_on(program(gpu)).map_err(|e| e.to_string())) as Box<dyn Fn() -> _>)
        })
        .chain(shoal_kernels::checks::ALL.iter().map(|&(name, check)| {
            let gpu = &gpu;
            (name, Box::new(move || pollster::block_on(check(gpu))) as Box<dyn Fn() -> _>)
        }))
        .collect();
    let mut rows = Vec::new();
    let mut failed = 0;
    for (i, (name, program)) in programs.iter().enumerate() {
        eprint!("[{}/{}] {name} ... ", i + 1, programs.len());
        let started = std::time::Instant::now();
        let outcome = program();
        let ms = started.elapsed().as_secs_f64() * 1e3;
        let (status, detail) = match outcome {
            Ok(detail) => ("verified", detail),
            Err(e) => {
                failed += 1;
                ("FAILED", e)
            }
        };
        eprintln!("{status}");
        rows.push(vec![name.to_string(), status.to_string(), format!("{ms:.0}"), detail]);
    }
    println!("adapter: {adapter}");
    shoal_demos::print_table(&["program", "result", "host ms", "what was checked"], &rows);
    if failed == 0 {
        println!("\nall {} programs verified against their CPU references", rows.len());
        ExitCode::SUCCESS
    } else {
        println!("\n{failed} of {} programs FAILED", rows.len());
        ExitCode::FAILURE
    }
}
