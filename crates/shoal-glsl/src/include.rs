//! `#include "file"` resolved before glslang: each included file's lines replace the directive,
//! and a line map names every line of the result by its file and line, so messages point into
//! the header that holds the line. `#pragma once` is kept (a file so marked is read once).

use std::path::{Path, PathBuf};

use crate::Error;

/// Where a line of the expanded text came from.
#[derive(Debug, Clone)]
pub(crate) struct Origin {
    /// The file, as messages name it.
    pub(crate) file: String,
    /// Its 1-based line there.
    pub(crate) line: usize,
}

/// The text with its includes expanded, the origin of each of its lines, and the files read.
pub(crate) struct Expanded {
    pub(crate) text: String,
    pub(crate) origins: Vec<Origin>,
    pub(crate) included: Vec<PathBuf>,
}

/// The file named by an `#include` line, if `line` is one.
fn directive(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("include")?.trim();
    rest.strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .or_else(|| rest.strip_prefix('<').and_then(|r| r.strip_suffix('>')))
}

/// Expands the `#include` lines of `text` (the file `path`, in `directory`), searching
/// `directory` then `dirs`.
pub(crate) fn expand(
    path: &str,
    text: &str,
    directory: Option<&Path>,
    dirs: &[PathBuf],
) -> Result<Expanded, Error> {
    let mut out = Expanded {
        text: String::with_capacity(text.len()),
        origins: Vec::new(),
        included: Vec::new(),
    };
    let mut once = Vec::new();
    walk(path, text, directory, dirs, &mut out, &mut once, 0)?;
    Ok(out)
}

fn walk(
    path: &str,
    text: &str,
    directory: Option<&Path>,
    dirs: &[PathBuf],
    out: &mut Expanded,
    once: &mut Vec<PathBuf>,
    depth: usize,
) -> Result<(), Error> {
    for (index, line) in text.lines().enumerate() {
        let here = |message: String| Error::Compile {
            message: format!("{path}:{}: error: {message}\n    | {line}", index + 1),
        };
        let Some(name) = directive(line) else {
            let keep = line.trim_start().strip_prefix('#').map(str::trim_start);
            if keep.is_some_and(|d| d.starts_with("pragma") && d.contains("once")) {
                out.text.push('\n');
            } else {
                out.text.push_str(line);
                out.text.push('\n');
            }
            out.origins.push(Origin {
                file: path.to_string(),
                line: index + 1,
            });
            continue;
        };
        if depth >= 32 {
            return Err(here(format!(
                "`#include \"{name}\"` nests deeper than 32 files (an include cycle?)"
            )));
        }
        let found = directory
            .into_iter()
            .chain(dirs.iter().map(PathBuf::as_path))
            .map(|d| d.join(name))
            .find(|p| p.is_file());
        let Some(file) = found else {
            let searched: Vec<String> = directory
                .into_iter()
                .chain(dirs.iter().map(PathBuf::as_path))
                .map(|d| d.display().to_string())
                .collect();
            return Err(here(format!(
                "`#include \"{name}\"`: no such file in {}; give include directories in the \
                 translation options (`Options::include_dir`, `glsl!(\"k.comp\", include = \"dir\")`)",
                if searched.is_empty() {
                    "no directory".to_string()
                } else {
                    searched.join(", ")
                }
            )));
        };
        let body = std::fs::read_to_string(&file)
            .map_err(|e| here(format!("cannot read {}: {e}", file.display())))?;
        let canonical = std::fs::canonicalize(&file).unwrap_or_else(|_| file.clone());
        out.included.push(file.clone());
        // The directive's own line stays, blank, so the file's next line keeps its place.
        out.text.push('\n');
        out.origins.push(Origin {
            file: path.to_string(),
            line: index + 1,
        });
        if once.contains(&canonical) {
            continue;
        }
        if body.lines().any(|l| {
            l.trim_start()
                .strip_prefix('#')
                .is_some_and(|d| d.trim_start().starts_with("pragma") && d.contains("once"))
        }) {
            once.push(canonical);
        }
        let label = file.display().to_string();
        walk(&label, &body, file.parent(), dirs, out, once, depth + 1)?;
    }
    Ok(())
}

/// `message` with each `path:N` (a line of the expanded text) replaced by the line's origin.
pub(crate) fn relocate(message: &str, path: &str, origins: &[Origin]) -> String {
    let needle = format!("{path}:");
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find(&needle) {
        out.push_str(&rest[..at]);
        let after = &rest[at + needle.len()..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        match after[..digits]
            .parse::<usize>()
            .ok()
            .and_then(|n| origins.get(n.wrapping_sub(1)))
        {
            Some(origin) => {
                out.push_str(&format!("{}:{}", origin.file, origin.line));
                rest = &after[digits..];
            }
            None => {
                out.push_str(&needle);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}
