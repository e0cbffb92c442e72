//! The repeated-code check: no run of more than [`MAX_REPEAT`] identical lines may stand in two
//! places of the code under `crates/`, `wgsl/` and `demos/`, so a piece of logic is written once
//! and called, imported or `#import`ed where it is needed. It runs with the file-length check
//! (`cargo xtask lines`, and first in `cargo xtask test`).
//!
//! The rule, on the files whose names end in one of [`CODE`]:
//! - lines are compared trimmed (indentation does not hide a copy);
//! - only lines with a letter or a digit count: blank lines and lines of punctuation alone
//!   (`}`, `);`, `],`, `//`) are passed over, so a run of closing braces is not a copy and a copy
//!   re-indented or with a brace moved is still one;
//! - a run is consecutive counted lines, identical in both places; two places in one file count
//!   when they do not overlap.
//!
//! A hit names both places, file and line range, with the run's length.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

/// The most identical consecutive lines two places may share.
pub(crate) const MAX_REPEAT: usize = 12;

/// The folders checked, relative to the workspace root.
const CHECKED: [&str; 3] = ["crates", "wgsl", "demos"];

/// The endings of the files checked: Rust, the shading languages and the browser pages' code.
const CODE: [&str; 8] = [
    ".rs", ".wgsl", ".comp", ".glsl", ".hlsl", ".js", ".html", ".css",
];

/// One run of identical lines standing in two places: the files, each place's first and last
/// line (1-based, as written) and the counted lines it holds.
#[derive(Debug, PartialEq)]
pub(crate) struct Repeat {
    pub(crate) first: (PathBuf, usize, usize),
    pub(crate) second: (PathBuf, usize, usize),
    pub(crate) lines: usize,
}

/// Checks the code under [`CHECKED`] in `root`; prints each run over [`MAX_REPEAT`] lines with
/// both places. True when there is none.
pub(crate) fn check(root: &Path) -> bool {
    let dirs: Vec<PathBuf> = CHECKED.iter().map(|d| root.join(d)).collect();
    match repeats(&dirs, MAX_REPEAT) {
        Ok(found) if found.is_empty() => {
            eprintln!(
                "no run of more than {MAX_REPEAT} identical lines stands in two places of {}/",
                CHECKED.join("/, ")
            );
            true
        }
        Ok(found) => {
            eprintln!(
                "{} run(s) of more than {MAX_REPEAT} identical lines stand in two places \
                 (write them once and call them from both):",
                found.len()
            );
            let shown = |p: &Path| p.strip_prefix(root).unwrap_or(p).display().to_string();
            for r in &found {
                eprintln!(
                    "  {:>4} lines  {}:{}-{}  and  {}:{}-{}",
                    r.lines,
                    shown(&r.first.0),
                    r.first.1,
                    r.first.2,
                    shown(&r.second.0),
                    r.second.1,
                    r.second.2
                );
            }
            false
        }
        Err(e) => {
            eprintln!("{e}");
            false
        }
    }
}

/// A file's counted lines: (line number, trimmed text).
type Counted = Vec<(usize, String)>;

/// Whether a trimmed line counts: it holds a letter or a digit.
fn counts(line: &str) -> bool {
    line.chars().any(char::is_alphanumeric)
}

