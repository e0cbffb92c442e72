//! `cargo xtask check-wgsl`: parses and validates every `.wgsl` file under `wgsl/` with naga,
//! reporting every error with file, line and column, without a device.

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
    if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
