//! WGSL sources and their composition.
//!
//! WGSL has no include. Shoal adds one line form: `#import <name>` on a line of its own pulls in a
//! shared snippet (see [`SNIPPETS`]). The line is blanked and the snippet appended after the
//! source, so every line of the user's file keeps its number; a diagnostic that points into a
//! snippet names the snippet's own file and line. `enable subgroups;` is handled the same way:
//! naga (wgpu 30) rejects the directive while browsers require it, so Shoal strips it for naga
//! and adds it for the browser's WebGPU when the kernel uses subgroup operations.

use std::borrow::Cow;
use std::ops::Range;

use crate::error::{Error, Result};

/// A WGSL source: its text and where it came from (for messages).
#[derive(Debug, Clone)]
pub struct Source {
    pub(crate) text: Cow<'static, str>,
    pub(crate) path: Cow<'static, str>,
}

impl Source {
    /// Inline WGSL, shown in messages as `label`.
    pub fn new(label: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            text: Cow::Owned(text.into()),
            path: Cow::Owned(label.into()),
        }
    }

    /// WGSL compiled into the binary (what [`wgsl!`](crate::wgsl) expands to).
    pub const fn from_static(path: &'static str, text: &'static str) -> Self {
        Self {
            text: Cow::Borrowed(text),
            path: Cow::Borrowed(path),
        }
    }

    /// Reads a `.wgsl` file at run time (native), e.g. to reload an edited kernel.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn from_file(path: impl AsRef<std::path::Path>) -> Result<Self> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Ok(Self::new(path.display().to_string(), text))
    }

    /// Where the source came from.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The WGSL text as written.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl From<&'static str> for Source {
    fn from(text: &'static str) -> Self {
        Self::from_static("<inline wgsl>", text)
    }
}

impl From<String> for Source {
    fn from(text: String) -> Self {
        Self::new("<inline wgsl>", text)
    }
}

/// The shared snippets `#import` can name, with their files under `wgsl/shared/`.
///
/// A snippet whose text has a line `// params: A B` is a template: `#import name(x, y)` pulls in
/// a copy with every `A` replaced by `x` and `B` by `y`, and with the lines that end in
/// `// example` (which only make the file valid WGSL on its own) blanked. Each distinct
/// instantiation is pulled in once.
pub const SNIPPETS: &[(&str, &str, &str)] = &[
    (
        "shoal::fold",
        "wgsl/shared/fold.wgsl",
        include_str!("../../../wgsl/shared/fold.wgsl"),
    ),
    (
        "shoal::append",
        "wgsl/shared/append.wgsl",
        include_str!("../../../wgsl/shared/append.wgsl"),
    ),
    (
        "shoal::printf",
        "wgsl/shared/printf.wgsl",
        include_str!("../../../wgsl/shared/printf.wgsl"),
    ),
];

/// One piece of a composed source.
#[derive(Debug, Clone)]
struct Chunk {
    path: String,
    /// Byte range of this chunk in the composed text.
    range: Range<usize>,
}

/// A source with its imports resolved, ready for naga, with a map back to the files.
#[derive(Debug, Clone)]
pub(crate) struct Composed {
    pub(crate) text: String,
    chunks: Vec<Chunk>,
    /// Whether the kernel uses subgroup operations (browsers then need `enable subgroups;`).
    pub(crate) uses_subgroups: bool,
}

impl Composed {
    /// Resolves `#import` lines (recursively, each snippet once) and strips `enable subgroups;`.
    pub(crate) fn new(source: &Source, extra: &[(String, Source)]) -> Result<Self> {
        let mut out = Self {
            text: String::new(),
            chunks: Vec::new(),
            uses_subgroups: false,
        };
        let mut pending = Vec::new();
        out.push_chunk(source.path(), source.text(), &mut pending);
        let mut done: Vec<String> = Vec::new();
        while let Some(name) = pending.pop() {
            if done.contains(&name) {
                continue;
            }
            let (path, text) = match lookup(&name, extra) {
                Some(found) => instantiate(source.path(), &name, found)?,
                None => {
                    let mut available: Vec<String> =
                        SNIPPETS.iter().map(|s| s.0.to_string()).collect();
                    available.extend(extra.iter().map(|e| e.0.clone()));
                    return Err(Error::UnknownSnippet {
                        kernel: source.path().to_string(),
                        name,
                        available,
                    });
                }
            };
            out.text.push('\n');
            out.push_chunk(&path, &text, &mut pending);
            done.push(name);
        }
        Ok(out)
    }

