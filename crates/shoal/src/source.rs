//! WGSL sources and Shoal's one preprocessor.
//!
//! WGSL has no include and no specialisation. Shoal adds three things, all in this module, used by
//! every kernel: the project's own, the kernels crate's and the user's.
//!
//! - `#import name` on a line of its own pulls in a snippet: one of Shoal's ([`SNIPPETS`]) or one
//!   registered on the source with [`Source::snippet`]. The line is blanked and the snippet
//!   appended after the source (once), so every line of the user's file keeps its number.
//! - `// #block name` … `// #end name` marks a region that [`Source::block`] replaces: the file as
//!   written is one valid specialisation (so it validates on its own), the Rust side makes the
//!   others: another element type (`alias T = f32;`), another operation, a user's predicate.
//!   Where an `override` constant suffices (a work-group size, a count), use
//!   [`KernelBuilder::constant`](crate::KernelBuilder::constant) instead: it needs no recompile of
//!   the text.
//! - `enable subgroups;`: naga (wgpu 30) rejects the directive while browsers require it, so Shoal
//!   strips it for naga and adds it for the browser's WebGPU when the kernel uses subgroup
//!   operations.
//!
//! The composed text keeps a line map: every naga diagnostic, every validation error and every
//! printf call site names the file (the source's, a snippet's, or a block's) and the line and
//! column as written there.

use std::borrow::Cow;
use std::ops::Range;

use crate::error::{Error, Result};

/// The label of a source made from a bare string.
const INLINE: &str = "<inline wgsl>";

/// A WGSL source: its text, where it came from (for messages), the snippets its `#import` lines
/// may name and the `#block` regions to replace.
#[derive(Debug, Clone)]
pub struct Source {
    pub(crate) text: Cow<'static, str>,
    pub(crate) path: Cow<'static, str>,
    snippets: Vec<(String, Source)>,
    blocks: Vec<(String, Source)>,
}

impl Source {
    /// Inline WGSL, shown in messages as `label`.
    pub fn new(label: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            text: Cow::Owned(text.into()),
            path: Cow::Owned(label.into()),
            snippets: Vec::new(),
            blocks: Vec::new(),
        }
    }

    /// WGSL compiled into the binary (what [`wgsl!`](crate::wgsl) expands to). Leading `../`
    /// and `./` are dropped from `path`, so `wgsl!("../../../wgsl/scan.wgsl")` is named
    /// `wgsl/scan.wgsl` in messages, wherever the including file sits.
    pub const fn from_static(path: &'static str, text: &'static str) -> Self {
        Self {
            text: Cow::Borrowed(text),
            path: Cow::Borrowed(without_parents(path)),
            snippets: Vec::new(),
            blocks: Vec::new(),
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

    /// Makes `snippet` available to `#import name` in this source and in the snippets it imports.
    /// Diagnostics in it name its [`path`](Self::path) (`<snippet name>` for a bare string).
    ///
    /// ```
    /// let common = shoal::Source::new("wgsl/common.wgsl", "fn twice(x: u32) -> u32 { return 2u * x; }\n");
    /// let source = shoal::Source::from("#import common\nfn f() -> u32 { return twice(3u); }\n")
    ///     .snippet("common", common);
    /// assert_eq!(shoal::validate(&source)?.len(), 0); // no entry points, and valid
    /// # Ok::<(), shoal::Error>(())
    /// ```
    pub fn snippet(mut self, name: &str, snippet: impl Into<Source>) -> Self {
        let mut snippet = snippet.into();
        if snippet.path == INLINE {
            snippet.path = Cow::Owned(format!("<snippet {name}>"));
        }
        self.snippets.retain(|(n, _)| n != name);
        self.snippets.push((name.to_string(), snippet));
        self
    }

    /// Replaces the lines between `// #block name` and `// #end name` (in this source or in a
    /// snippet it imports) by `text`. The marker lines stay, so the lines after the region keep
    /// their numbers; diagnostics inside the replacement name its own lines, under its
    /// [`path`](Self::path) (`<block name of FILE>` for a bare string). A name with no region is
    /// [`Error::Block`] when the kernel is built: the WGSL and the Rust disagree.
    ///
    /// ```
    /// let sum = shoal::Source::from("
    /// // #block op
    /// alias T = u32;
    /// // #end op
    /// fn add(a: T, b: T) -> T { return a + b; }
    /// ");
    /// let floats = sum.block("op", "alias T = f32;");
    /// assert_eq!(shoal::validate(&floats)?.len(), 0);
    /// # Ok::<(), shoal::Error>(())
    /// ```
    pub fn block(mut self, name: &str, text: impl Into<Source>) -> Self {
        self.blocks.retain(|(n, _)| n != name);
        self.blocks.push((name.to_string(), text.into()));
        self
    }
}

/// `path` without its leading `../` and `./` components.
const fn without_parents(path: &str) -> &str {
    let mut rest = path.as_bytes();
    while let [b'.', b'.', b'/', tail @ ..] | [b'.', b'/', tail @ ..] = rest {
        rest = tail;
    }
    match std::str::from_utf8(rest) {
        Ok(stable) => stable,
        Err(_) => path,
    }
}

impl From<&'static str> for Source {
    fn from(text: &'static str) -> Self {
        Self::from_static(INLINE, text)
    }
}

