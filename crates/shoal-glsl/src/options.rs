//! What a translation is given beside the text, and what it gives back beside the WGSL.

use std::path::PathBuf;

/// Options of one GLSL translation: where `#include` looks, values of `constant_id` constants
/// fixed at translation, and formats of storage images declared without one.
///
/// ```
/// let options = shoal_glsl::Options::new()
///     .include_dir("shaders/common")
///     .constant("MAX_LOD", 4)
///     .image_format("result", "rgba8");
/// assert_eq!(options.constants, [("MAX_LOD".to_string(), 4)]);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Directories `#include "file"` searches, in order, after the including file's directory.
    pub include_dirs: Vec<PathBuf>,
    /// The directory of the translated file itself, which its `#include`s are relative to first;
    /// `None`: the directory of the path the translation is given (`Source::glsl`'s label).
    pub directory: Option<PathBuf>,
    /// Values of `constant_id` constants, by GLSL name, for the constants that must be fixed at
    /// translation (those that size an array, directly or through an expression); the others
    /// stay WGSL `override`s, set per kernel with `KernelBuilder::constant`. A constant fixed at
    /// translation with no value here takes its default.
    pub constants: Vec<(String, i64)>,
    /// Formats of storage images declared without a format qualifier, by image name, as GLSL
    /// spells them (`"rgba8"`, `"r32f"`, `"rgba32ui"`).
    pub image_formats: Vec<(String, String)>,
}

impl Options {
    /// No include directories, no values, no formats: what [`to_wgsl`](crate::to_wgsl) uses.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a directory for `#include` to search.
    pub fn include_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.include_dirs.push(dir.into());
        self
    }

    /// Gives the `constant_id` constant `name` the value `value` where it is fixed at translation.
    pub fn constant(mut self, name: impl Into<String>, value: i64) -> Self {
        let name = name.into();
        self.constants.retain(|(n, _)| *n != name);
        self.constants.push((name, value));
        self
    }

    /// Gives the storage image `name`, declared without a format, the format `format`
    /// (GLSL's spelling: `"rgba8"`, `"r32f"`, …).
    pub fn image_format(mut self, name: impl Into<String>, format: impl Into<String>) -> Self {
        let name = name.into();
        self.image_formats.retain(|(n, _)| *n != name);
        self.image_formats.push((name, format.into()));
        self
    }
}

/// A translated kernel: its WGSL, the files its `#include`s read (so a build can watch them), and
/// what Shoal needs to bind it by its GLSL names and to name its lines in later errors.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Translation {
    /// The WGSL.
    pub wgsl: String,
    /// Every file read through `#include`, as opened.
    pub included: Vec<PathBuf>,
    /// The `constant_id` constants fixed at translation, with the values they took.
    pub fixed: Vec<(String, i64)>,
    /// Bindings the WGSL declares under another name than the GLSL's, `(GLSL name, WGSL name)`:
    /// a name WGSL reserves (`target` is `target_`) or a predeclared one the kernel uses for
    /// the built-in (`select` beside a `mix(a, b, flag)`). Shoal binds them by the GLSL name.
    pub aliases: Vec<(String, String)>,
    /// Each `constant_id` constant's GLSL name and `file:line` of its declaration.
    pub constants: Vec<(String, String)>,
    /// `file:line` of the first subgroup operation, where the kernel uses any.
    pub subgroups: Option<String>,
}

impl Translation {
    /// What Shoal carries with the WGSL (`shoal::Source`), as `(kind, name, value)`:
    /// `("alias", GLSL name, WGSL name)`, `("constant", name, file:line)` and
    /// `("subgroups", "", file:line)`; the runtime route and the macros list it alike.
    pub fn notes(&self) -> Vec<(&'static str, String, String)> {
        let aliases = self
            .aliases
            .iter()
            .map(|(n, w)| ("alias", n.clone(), w.clone()));
        let constants = self
            .constants
            .iter()
            .map(|(n, l)| ("constant", n.clone(), l.clone()));
        let subgroups = self
            .subgroups
            .iter()
            .map(|l| ("subgroups", String::new(), l.clone()));
        aliases.chain(constants).chain(subgroups).collect()
    }
}
