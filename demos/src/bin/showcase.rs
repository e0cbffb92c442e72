//! The showcase of `cargo xtask run`: runs every program of the conformance suite and every
//! kernel of `shoal-kernels` on the adapter `SHOAL_BACKEND` selects, each checked against its CPU
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
    // The conformance programs, then the kernels of shoal-kernels (images, atomics, parallel
    // primitives), each with its CPU twin.
    type Run = Box<dyn Fn(&shoal::Gpu) -> Result<String, String>>;
    let mut programs: Vec<(&str, Run)> = Vec::new();
    for &(name, program) in shoal_conformance::programs::ALL {
        programs.push((
            name,
            Box::new(move |g| pollster::block_on(program(g)).map_err(|e| e.to_string())),
        ));
    }
    for &(name, check) in shoal_kernels::showcase::ALL {
        programs.push((name, Box::new(move |g| pollster::block_on(check(g)))));
    }
    for &(name, check) in shoal_kernels::checks::ALL {
        programs.push((name, Box::new(move |g| pollster::block_on(check(g)))));
    }
    let mut rows = Vec::new();
    let mut failed = 0;
    for (i, (name, program)) in programs.iter().enumerate() {
        eprint!("[{}/{}] {name} ... ", i + 1, programs.len());
        let started = std::time::Instant::now();
        let outcome = program(&gpu);
        let ms = started.elapsed().as_secs_f64() * 1e3;
        let (status, detail) = match outcome {
            Ok(detail) => ("verified", detail),
            Err(e) => {
                failed += 1;
                ("FAILED", e)
            }
        };
        eprintln!("{status}");
        rows.push(vec![
            name.to_string(),
            status.to_string(),
            format!("{ms:.0}"),
            detail,
        ]);
    }
    println!("adapter: {adapter}");
    shoal_demos::print_table(&["program", "result", "host ms", "what was checked"], &rows);
    if failed == 0 {
        println!(
            "\nall {} programs verified against their CPU references",
            rows.len()
        );
        ExitCode::SUCCESS
    } else {
        println!("\n{failed} of {} programs FAILED", rows.len());
        ExitCode::FAILURE
    }
}