impl From<String> for Source {
    fn from(text: String) -> Self {
        Self::new(INLINE, text)
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

/// One piece of a composed source: a run of lines from one file.
#[derive(Debug, Clone)]
struct Chunk {
    path: String,
    /// The 1-based line, in that file, of the chunk's first line.
    first_line: usize,
    /// Byte range of this chunk in the composed text.
    range: Range<usize>,
}

/// The printf snippet: its calls are tagged with their call sites.
const PRINTF: &str = "shoal::printf";
/// What every printf function's name starts with, and as long as a call-site name (`shoal_p00042`).
const PRINT_PREFIX: &str = "shoal_print_";

/// The printf functions a call site can name, with the WGSL type of their value.
const PRINT_TYPES: &[(&str, &str)] = &[
    ("u32", "u32"),
    ("i32", "i32"),
    ("f32", "f32"),
    ("vec2u", "vec2<u32>"),
    ("vec3u", "vec3<u32>"),
    ("vec4u", "vec4<u32>"),
    ("vec2i", "vec2<i32>"),
    ("vec3i", "vec3<i32>"),
    ("vec4i", "vec4<i32>"),
    ("vec2f", "vec2<f32>"),
    ("vec3f", "vec3<f32>"),
    ("vec4f", "vec4<f32>"),
];

/// Call sites a printf record can name (its site number has 16 bits; 0 is "unknown").
const MAX_PRINT_SITES: usize = u16::MAX as usize;

/// A source with its imports resolved and blocks replaced, ready for naga, with a map back to the
/// files.
#[derive(Debug, Clone)]
pub(crate) struct Composed {
    pub(crate) text: String,
    chunks: Vec<Chunk>,
    /// Whether the kernel uses subgroup operations (browsers then need `enable subgroups;`).
    pub(crate) uses_subgroups: bool,
    /// `file:line:column` of each printf call site; record site `i + 1` is entry `i`.
    pub(crate) print_sites: Vec<String>,
}

/// What composition reads from: the kernel's name, its snippets and blocks, and what it has used.
struct Context<'a> {
    kernel: &'a str,
    snippets: &'a [(String, Source)],
    blocks: &'a [(String, Source)],
    used_blocks: Vec<bool>,
    imports: Vec<String>,
}

impl Composed {
    /// Resolves `#import` lines (recursively, each snippet once), replaces `#block` regions,
    /// strips `enable subgroups;` and tags printf call sites.
    pub(crate) fn new(source: &Source) -> Result<Self> {
        let mut out = Self {
            text: String::new(),
            chunks: Vec::new(),
            uses_subgroups: false,
            print_sites: Vec::new(),
        };
        let mut cx = Context {
            kernel: source.path(),
            snippets: &source.snippets,
            blocks: &source.blocks,
            used_blocks: vec![false; source.blocks.len()],
            imports: Vec::new(),
        };
        out.push_text(source.path(), source.text(), &mut cx)?;
        let mut done: Vec<String> = Vec::new();
        while let Some(name) = cx.imports.pop() {
            if done.contains(&name) {
                continue;
            }
            let Some(found) = lookup(&name, cx.snippets) else {
                let mut available: Vec<String> = SNIPPETS.iter().map(|s| s.0.to_string()).collect();
                available.extend(cx.snippets.iter().map(|e| e.0.clone()));
                return Err(Error::UnknownSnippet {
                    kernel: cx.kernel.to_string(),
                    name,
                    available,
                });
            };
            let (path, text) = instantiate(cx.kernel, &name, found)?;
            out.text.push('\n');
            out.push_text(&path, &text, &mut cx)?;
            done.push(name);
        }
        if let Some(i) = cx.used_blocks.iter().position(|used| !used) {
            return Err(Error::Block {
                kernel: cx.kernel.to_string(),
                name: cx.blocks[i].0.clone(),
                message: format!(
                    "no `// #block {0}` … `// #end {0}` region in the source or its snippets",
                    cx.blocks[i].0
                ),
            });
        }
        if done.iter().any(|d| d == PRINTF) {
            out.tag_print_sites();
        }
        // On the composed text: a replaced block may take subgroup operations out, or bring them.
        out.uses_subgroups |= SUBGROUP_WORDS.iter().any(|w| out.text.contains(w));
        Ok(out)
    }

