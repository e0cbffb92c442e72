//! `cargo xtask check-wgsl`: parses and validates every `.wgsl` file under `wgsl/` with naga,
//! then every variant the kernels crate composes (`shoal_kernels::variants`), reporting every
//! error with file, line and column and the variant's family and configuration, without a
//! device. `check-wgsl print FAMILY [--key T] [--order asc|desc] [--op NAME] [--limits NAME]`
//! (what `cargo xtask wgsl` runs) prints one family's composed WGSL instead.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "wgsl") {
            out.push(path);
        }
    }
}

fn main() -> ExitCode {
    env_logger::init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => {}
        Some("print") => return print(&args[1..]),
        Some(other) => {
            eprintln!("unknown argument `{other}`: none (check) or `print FAMILY [OPTIONS]`");
            return ExitCode::FAILURE;
        }
    }
    let files = check_files();
    let variants = check_variants();
    if files && variants {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Validates every variant of every family, each distinct text once (on as many threads as the
/// machine has cores); true when all are valid.
fn check_variants() -> bool {
    let started = std::time::Instant::now();
    let all = shoal_kernels::variants::all();
    let mut seen = std::collections::HashSet::new();
    let mut failures: Vec<String> = Vec::new();
    let mut distinct = Vec::new();
    for variant in &all {
        match variant.source.wgsl() {
            Ok(composed) if seen.insert(composed.text().to_string()) => distinct.push(variant),
            Ok(_) => {}
            Err(e) => failures.push(format!("{} ({})\n{e}", variant.family, variant.config)),
        }
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let per_thread = distinct.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = distinct
            .chunks(per_thread)
            .map(|chunk| {
                scope.spawn(move || {
                    chunk
                        .iter()
                        .filter_map(|v| {
                            let e = shoal::validate(&v.source).err()?;
                            Some(format!("{} ({})\n{e}", v.family, v.config))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for worker in workers {
            match worker.join() {
                Ok(found) => failures.extend(found),
                Err(_) => failures.push("a validating thread panicked".into()),
            }
        }
    });
    for failure in &failures {
        println!("FAIL  {failure}");
    }
    println!(
        "{} kernel variants, {} distinct texts validated in {:.1} s, {} with errors",
        all.len(),
        distinct.len(),
        started.elapsed().as_secs_f64(),
        failures.len()
    );
    failures.is_empty()
}

/// `print FAMILY [OPTIONS]`: each selected variant's composed WGSL under a header naming it.
fn print(args: &[String]) -> ExitCode {
    let usage = "usage: cargo xtask wgsl FAMILY [--key T] [--order asc|desc] [--op NAME] \
                 [--limits lavapipe|llvmpipe|webgpu|gpu]";
    let Some((family, options)) = args.split_first() else {
        let names: Vec<&str> = shoal_kernels::variants::FAMILIES
            .iter()
            .map(|f| f.0)
            .collect();
        eprintln!("{usage}\nfamilies: {}", names.join(", "));
        return ExitCode::FAILURE;
    };
    let mut choice = shoal_kernels::variants::Choice::default();
    let mut rest = options.iter();
    while let Some(option) = rest.next() {
        let slot = match option.as_str() {
            "--key" => &mut choice.key,
            "--order" => &mut choice.order,
            "--op" => &mut choice.op,
            "--limits" => &mut choice.limits,
            other => {
                eprintln!("unknown option `{other}`: --key, --order, --op or --limits\n{usage}");
                return ExitCode::FAILURE;
            }
        };
        let Some(value) = rest.next() else {
            eprintln!("{option} needs a value\n{usage}");
            return ExitCode::FAILURE;
        };
        *slot = Some(value.clone());
    }
    let variants = match shoal_kernels::variants::of(family, &choice, false) {
        Ok(variants) => variants,
        Err(e) => {
            eprintln!("{e}\n{usage}");
            return ExitCode::FAILURE;
        }
    };
    for variant in variants {
        // `validate` reflects compute entry points; a render module has none (it is validated
        // whole all the same).
        let entries = shoal::validate(&variant.source)
            .map(|r| match r.is_empty() {
                true => "no compute entry points (a render module: vertex and fragment)".into(),
                false => (r.iter().map(|r| r.entry_point.clone()))
                    .collect::<Vec<_>>()
                    .join(", "),
            })
            .unwrap_or_else(|e| format!("INVALID: {e}"));
        match variant.source.wgsl() {
            Ok(wgsl) => println!(
                "// ===== {} ({}): {} =====\n// entry points: {entries}\n{wgsl}",
                variant.family,
                variant.config,
                variant.source.path()
            ),
            Err(e) => {
                eprintln!("{} ({}): {e}", variant.family, variant.config);
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}

/// Validates every file under `wgsl/`; true when all are valid.
fn check_files() -> bool {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut paths = Vec::new();
    files(&root.join("wgsl"), &mut paths);
    paths.sort();
    let mut failures = 0;
    for path in &paths {
        let shown = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        // A kernels-crate snippet is validated inside every file that imports it.
        if shoal_kernels::SNIPPETS
            .iter()
            .any(|s| s.1.path().ends_with(&shown))
        {
            println!("ok    {shown}  (snippet, validated where imported)");
            continue;
        }
        // The same preprocessor as the kernels: Shoal's, with the kernels crate's snippets.
        let result = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                let source = shoal::Source::new(shown.clone(), text);
                shoal::validate(&shoal_kernels::with_snippets(source)).map_err(|e| e.to_string())
            });
        match result {
            Ok(entries) => {
                let names: Vec<String> = entries
                    .iter()
                    .map(|r| format!("{} {:?}", r.entry_point, r.workgroup_size))
                    .collect();
                println!(
                    "ok    {shown}  {}",
                    if names.is_empty() {
                        "(snippet)".into()
                    } else {
                        names.join(", ")
                    }
                );
            }
            Err(e) => {
                failures += 1;
                println!("FAIL  {shown}\n{e}");
            }
        }
    }
    println!("{} files, {failures} with errors", paths.len());
    failures == 0
}
