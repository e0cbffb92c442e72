//! `cargo xtask links`: every relative link in the README, the CHANGELOG and `docs/` names a file
//! or folder that exists.
//!
//! Markdown links are found by hand (`](target)` outside fenced code): a Markdown parser would be
//! a dependency for one pattern, and the docs use no reference-style links.

use std::path::{Path, PathBuf};

/// The Markdown files checked: the README, the CHANGELOG and every `*.md` under `docs/`.
pub(crate) fn markdown_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md"), root.join("CHANGELOG.md")];
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The targets of the inline links in `text` outside fenced code blocks, with their line numbers.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut fenced = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find("](") {
            rest = &rest[start + 2..];
            let Some(end) = rest.find(')') else {
                break;
            };
            found.push((n + 1, rest[..end].to_string()));
            rest = &rest[end..];
        }
    }
    found
}

/// Whether a link target is a file path to check (not a URL, mail address or in-page anchor).
fn is_relative(target: &str) -> bool {
    !(target.is_empty()
        || target.starts_with('#')
        || target.contains("://")
        || target.starts_with("mailto:"))
}

/// The relative links of `file` (with `text`) whose target does not exist, as messages.
fn broken_in(file: &Path, text: &str) -> Vec<String> {
    let dir = file.parent().unwrap_or(Path::new("."));
    links(text)
        .into_iter()
        .filter(|(_, target)| is_relative(target))
        .filter_map(|(line, target)| {
            // A title after the path (`(path "title")`) and an anchor are not part of the file.
            let path = target.split_whitespace().next().unwrap_or_default();
            let path = path.split('#').next().unwrap_or_default();
            (!dir.join(path).exists()).then(|| {
                format!(
                    "{}:{line}: link to `{target}`: no such file",
                    file.display()
                )
            })
        })
        .collect()
}

/// Prints every broken relative link; true when there is none.
pub(crate) fn check(root: &Path) -> bool {
    let mut broken = Vec::new();
    let files = markdown_files(root);
    for file in &files {
        match std::fs::read_to_string(file) {
            Ok(text) => broken.extend(broken_in(file, &text)),
            Err(e) => broken.push(format!("{}: cannot read: {e}", file.display())),
        }
    }
    for message in &broken {
        eprintln!("{message}");
    }
    eprintln!(
        "{} Markdown files, {} broken relative links",
        files.len(),
        broken.len()
    );
    broken.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_inline_links_outside_code() {
        let text = "see [a](docs/a.md) and [b](http://x.y)\n```\n[c](no.md)\n```\n![p](i.png#x)";
        let found: Vec<String> = links(text).into_iter().map(|(_, t)| t).collect();
        assert_eq!(found, ["docs/a.md", "http://x.y", "i.png#x"]);
        assert!(!is_relative("http://x.y") && !is_relative("#anchor"));
    }

    #[test]
    fn reports_missing_targets_only() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let file = root.join("README.md");
        let text = "[here](src/main.rs) [gone](src/gone.rs#x) [web](https://wgpu.rs)";
        let broken = broken_in(&file, text);
        assert_eq!(broken.len(), 1, "{broken:?}");
        assert!(broken[0].contains("src/gone.rs"));
    }
}