    /// Appends `text` (lines of `path` from line 1), replacing blocks and noting imports.
    fn push_text(&mut self, path: &str, text: &str, cx: &mut Context<'_>) -> Result<()> {
        let mut chunk_start = self.text.len();
        let mut chunk_line = 1;
        let mut lines = text.split_inclusive('\n').enumerate();
        while let Some((index, line)) = lines.next() {
            let trimmed = line.trim();
            if let Some(name) = trimmed.strip_prefix("// #block ").map(str::trim)
                && let Some(b) = cx.blocks.iter().position(|(n, _)| n == name)
            {
                if std::mem::replace(&mut cx.used_blocks[b], true) {
                    return Err(Error::Block {
                        kernel: cx.kernel.to_string(),
                        name: name.to_string(),
                        message: format!(
                            "a second region of that name in {path}: names must be unique"
                        ),
                    });
                }
                self.text.push_str(line);
                self.end_chunk(path, chunk_line, chunk_start);
                let replacement = &cx.blocks[b].1;
                let label = match replacement.path() {
                    INLINE => format!("<block {name} of {path}>"),
                    other => other.to_string(),
                };
                let mut body = replacement.text().to_string();
                if !body.ends_with('\n') {
                    body.push('\n');
                }
                self.push_text(&label, &body, cx)?;
                let end = format!("// #end {name}");
                let Some((end_index, end_line)) = lines.find(|(_, l)| l.trim() == end) else {
                    return Err(Error::Block {
                        kernel: cx.kernel.to_string(),
                        name: name.to_string(),
                        message: format!(
                            "the region opened at {path}:{} has no `{end}` line",
                            index + 1
                        ),
                    });
                };
                chunk_start = self.text.len();
                chunk_line = end_index + 1;
                self.text.push_str(end_line);
            } else if let Some(name) = trimmed.strip_prefix("#import ") {
                // `a::b ( x,y )` and `a::b(x, y)` are the same instantiation.
                let name: String = name
                    .trim()
                    .trim_end_matches(';')
                    .split_whitespace()
                    .collect();
                cx.imports.push(name.replace(',', ", "));
                self.blank(line);
            } else if trimmed.starts_with("enable subgroups") {
                self.uses_subgroups = true;
                self.blank(line);
            } else {
                self.text.push_str(line);
            }
        }
        self.end_chunk(path, chunk_line, chunk_start);
        Ok(())
    }

