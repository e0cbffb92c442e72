//! Composition: `#import` resolution, `#block` replacement, the `enable subgroups;` directive and
//! printf call-site tagging, with the line map back to the files ([`Composed`]).

use std::borrow::Cow;
use std::ops::Range;

use super::{INLINE, SNIPPETS, Source};
use crate::error::{Error, Result};

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

/// `line` without `subgroups` in an `enable` directive that starts it (naga does not implement
/// that extension; [`Composed::for_backend`] adds it back for the browser), or `None` where the
/// line has no such directive. The directive's other extensions and the rest of the line stay,
/// and every kept character keeps its column (what is removed becomes spaces).
fn without_subgroups(line: &str) -> Option<String> {
    let start = line.len() - line.trim_start().len();
    let after = line[start..].strip_prefix("enable")?;
    if !after.starts_with(char::is_whitespace) {
        return None;
    }
    let end = start + "enable".len() + after.find(';')?;
    let names: Vec<&str> = line[start + "enable".len()..end]
        .split(',')
        .map(str::trim)
        .collect();
    if !names.contains(&"subgroups") {
        return None;
    }
    let kept: Vec<&str> = names
        .into_iter()
        .filter(|n| *n != "subgroups" && !n.is_empty())
        .collect();
    let directive = match kept.is_empty() {
        true => String::new(),
        false => format!("enable {};", kept.join(", ")),
    };
    let width = end + 1 - start;
    Some(format!(
        "{}{directive:width$}{}",
        &line[..start],
        &line[end + 1..]
    ))
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
            out.end_line();
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
            } else if let Some(kept) = without_subgroups(line) {
                self.uses_subgroups = true;
                self.text.push_str(&kept);
            } else {
                self.text.push_str(line);
            }
        }
        self.end_chunk(path, chunk_line, chunk_start);
        Ok(())
    }

    /// Ends the text's last line, where it has one that is not ended, so that what is appended
    /// next starts a line of its own (and every composed line comes from one file).
    fn end_line(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
    }

    /// Each run of lines from one file: its path, the 1-based line in that file of its first
    /// line, and its bytes in the composed text.
    pub(super) fn chunks(&self) -> impl Iterator<Item = (&str, usize, Range<usize>)> + '_ {
        self.chunks
            .iter()
            .map(|c| (c.path.as_str(), c.first_line, c.range.clone()))
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
            self.end_line();
            let start = self.text.len();
            self.text.push_str(&wrappers);
            self.end_chunk("<printf call sites>", 1, start);
        }
    }

    /// Replaces the bytes `range` of the composed text (inside one chunk) with `with`, keeping
    /// the map back to the files: what follows keeps its file, line and column but on the line
    /// changed.
    pub(crate) fn replace(&mut self, range: Range<usize>, with: &str) {
        let grown = with.len() as isize - range.len() as isize;
        let shift = |at: usize| at.saturating_add_signed(grown);
        for chunk in &mut self.chunks {
            if chunk.range.start >= range.end && chunk.range.start > range.start {
                chunk.range.start = shift(chunk.range.start);
            }
            if chunk.range.end >= range.end {
                chunk.range.end = shift(chunk.range.end);
            }
        }
        self.text.replace_range(range, with);
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
    pub(super) fn locate(&self, offset: usize) -> (&str, usize, usize, &str) {
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
