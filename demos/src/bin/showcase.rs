//! The showcase of `cargo xtask run`: runs every program of the conformance suite and every
//! kernel of `shoal-kernels` on the adapter `SHOAL_BACKEND` selects, each checked against its CPU
//! reference, renders every demo of `shoal_demos::all::NAMES` headless to
//! `target/shoal/<demo>.png` (`--no-demos` skips them), and prints one table of what was
//! verified.

use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::init();
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
    let demos = !std::env::args().any(|a| a == "--no-demos");
    // Each run says what it checked, and the GPU milliseconds where it measured them.
    type Run = Box<dyn Fn(&shoal::Gpu) -> Result<(String, Option<f64>), String>>;
    let mut programs: Vec<(&str, Run)> = Vec::new();
    for &(name, program) in shoal_conformance::programs::ALL {
        programs.push((
            name,
            Box::new(move |g| {
                pollster::block_on(program(g))
                    .map(|d| (d, None))
                    .map_err(|e| e.to_string())
            }),
        ));
    }
    for entry in shoal_kernels::showcase::ALL {
        let check = entry.check;
        programs.push((
            entry.name,
            Box::new(move |g| pollster::block_on(check(g)).map(|d| (d, None))),
        ));
    }
    if demos {
        for &name in shoal_demos::all::NAMES {
            programs.push((name, Box::new(move |g| render_demo(g, name))));
        }
    }
    let short = format!(
        "{} ({:?})",
        gpu.adapter_details().name,
        gpu.adapter_details().backend
    );
    let mut rows = Vec::new();
    let mut failed = 0;
    for (i, (name, program)) in programs.iter().enumerate() {
        eprint!("[{}/{}] {name} ... ", i + 1, programs.len());
        let started = std::time::Instant::now();
        let outcome = program(&gpu);
        let ms = started.elapsed().as_secs_f64() * 1e3;
        let (status, gpu_ms, detail) = match outcome {
            Ok((detail, gpu_ms)) => ("verified", gpu_ms, detail),
            Err(e) => {
                failed += 1;
                ("FAILED", None, e)
            }
        };
        eprintln!("{status}");
        rows.push(vec![
            short.clone(),
            name.to_string(),
            status.to_string(),
            gpu_ms.map_or("-".into(), |ms| format!("{ms:.1}")),
            format!("{ms:.0}"),
            detail,
        ]);
    }
    println!("adapter: {adapter}");
    shoal_demos::print_table(
        &[
            "adapter",
            "demo / kernel",
            "verified",
            "GPU ms",
            "host ms",
            "what was checked",
        ],
        &rows,
    );
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

/// Renders the demo `name` headless at its default size to `target/shoal/<name>.png` and runs
/// its own check; the GPU milliseconds are the last frame's.
fn render_demo(gpu: &shoal::Gpu, name: &str) -> Result<(String, Option<f64>), String> {
    use shoal_demos::demo::{self, Demo};
    shoal_demos::with_demo!(name, D => {
        let options = shoal_demos::cli::Options::parse([], D::SIZE)?;
        let mut d = D::new(gpu, &options, demo::HEADLESS_FORMAT).map_err(|e| e.to_string())?;
        let rendered = pollster::block_on(demo::render_frames(gpu, &mut d, options.size, 0..1))
            .map_err(|e| e.to_string())?;
        let out = std::path::PathBuf::from(format!("target/shoal/{name}.png"));
        demo::write_png(&out, rendered.size, &rendered.pixels).map_err(|e| e.to_string())?;
        let blank = rendered.pixels.iter().all(|p| *p == rendered.pixels[0]);
        if blank {
            return Err(format!("{}: the frame is one colour", out.display()));
        }
        let checked = match d.verify() {
            Some(check) => format!("{}; ", pollster::block_on(check)?),
            None => String::new(),
        };
        Ok((
            format!("{checked}{}x{} frame, not blank -> {}", rendered.size[0], rendered.size[1], out.display()),
            Some(rendered.gpu_ms),
        ))
    }, _ => Err(format!("no demo named {name}")))
}