    fn push_chunk(&mut self, path: &str, text: &str, imports: &mut Vec<String>) {
        let start = self.text.len();
        for line in text.split_inclusive('\n') {
            let trimmed = line.trim();
            if let Some(name) = trimmed.strip_prefix("#import ") {
                // `a::b ( x,y )` and `a::b(x, y)` are the same instantiation.
                let name: String = name
                    .trim()
                    .trim_end_matches(';')
                    .split_whitespace()
                    .collect();
                imports.push(name.replace(',', ", "));
                self.blank(line);
            } else if trimmed.starts_with("enable subgroups") {
                self.uses_subgroups = true;
                self.blank(line);
            } else {
                self.text.push_str(line);
            }
        }
        if !self.uses_subgroups && text.contains("subgroup") {
            self.uses_subgroups = [
                "subgroupAdd",
                "subgroupBallot",
                "subgroupShuffle",
                "subgroupBroadcast",
                "subgroupExclusive",
                "subgroupInclusive",
                "subgroupMin",
                "subgroupMax",
                "subgroupAll",
                "subgroupAny",
                "subgroupAnd",
                "subgroupOr",
                "subgroupXor",
                "subgroupMul",
                "subgroupElect",
                "subgroup_size",
                "subgroup_invocation_id",
                "subgroupBarrier",
            ]
            .iter()
            .any(|s| text.contains(s));
        }
        self.chunks.push(Chunk {
            path: path.to_string(),
            range: start..self.text.len(),
        });
    }

    /// Replaces a line by spaces of the same length, keeping columns and line numbers.
    fn blank(&mut self, line: &str) {
        let newline = line.ends_with('\n');
        let body = line.trim_end_matches(['\n', '\r']);
        self.text.extend(std::iter::repeat_n(' ', body.len()));
        if line.ends_with("\r\n") {
            self.text.push('\r');
        }
        if newline {
            self.text.push('\n');
        }
    }

    /// The text wgpu compiles for `backend`.
    pub(crate) fn for_backend(&self, backend: wgpu::Backend) -> Cow<'_, str> {
        if backend == wgpu::Backend::BrowserWebGpu && self.uses_subgroups {
            // On the first line, so browser diagnostics keep the file's line numbers.
            Cow::Owned(format!("enable subgroups; {}", self.text))
        } else {
            Cow::Borrowed(&self.text)
        }
    }

    /// File, 1-based line and column, and the text of the line at byte `offset` of the composed text.
    fn locate(&self, offset: usize) -> (&str, usize, usize, &str) {
        let chunk = self
            .chunks
            .iter()
            .find(|c| c.range.contains(&offset))
            .or(self.chunks.last())
            .map(|c| (c.path.as_str(), c.range.clone()))
            .unwrap_or(("<wgsl>", 0..self.text.len()));
        let (path, range) = chunk;
        let offset = offset.clamp(range.start, range.end);
        let before = &self.text[range.start..offset];
        let line = before.matches('\n').count() + 1;
        let line_start = before
            .rfind('\n')
            .map(|i| range.start + i + 1)
            .unwrap_or(range.start);
        let line_end = self.text[line_start..range.end]
            .find('\n')
            .map(|i| line_start + i)
            .unwrap_or(range.end);
        let column = self.text[line_start..offset].chars().count() + 1;
        (
            path,
            line,
            column,
            self.text[line_start..line_end].trim_end_matches('\r'),
        )
    }

    /// Renders a diagnostic: the message, then each labelled span as `file:line:column`, the
    /// source line and a caret under the span.
    pub(crate) fn render(&self, message: &str, labels: &[(Range<usize>, String)]) -> String {
        let mut out = format!("error: {message}\n");
        for (span, label) in labels {
            let (path, line, column, text) = self.locate(span.start);
            let width = self
                .text
                .get(span.clone())
                .map(|s| s.lines().next().unwrap_or("").chars().count())
                .unwrap_or(1)
                .max(1);
            let gutter = line.to_string().len();
            out.push_str(&format!("{:gutter$}--> {path}:{line}:{column}\n", ""));
            out.push_str(&format!("{:gutter$} |\n", ""));
            out.push_str(&format!("{line} | {text}\n"));
            out.push_str(&format!(
                "{:gutter$} | {}{} {label}\n",
                "",
                " ".repeat(column - 1),
                "^".repeat(width)
            ));
        }
        out
    }
}

