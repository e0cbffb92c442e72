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
//! column as written there. [`Source::wgsl`] and [`Kernel::wgsl`](crate::Kernel::wgsl) return
//! the text with that map ([`Wgsl`]).

use std::borrow::Cow;

mod compose;
mod explain;
#[cfg(all(feature = "hlsl", not(target_arch = "wasm32")))]
mod hlsl;
mod notes;
mod wgsl;

pub(crate) use compose::Composed;
use notes::Notes;
pub use wgsl::Wgsl;

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
    /// What a GLSL or HLSL translation tells beside the WGSL (`notes.rs`).
    notes: Notes,
}

impl Source {
    /// Inline WGSL, shown in messages as `label`.
    pub fn new(label: impl Into<String>, text: impl Into<String>) -> Self {
        Self {
            text: Cow::Owned(text.into()),
            path: Cow::Owned(label.into()),
            snippets: Vec::new(),
            blocks: Vec::new(),
            notes: Notes::NONE,
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
            notes: Notes::NONE,
        }
    }

    /// Reads a `.wgsl` file at run time (native), e.g. to reload an edited kernel.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn from_file(path: impl AsRef<std::path::Path>) -> crate::Result<Self> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| crate::Error::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Ok(Self::new(path.display().to_string(), text))
    }

    /// A GLSL compute kernel (`#version 450` or `310 es`, entry point `main`), translated to
    /// WGSL now (native only: for the browser use [`glsl!`](crate::glsl), which translates at
    /// compile time). Messages name `path`. Bindings are bound by name: a block's instance name
    /// if it has one, else its single member's name (`buffer Data { float data[]; };` is
    /// `data`), else the block's name; `constant_id` constants are override constants set by
    /// their GLSL name. A binding named by a word WGSL reserves (`target`) is `target_` in the
    /// WGSL and bound as `target` ([`Source::aliases`]). Vulkan and OpenGL idioms are rewritten (docs/glsl.md has the table): a
    /// combined `sampler2D tex` is bound as `tex` and `tex_sampler`, loose uniforms as one block
    /// `uniforms`, `debugPrintfEXT` records read with `Kernel::printed`; `#include` is relative to
    /// `path`'s directory ([`Source::glsl_with`] adds include directories and other options).
    /// A glslang error is [`Error::Glsl`](crate::Error::Glsl) with
    /// `path:line`; a construct WGSL or WebGPU cannot take is
    /// [`Error::GlslUnsupported`](crate::Error::GlslUnsupported) naming its WGSL equivalent.
    ///
    /// ```
    /// let source = shoal::Source::glsl("double.comp", "#version 450
    /// layout(local_size_x = 64) in;
    /// layout(std430, binding = 0) buffer Data { float data[]; };
    /// void main() { data[gl_GlobalInvocationID.x] *= 2.0; }")?;
    /// assert_eq!(shoal::validate(&source)?[0].bindings[0].name, "data");
    /// # Ok::<(), shoal::Error>(())
    /// ```
    #[cfg(all(feature = "glsl", not(target_arch = "wasm32")))]
    pub fn glsl(path: impl Into<String>, text: &str) -> crate::Result<Self> {
        Self::glsl_with(path, text, &crate::GlslOptions::new())
    }

    /// [`Source::glsl`] with translation options: directories `#include` searches (after the
    /// directory of `path`), values of `constant_id` constants that must be fixed at translation
    /// (those sizing an array; the others stay override constants), formats of storage images
    /// declared without one. docs/glsl.md has the rules.
    ///
    /// ```
    /// let options = shoal::GlslOptions::new().image_format("out_image", "rgba8");
    /// let source = shoal::Source::glsl_with("fill.comp", "#version 450
    /// layout(local_size_x = 8, local_size_y = 8) in;
    /// layout(binding = 0) writeonly uniform image2D out_image;
    /// void main() { imageStore(out_image, ivec2(gl_GlobalInvocationID.xy), vec4(1.0)); }", &options)?;
    /// assert_eq!(shoal::validate(&source)?[0].bindings[0].name, "out_image");
    /// # Ok::<(), shoal::Error>(())
    /// ```
    #[cfg(all(feature = "glsl", not(target_arch = "wasm32")))]
    pub fn glsl_with(
        path: impl Into<String>,
        text: &str,
        options: &crate::GlslOptions,
    ) -> crate::Result<Self> {
        let path = path.into();
        match shoal_glsl::translate(&path, text, options) {
            Ok(translation) => {
                let notes = Notes::from(&translation);
                let mut source = Self::new(path, translation.wgsl);
                source.notes = notes;
                Ok(source)
            }
            Err(shoal_glsl::Error::Unsupported {
                construct,
                wgsl,
                location,
            }) => Err(crate::Error::GlslUnsupported {
                kernel: path,
                construct: construct.to_string(),
                wgsl: wgsl.to_string(),
                location,
            }),
            Err(e) => Err(crate::Error::Glsl {
                kernel: path,
                message: e.to_string(),
            }),
        }
    }

    /// Reads a GLSL compute kernel from disk and translates it ([`Source::glsl`]), e.g. to
    /// reload an edited kernel.
    #[cfg(all(feature = "glsl", not(target_arch = "wasm32")))]
    pub fn glsl_file(path: impl AsRef<std::path::Path>) -> crate::Result<Self> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| crate::Error::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Self::glsl(path.display().to_string(), &text)
    }

    /// Where the source came from.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The WGSL text as written.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The composed WGSL — imports resolved, blocks replaced — with its map back to the files
    /// ([`Wgsl`]), without a device: what a kernel built from this source parses, before each
    /// backend's changes (listed on [`Wgsl`]). An unknown snippet, a snippet's wrong arguments or
    /// a `#block` name with no region is the error building the kernel would give.
    ///
    /// ```
    /// let source = shoal::Source::new("k.wgsl", "#import shoal::fold\nfn f() {}\n");
    /// let wgsl = source.wgsl()?;
    /// assert_eq!(wgsl.origin(2), Some(("k.wgsl", 2)));
    /// assert!(wgsl.text().contains("fn shoal_linear_index"));
    /// # Ok::<(), shoal::Error>(())
    /// ```
    pub fn wgsl(&self) -> crate::Result<Wgsl> {
        Composed::new(self).map(|c| Wgsl::from(&c))
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
    /// [`Error::Block`](crate::Error::Block) when the kernel is built: the WGSL and the Rust disagree.
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
        include_str!("../../wgsl/shared/fold.wgsl"),
    ),
    (
        "shoal::append",
        "wgsl/shared/append.wgsl",
        include_str!("../../wgsl/shared/append.wgsl"),
    ),
    (
        "shoal::printf",
        "wgsl/shared/printf.wgsl",
        include_str!("../../wgsl/shared/printf.wgsl"),
    ),
];

#[cfg(test)]
mod tests;

#[cfg(all(test, feature = "glsl", feature = "hlsl", not(target_arch = "wasm32")))]
mod glsl_tests;
