//! The page-length check: no Markdown page under `docs/` may have more than [`MAX_PAGE_LINES`]
//! lines, so a guide is split by subject before it becomes a log. It runs with the file-length
//! check (`cargo xtask lines`, and first in `cargo xtask test`); the pages are the link check's
//! ([`crate::links::markdown_files`]), so a new page is checked without being listed.

use std::path::Path;

/// The most lines a page under `docs/` may have.
pub(crate) const MAX_PAGE_LINES: usize = 800;

/// Checks every `*.md` under `root/docs/`; prints each page over [`MAX_PAGE_LINES`] with its
/// count. True when there is none.
pub(crate) fn check(root: &Path) -> bool {
    let docs = root.join("docs");
    let mut long = Vec::new();
    for page in crate::links::markdown_files(root) {
        if !page.starts_with(&docs) {
            continue;
        }
        match std::fs::read_to_string(&page) {
            Ok(text) if text.lines().count() > MAX_PAGE_LINES => {
                long.push((page, text.lines().count()));
            }
            Ok(_) => {}
            Err(e) => {
                eprintln!("cannot read {}: {e}", page.display());
                return false;
            }
        }
    }
    if long.is_empty() {
        eprintln!("every page under docs/ has at most {MAX_PAGE_LINES} lines");
        return true;
    }
    eprintln!(
        "{} page(s) under docs/ have more than {MAX_PAGE_LINES} lines (split them by subject):",
        long.len()
    );
    for (page, lines) in &long {
        let shown = page.strip_prefix(root).unwrap_or(page);
        eprintln!("  {lines:>5} lines  {}", shown.display());
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{MAX_PAGE_LINES, check};

    #[test]
    fn pages_over_the_limit_fail() {
        let root = std::env::temp_dir().join(format!("xtask-pages-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("docs/deep")).expect("dirs");
        let write = |path: &str, lines: usize| {
            std::fs::write(root.join(path), "x\n".repeat(lines)).expect("page");
        };
        // The README is not a page under docs/: it may be longer.
        write("README.md", MAX_PAGE_LINES + 5);
        write("docs/short.md", MAX_PAGE_LINES);
        assert!(check(&root));
        write("docs/deep/long.md", MAX_PAGE_LINES + 1);
        assert!(!check(&root));
        let _ = std::fs::remove_dir_all(&root);
    }
}