/// Fills a template snippet's parameters with the arguments of `name` (`base(x, y)`).
fn instantiate(
    kernel: &str,
    name: &str,
    (path, text): (String, String),
) -> Result<(String, String)> {
    let params: Vec<&str> = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("// params:"))
        .map(|p| p.split_whitespace().collect())
        .unwrap_or_default();
    let args: Vec<&str> = match name.split_once('(') {
        Some((_, rest)) => rest
            .trim_end_matches(')')
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .collect(),
        None => Vec::new(),
    };
    if params.len() != args.len() {
        return Err(Error::SnippetArguments {
            kernel: kernel.to_string(),
            name: name.to_string(),
            params: params.iter().map(|p| p.to_string()).collect(),
            got: args.len(),
        });
    }
    if params.is_empty() {
        return Ok((path, text));
    }
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        if line.trim_end().ends_with("// example") {
            // Blanked, not dropped: diagnostics keep the template file's line numbers.
            out.extend(
                line.chars()
                    .map(|c| if c == '\n' || c == '\r' { c } else { ' ' }),
            );
        } else {
            let mut line = line.to_string();
            for (p, a) in params.iter().zip(&args) {
                line = line.replace(p, a);
            }
            out.push_str(&line);
        }
    }
    Ok((format!("{path} ({})", args.join(", ")), out))
}

fn lookup(name: &str, extra: &[(String, Source)]) -> Option<(String, String)> {
    let name = name.split_once('(').map_or(name, |(base, _)| base);
    if let Some((_, path, text)) = SNIPPETS.iter().find(|s| s.0 == name) {
        return Some((path.to_string(), text.to_string()));
    }
    extra
        .iter()
        .find(|e| e.0 == name)
        .map(|e| (e.1.path().to_string(), e.1.text().to_string()))
}

#[cfg(test)]
mod tests {
    // In wasm32 these run in the browser through wasm-bindgen-test (plain `#[test]`s would not run).
    use super::*;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn imports_keep_line_numbers_and_resolve_once() {
        let src = Source::new(
            "k.wgsl",
            "#import shoal::fold\n#import shoal::fold\nfn main() {}\n",
        );
        let c = Composed::new(&src, &[]).expect("composes");
        assert!(c.text.lines().nth(2) == Some("fn main() {}"));
        assert_eq!(c.text.matches("fn shoal_linear_index").count(), 1);
        let at = c.text.find("fn main").expect("present");
        assert_eq!(c.locate(at).1, 3);
        let in_snippet = c.text.find("fn shoal_linear_index").expect("present");
        assert_eq!(c.locate(in_snippet).0, "wgsl/shared/fold.wgsl");
    }

    #[test]
    fn template_snippets_are_instantiated_per_argument_list() {
        let src = Source::new(
            "k.wgsl",
            "#import shoal::append(a, f32)\n#import shoal::append( b , vec4<f32> )\n#import shoal::append(a,f32)\n",
        );
        let c = Composed::new(&src, &[]).expect("composes");
        assert_eq!(c.text.matches("fn a_append(value: f32)").count(), 1);
        assert_eq!(c.text.matches("fn b_append(value: vec4<f32>)").count(), 1);
        assert!(!c.text.contains("SHOAL_"), "every parameter replaced");
        assert!(
            !c.text.lines().any(|l| l.trim_end().ends_with("// example")),
            "example lines blanked"
        );
        let at = c.text.find("fn b_append").expect("present");
        assert!(c.locate(at).0.ends_with("append.wgsl (b, vec4<f32>)"));
        let wrong = Source::new("k.wgsl", "#import shoal::append(a)\n");
        assert!(matches!(
            Composed::new(&wrong, &[]),
            Err(Error::SnippetArguments { got: 1, .. })
        ));
    }

    #[test]
    fn unknown_snippet_is_an_error() {
        let src = Source::new("k.wgsl", "#import nope\n");
        assert!(matches!(
            Composed::new(&src, &[]),
            Err(Error::UnknownSnippet { .. })
        ));
    }

    #[test]
    fn subgroup_directive_is_stripped_for_naga_and_added_for_browsers() {
        let src = Source::new(
            "k.wgsl",
            "enable subgroups;\nfn f() -> u32 { return subgroupAdd(1u); }\n",
        );
        let c = Composed::new(&src, &[]).expect("composes");
        assert!(!c.text.contains("enable"));
        assert!(c.uses_subgroups);
        assert!(
            c.for_backend(wgpu::Backend::BrowserWebGpu)
                .starts_with("enable subgroups;")
        );
        assert!(!c.for_backend(wgpu::Backend::Vulkan).contains("enable"));
    }
}
