//! [`Wgsl`]: the composed text of a source, public, with its map from each composed line back to
//! the file and line it came from.

use std::fmt;

use super::Composed;

/// The WGSL Shoal composed from a [`Source`](super::Source): its `#import` lines blanked and the
/// snippets appended, its `#block` regions replaced, `enable subgroups;` taken out (naga rejects
/// the directive), printf call sites tagged — and a map from each line of that text to the file
/// and line it came from. What [`Source::wgsl`](super::Source::wgsl) returns without a device and
/// [`Kernel::wgsl`](crate::Kernel::wgsl) returns for a built kernel.
///
/// This is the text naga parses and reflects. A backend then changes it as it builds the
/// pipeline:
/// - **immediate data**: where the device does not take the kernel's `var<immediate>` block as
///   such (the browser, a device without `IMMEDIATES`, a block larger than
///   [`Gpu::max_immediate_size`](crate::Gpu::max_immediate_size)), its declaration becomes
///   `@group(g) @binding(b) var<uniform>` (or `var<storage, read>`) on the same line
///   (docs/immediates.md);
/// - **override constants** ([`KernelBuilder::constant`](crate::KernelBuilder::constant)) are
///   handed to wgpu with the text on Vulkan, Metal, DX12 and WebGPU, which apply them;
/// - **WebGPU in the browser**: where the text uses subgroup operations
///   ([`uses_subgroups`](Self::uses_subgroups)), `enable subgroups; ` is put before its first
///   line (so lines keep their numbers);
/// - **GL**: where the entry point has `var<workgroup>` variables, wgpu gets no text but naga's
///   module of this text with the overrides already applied and code at the entry point's start
///   that zeroes those variables across the work group (wgpu's own zeroing turned off); other
///   kernels get the text as on Vulkan.
///
/// ```
/// let common = shoal::Source::new("common.wgsl", "fn twice(x: u32) -> u32 { return 2u * x; }\n");
/// let source = shoal::Source::new("k.wgsl", "#import common\n// #block op\n// #end op\n")
///     .snippet("common", common)
///     .block("op", "fn f() -> u32 { return twice(3u); }");
/// let wgsl = source.wgsl()?;
/// assert_eq!(wgsl.line(3), Some("fn f() -> u32 { return twice(3u); }"));
/// assert_eq!(wgsl.origin(3), Some(("<block op of k.wgsl>", 1)));
/// assert_eq!(wgsl.origin(5), Some(("common.wgsl", 1)));
/// # Ok::<(), shoal::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wgsl {
    text: String,
    runs: Vec<Run>,
    uses_subgroups: bool,
}

/// Consecutive composed lines from consecutive lines of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Run {
    /// The 1-based composed line of the run's first line.
    composed: usize,
    /// How many lines the run holds.
    count: usize,
    file: String,
    /// The 1-based line, in `file`, of the run's first line.
    line: usize,
}

impl Wgsl {
    /// The composed text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The file and 1-based line that composed line `line` (1-based) came from, or `None` past
    /// the end. A `#block`'s replacement given as a bare string is named
    /// `<block NAME of FILE>`, a snippet given as a bare string `<snippet NAME>`, a template
    /// snippet's instantiation `FILE (ARGS)`, printf's tagging wrappers `<printf call sites>`.
    pub fn origin(&self, line: usize) -> Option<(&str, usize)> {
        self.runs
            .iter()
            .find(|r| (r.composed..r.composed + r.count).contains(&line))
            .map(|r| (r.file.as_str(), r.line + (line - r.composed)))
    }

    /// The text of composed line `line` (1-based), without its line break.
    pub fn line(&self, line: usize) -> Option<&str> {
        self.text.lines().nth(line.checked_sub(1)?)
    }

    /// Every composed line with the file and line it came from: `(text, file, line)`.
    pub fn lines(&self) -> impl Iterator<Item = (&str, &str, usize)> + '_ {
        self.text.lines().enumerate().map(|(i, text)| {
            let (file, line) = self.origin(i + 1).unwrap_or(("<wgsl>", i + 1));
            (text, file, line)
        })
    }

    /// Whether the text uses subgroup operations: the browser's WebGPU then gets
    /// `enable subgroups;` before it.
    pub fn uses_subgroups(&self) -> bool {
        self.uses_subgroups
    }
}

impl From<&Composed> for Wgsl {
    fn from(composed: &Composed) -> Self {
        let text = &composed.text;
        let runs = composed
            .chunks()
            .map(|(file, line, range)| {
                let body = &text[range.clone()];
                Run {
                    composed: text[..range.start].matches('\n').count() + 1,
                    count: body.lines().count(),
                    file: file.to_string(),
                    line,
                }
            })
            .collect();
        Self {
            text: text.clone(),
            runs,
            uses_subgroups: composed.uses_subgroups,
        }
    }
}

impl fmt::Display for Wgsl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}