    /// Records the text from `start` to the end as lines of `path` from `first_line`.
    fn end_chunk(&mut self, path: &str, first_line: usize, start: usize) {
        if start < self.text.len() {
            self.chunks.push(Chunk {
                path: path.to_string(),
                first_line,
                range: start..self.text.len(),
            });
        }
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

    /// Renames every printf call outside the snippet, `shoal_print_u32(` to `shoal_p00001u32(`
    /// (the same length, so columns hold), and appends the wrappers that tag the record with the
    /// site number, so a printed record names the file and line of its call.
    fn tag_print_sites(&mut self) {
        let snippet_path = SNIPPETS.iter().find(|s| s.0 == PRINTF).map_or("", |s| s.1);
        let mut wrappers = String::new();
        let mut at = 0;
        while let Some(found) = self.text[at..].find(PRINT_PREFIX) {
            let start = at + found;
            at = start + PRINT_PREFIX.len();
            let rest = &self.text[at..];
            let Some((suffix, ty)) = PRINT_TYPES.iter().find(|(suffix, _)| {
                rest.starts_with(suffix) && rest[suffix.len()..].trim_start().starts_with('(')
            }) else {
                continue;
            };
            let (path, line, column, _) = self.locate(start);
            let in_snippet = path == snippet_path;
            let location = format!("{path}:{line}:{column}");
            let declared = self.text[..start].trim_end().ends_with("fn");
            if in_snippet || declared || self.print_sites.len() >= MAX_PRINT_SITES {
                continue;
            }
            self.print_sites.push(location);
            let site = self.print_sites.len();
            let name = format!("shoal_p{site:05}");
            debug_assert_eq!(name.len(), PRINT_PREFIX.len());
            self.text
                .replace_range(start..start + PRINT_PREFIX.len(), &name);
            wrappers.push_str(&format!(
                "fn {name}{suffix}(gid: vec3<u32>, v: {ty}) {{ shoal_print_site = {site}u; {PRINT_PREFIX}{suffix}(gid, v); }}\n"
            ));
        }
        if !wrappers.is_empty() {
            self.text.push('\n');
            let start = self.text.len();
            self.text.push_str(&wrappers);
            self.end_chunk("<printf call sites>", 1, start);
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
            .map(|c| (c.path.as_str(), c.first_line, c.range.clone()))
            .unwrap_or(("<wgsl>", 1, 0..self.text.len()));
        let (path, first_line, range) = chunk;
        let offset = offset.clamp(range.start, range.end);
        let before = &self.text[range.start..offset];
        let line = first_line + before.matches('\n').count();
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

/// Words that mean a source uses subgroup operations.
const SUBGROUP_WORDS: &[&str] = &[
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
];

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

/// The file and text of snippet `name`: Shoal's own first, then the source's.
fn lookup(name: &str, snippets: &[(String, Source)]) -> Option<(String, String)> {
    let name = name.split_once('(').map_or(name, |(base, _)| base);
    if let Some((_, path, text)) = SNIPPETS.iter().find(|s| s.0 == name) {
        return Some((path.to_string(), text.to_string()));
    }
    snippets
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
        let c = Composed::new(&src).expect("composes");
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
        let c = Composed::new(&src).expect("composes");
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
            Composed::new(&wrong),
            Err(Error::SnippetArguments { got: 1, .. })
        ));
    }

    #[test]
    fn unknown_snippet_is_an_error() {
        let src = Source::new("k.wgsl", "#import nope\n");
        assert!(matches!(
            Composed::new(&src),
            Err(Error::UnknownSnippet { .. })
        ));
    }

    #[test]
    fn subgroup_directive_is_stripped_for_naga_and_added_for_browsers() {
        let src = Source::new(
            "k.wgsl",
            "enable subgroups;\nfn f() -> u32 { return subgroupAdd(1u); }\n",
        );
        let c = Composed::new(&src).expect("composes");
        assert!(!c.text.contains("enable"));
        assert!(c.uses_subgroups);
        assert!(
            c.for_backend(wgpu::Backend::BrowserWebGpu)
                .starts_with("enable subgroups;")
        );
        assert!(!c.for_backend(wgpu::Backend::Vulkan).contains("enable"));
    }

    /// The `file:line:column` lines of the diagnostic `validate` gives for `source`.
    fn located(source: &Source) -> Vec<String> {
        match crate::validate(source) {
            Err(Error::Wgsl { message, .. }) => message
                .lines()
                .filter_map(|l| l.trim().strip_prefix("--> "))
                .map(str::to_string)
                .collect(),
            other => panic!("expected a WGSL error, got {other:?}"),
        }
    }

    #[test]
    fn errors_in_snippets_and_blocks_name_their_own_file_and_line() {
        let snippet = Source::new(
            "wgsl/helpers.wgsl",
            "fn ok() -> u32 { return 1u; }\nfn bad() -> u32 { return nope; }\n",
        );
        let base = "// #block op\nalias T = u32;\n// #end op\n#import helpers\nfn f(x: T) -> T { return x; }\n";
        // The error in the snippet: its own file, line 2.
        let src = Source::new("k.wgsl", base).snippet("helpers", snippet.clone());
        assert_eq!(located(&src), ["wgsl/helpers.wgsl:2:26"]);
        // The error in the replacement of a block: the block's own label and line 2.
        let good = Source::new("wgsl/helpers.wgsl", "fn ok() -> u32 { return 1u; }\n");
        let src = Source::new("k.wgsl", base)
            .snippet("helpers", good.clone())
            .block("op", "alias T = f32;\nconst c: T = missing;");
        assert_eq!(located(&src), ["<block op of k.wgsl>:2:14"]);
        // After a block replaced by more lines than it had, the file's own lines keep their numbers.
        let after = "// #block op\nalias T = u32;\n// #end op\nfn f(x: T) -> T { return y; }\n";
        let src = Source::new("k.wgsl", after)
            .block("op", "alias T = u32;\nconst a = 1u;\nconst b = 2u;\n");
        assert_eq!(located(&src), ["k.wgsl:4:26"]);
        // A block given as a labelled source names that source.
        let src =
            Source::new("k.wgsl", after).block("op", Source::new("op.wgsl", "alias T = nope;\n"));
        assert!(
            located(&src)[0].starts_with("op.wgsl:1:"),
            "{:?}",
            located(&src)
        );
    }

    #[test]
    fn subgroup_use_is_decided_after_blocks_are_replaced() {
        let text = "// #block lane\nfn f() -> u32 { return subgroupAdd(1u); }\n// #end lane\n";
        let with = Composed::new(&Source::new("k.wgsl", text)).expect("composes");
        assert!(with.uses_subgroups);
        let without = Source::new("k.wgsl", text).block("lane", "fn f() -> u32 { return 1u; }");
        assert!(!Composed::new(&without).expect("composes").uses_subgroups);
    }

    #[test]
    fn static_sources_are_named_without_parent_directories() {
        assert_eq!(
            Source::from_static("../../../wgsl/scan.wgsl", "").path(),
            "wgsl/scan.wgsl"
        );
        assert_eq!(Source::from_static("./k.wgsl", "").path(), "k.wgsl");
        assert_eq!(Source::from_static("wgsl/a.wgsl", "").path(), "wgsl/a.wgsl");
    }

    #[test]
    fn blocks_that_do_not_fit_are_errors() {
        let src = Source::new("k.wgsl", "fn f() {}\n").block("op", "alias T = u32;");
        assert!(matches!(Composed::new(&src), Err(Error::Block { name, .. }) if name == "op"));
        let open =
            Source::new("k.wgsl", "// #block op\nalias T = u32;\n").block("op", "alias T = i32;");
        let e = Composed::new(&open).expect_err("unterminated");
        assert!(
            e.to_string().contains("k.wgsl:1 has no `// #end op` line"),
            "{e}"
        );
        let twice = Source::new(
            "k.wgsl",
            "// #block op\n// #end op\n// #block op\n// #end op\n",
        )
        .block("op", "");
        assert!(matches!(Composed::new(&twice), Err(Error::Block { .. })));
        // A region without a substitution stays as written.
        let kept = Source::new("k.wgsl", "// #block op\nalias T = u32;\n// #end op\n");
        assert!(
            Composed::new(&kept)
                .expect("composes")
                .text
                .contains("alias T = u32;")
        );
    }

    #[test]
    fn printf_calls_are_tagged_with_their_site_keeping_columns() {
        let text = "#import shoal::printf\n@compute @workgroup_size(1)\nfn main(@builtin(global_invocation_id) g: vec3<u32>) {\n    shoal_print_u32(g, 1u); shoal_print_vec2f(g, vec2<f32>());\n}\n";
        let c = Composed::new(&Source::new("k.wgsl", text)).expect("composes");
        assert_eq!(c.print_sites, ["k.wgsl:4:5", "k.wgsl:4:29"]);
        let line = c.text.lines().nth(3).expect("line 4");
        assert_eq!(
            line,
            "    shoal_p00001u32(g, 1u); shoal_p00002vec2f(g, vec2<f32>());"
        );
        assert!(
            c.text
                .contains("fn shoal_p00002vec2f(gid: vec3<u32>, v: vec2<f32>)")
        );
        crate::validate(&Source::new("k.wgsl", text)).expect("the tagged kernel validates");
        // Without the import nothing is renamed (the error then names the user's own call).
        let plain = Composed::new(&Source::new("k.wgsl", &text[22..])).expect("composes");
        assert!(plain.print_sites.is_empty() && plain.text.contains("shoal_print_u32"));
    }
}
