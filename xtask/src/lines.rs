//! The file-length check: no Rust file under `crates/`, `demos/`, `tests/` or `xtask/` may have more than
//! [`MAX_LINES`] lines. It reads files and builds nothing, so `cargo xtask test` runs it first,
//! and `cargo xtask lines` runs it alone.
//!
//! The walk is std's `read_dir` in [`files_under`] (which the repeated-code check shares), not walkdir or ignore: skipping `target` and
//! hidden folders takes as many lines with walkdir's filters as without it.

use std::path::{Path, PathBuf};

/// The most lines a `*.rs` file may have.
pub(crate) const MAX_LINES: usize = 600;

/// The folders checked, relative to the workspace root.
const CHECKED: [&str; 4] = ["crates", "demos", "tests", "xtask"];

/// Checks every `*.rs` file under [`CHECKED`] in `root`; prints each file over [`MAX_LINES`]
/// with its count. True when there is none.
pub(crate) fn check(root: &Path) -> bool {
    let dirs: Vec<PathBuf> = CHECKED.iter().map(|d| root.join(d)).collect();
    match too_long(&dirs, MAX_LINES) {
        Ok(long) if long.is_empty() => {
            eprintln!(
                "every *.rs file under {} has at most {MAX_LINES} lines",
                CHECKED.join("/, ")
            );
            true
        }
        Ok(long) => {
            eprintln!(
                "{} file(s) have more than {MAX_LINES} lines (split them):",
                long.len()
            );
            for (file, lines) in &long {
                let shown = file.strip_prefix(root).unwrap_or(file);
                eprintln!("  {:>5} lines  {}", lines, shown.display());
            }
            false
        }
        Err(e) => {
            eprintln!("{e}");
            false
        }
    }
}

/// The `*.rs` files under `dirs` with more than `max` lines, and their counts, by path.
/// `target` directories and hidden ones (`.git`) are skipped.
fn too_long(dirs: &[PathBuf], max: usize) -> Result<Vec<(PathBuf, usize)>, String> {
    let mut files = Vec::new();
    for dir in dirs {
        files_under(dir, &|name| name.ends_with(".rs"), &mut files)?;
    }
    files.sort();
    let mut long = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let lines = text.lines().count();
        if lines > max {
            long.push((file, lines));
        }
    }
    Ok(long)
}

/// Adds the files under `dir` (recursively) whose names `keep` accepts to `files`. `target`
/// directories, hidden ones (`.git`) and symbolic links are skipped: a crate's link to `wgsl/`
/// (for packaging) is not a second copy of the files.
pub(crate) fn files_under(
    dir: &Path,
    keep: &dyn Fn(&str) -> bool,
    files: &mut Vec<PathBuf>,
) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let kind = entry.file_type().map_err(|e| e.to_string())?;
        let path = entry.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if kind.is_symlink() {
            continue;
        }
        if kind.is_dir() {
            if name != "target" && !name.starts_with('.') {
                files_under(&path, keep, files)?;
            }
        } else if keep(name) {
            files.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::too_long;

    #[test]
    fn lists_exactly_the_files_over_the_limit() {
        let root = std::env::temp_dir().join(format!("xtask-lines-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let write = |path: &str, lines: usize| {
            let file = root.join(path);
            std::fs::create_dir_all(file.parent().expect("parent")).expect("dir");
            std::fs::write(&file, "x\n".repeat(lines)).expect("file");
        };
        write("a/ok.rs", 3);
        write("a/deep/long.rs", 4);
        write("a/notes.md", 10);
        write("a/target/built.rs", 10);
        write("b/long_too.rs", 5);
        let long = too_long(&[root.join("a"), root.join("b")], 3).expect("readable");
        let found: Vec<(String, usize)> = long
            .iter()
            .map(|(f, n)| {
                (
                    f.strip_prefix(&root).expect("inside").display().to_string(),
                    *n,
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                ("a/deep/long.rs".to_string(), 4),
                ("b/long_too.rs".to_string(), 5)
            ]
        );
        assert!(too_long(&[root.join("missing")], 3).is_err());
        let _ = std::fs::remove_dir_all(&root);
    }
}