/// Every run of more than `max` identical counted lines standing in two places of the code files
/// under `dirs`, longest first.
pub(crate) fn repeats(dirs: &[PathBuf], max: usize) -> Result<Vec<Repeat>, String> {
    let mut paths = Vec::new();
    for dir in dirs {
        crate::lines::files_under(
            dir,
            &|name| CODE.iter().any(|e| name.ends_with(e)),
            &mut paths,
        )?;
    }
    paths.sort();
    let mut files: Vec<Counted> = Vec::new();
    for path in &paths {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        files.push(
            text.lines()
                .enumerate()
                .map(|(i, l)| (i + 1, l.trim().to_string()))
                .filter(|(_, l)| counts(l))
                .collect(),
        );
    }
    // Every window of `max + 1` counted lines, by a hash of its text.
    let window = max + 1;
    let mut places: HashMap<u64, Vec<(usize, usize)>> = HashMap::new();
    for (f, lines) in files.iter().enumerate() {
        for start in 0..lines.len().saturating_sub(max) {
            let mut h = DefaultHasher::new();
            lines[start..start + window]
                .iter()
                .for_each(|(_, l)| l.hash(&mut h));
            places.entry(h.finish()).or_default().push((f, start));
        }
    }
    let same = |a: (usize, usize), b: (usize, usize)| {
        let (x, y) = (
            &files[a.0][a.1..a.1 + window],
            &files[b.0][b.1..b.1 + window],
        );
        x.iter().zip(y).all(|(p, q)| p.1 == q.1)
    };
    // Windows shared by two places, grouped by the two files and the offset between the places:
    // consecutive windows of one group make one run.
    let mut shared: HashMap<(usize, usize, isize), Vec<usize>> = HashMap::new();
    for list in places.values().filter(|l| l.len() > 1) {
        for (i, &a) in list.iter().enumerate() {
            for &b in &list[i + 1..] {
                let apart = a.1.abs_diff(b.1);
                if (a.0 == b.0 && apart < window) || !same(a, b) {
                    continue;
                }
                let offset = b.1 as isize - a.1 as isize;
                shared.entry((a.0, b.0, offset)).or_default().push(a.1);
            }
        }
    }
    let mut found = Vec::new();
    for ((fa, fb, offset), mut starts) in shared {
        starts.sort_unstable();
        let mut i = 0;
        while i < starts.len() {
            let mut j = i;
            while j + 1 < starts.len() && starts[j + 1] == starts[j] + 1 {
                j += 1;
            }
            let (first, last) = (starts[i], starts[j] + max);
            let other = |at: usize| (at as isize + offset) as usize;
            found.push(Repeat {
                first: (paths[fa].clone(), files[fa][first].0, files[fa][last].0),
                second: (
                    paths[fb].clone(),
                    files[fb][other(first)].0,
                    files[fb][other(last)].0,
                ),
                lines: last - first + 1,
            });
            i = j + 1;
        }
    }
    found.sort_by(|a, b| b.lines.cmp(&a.lines).then_with(|| a.first.cmp(&b.first)));
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::{Repeat, repeats};

    #[test]
    fn finds_runs_over_the_limit_in_two_places_and_names_both() {
        let root = std::env::temp_dir().join(format!("xtask-repeats-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let write = |path: &str, text: &str| {
            let file = root.join(path);
            std::fs::create_dir_all(file.parent().expect("parent")).expect("dir");
            std::fs::write(&file, text).expect("file");
        };
        let body = |n: usize, indent: &str| -> String {
            (0..n)
                .map(|i| format!("{indent}let x{i} = {i};\n"))
                .collect()
        };
        // Four counted lines repeated: under the limit of 4 below.
        write("a/short.rs", &body(4, ""));
        write("b/short.wgsl", &body(4, "    "));
        // Five, re-indented and with braces and blank lines between them in one copy: a hit.
        write("a/one.rs", &format!("fn f() {{\n{}}}\n", body(5, "    ")));
        let spaced: String = body(5, "")
            .lines()
            .map(|l| format!("{l}\n\n}}\n"))
            .collect();
        write("b/deep/two.wgsl", &format!("// other\n{spaced}"));
        // Notes and built files are not code.
        write("a/notes.md", &body(9, ""));
        write("a/target/built.rs", &body(9, ""));
        // Nor is a link to a folder already checked (a crate's link to wgsl/).
        #[cfg(unix)]
        std::os::unix::fs::symlink(root.join("b"), root.join("a/link")).expect("link");
        let found = repeats(&[root.join("a"), root.join("b")], 4).expect("readable");
        let shown = |p: &std::path::Path| p.strip_prefix(&root).expect("inside").to_path_buf();
        let found: Vec<Repeat> = found
            .into_iter()
            .map(|r| Repeat {
                first: (shown(&r.first.0), r.first.1, r.first.2),
                second: (shown(&r.second.0), r.second.1, r.second.2),
                lines: r.lines,
            })
            .collect();
        assert_eq!(
            found,
            [Repeat {
                first: ("a/one.rs".into(), 2, 6),
                second: ("b/deep/two.wgsl".into(), 2, 14),
                lines: 5,
            }]
        );
        assert!(repeats(&[root.join("missing")], 4).is_err());
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn one_file_counts_twice_only_where_the_places_do_not_overlap() {
        let root = std::env::temp_dir().join(format!("xtask-repeats-one-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("dir");
        // One line six times: its first three lines and its last three are two places; five
        // times, any two windows of three overlap.
        let found = |times: usize| {
            std::fs::write(root.join("same.rs"), "x;\n".repeat(times)).expect("file");
            repeats(std::slice::from_ref(&root), 2).expect("readable")
        };
        let six = found(6);
        assert_eq!(six.len(), 1, "{six:?}");
        assert_eq!((six[0].first.1, six[0].first.2, six[0].lines), (1, 3, 3));
        assert_eq!((six[0].second.1, six[0].second.2), (4, 6));
        assert!(found(5).is_empty());
        let _ = std::fs::remove_dir_all(&root);
    }
}
