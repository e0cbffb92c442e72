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

/// Resolves `#import` lines naming the kernels crate's snippets (Shoal's own are resolved by
/// `shoal::validate`): the line blanked so line numbers hold, the snippet appended once.
fn with_kernel_snippets(text: String) -> String {
    let mut appended = String::new();
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            let name = line
                .trim()
                .strip_prefix("#import ")
                .map(|n| n.trim().trim_end_matches(';'));
            match name.and_then(|n| shoal_kernels::SNIPPETS.iter().find(|s| s.0 == n)) {
                Some((_, snippet)) => {
                    if !appended.contains(snippet) {
                        appended.push('\n');
                        appended.push_str(snippet);
                    }
                    String::new()
                }
                None => line.to_string(),
            }
        })
        .collect();
    lines.join("\n") + &appended
}

fn main() -> ExitCode {
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
        let text = std::fs::read_to_string(path).unwrap_or_default();
        // A kernels-crate snippet is validated inside every file that imports it.
        if shoal_kernels::SNIPPETS.iter().any(|s| s.1 == text) {
            println!("ok    {shown}  (snippet, validated where imported)");
            continue;
        }
        let result = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                shoal::validate(&shoal::Source::new(
                    shown.clone(),
                    with_kernel_snippets(text),
                ))
                .map_err(|e| e.to_string())
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
