//! What a GLSL or HLSL translation tells about the WGSL it made, carried by the [`Source`]: the
//! bindings the WGSL names otherwise than the GLSL (`target` is `target_`, a word WGSL
//! reserves), which the kernel's reflection, its bind-by-name and its errors call by the GLSL
//! name; and the GLSL lines of its `constant_id` constants and first subgroup operation, which
//! the errors of kernel creation name (only the WGSL is left by then).

use std::sync::Arc;

use super::Source;
use crate::reflect::Reflection;

/// One note: `(kind, name, value)`, as `shoal_glsl::Translation::notes` lists them.
type Note<'a> = (&'a str, &'a str, &'a str);

/// The notes of a source: none for WGSL, the macros' static table, or a run-time translation's.
#[derive(Debug, Clone)]
pub(crate) enum Notes {
    /// What `glsl!` and `hlsl!` compile in.
    Static(&'static [Note<'static>]),
    /// What [`Source::glsl`] and [`Source::hlsl`] translate at run time.
    #[cfg_attr(
        not(all(any(feature = "glsl", feature = "hlsl"), not(target_arch = "wasm32"))),
        allow(dead_code)
    )]
    Owned(Arc<[(&'static str, String, String)]>),
}

impl Notes {
    pub(crate) const NONE: Self = Self::Static(&[]);

    fn iter(&self) -> Box<dyn Iterator<Item = Note<'_>> + '_> {
        match self {
            Self::Static(notes) => Box::new(notes.iter().copied()),
            Self::Owned(notes) => {
                Box::new(notes.iter().map(|(k, n, v)| (*k, n.as_str(), v.as_str())))
            }
        }
    }

    /// The value of the note `kind` about `name`.
    fn find(&self, kind: &str, name: &str) -> Option<&str> {
        self.iter()
            .find(|(k, n, _)| *k == kind && *n == name)
            .map(|(_, _, v)| v)
    }
}

#[cfg(all(any(feature = "glsl", feature = "hlsl"), not(target_arch = "wasm32")))]
impl From<&shoal_glsl::Translation> for Notes {
    fn from(translation: &shoal_glsl::Translation) -> Self {
        Self::Owned(translation.notes().into())
    }
}

impl Source {
    /// A translated kernel compiled into the binary with its notes: what `glsl!` and `hlsl!`
    /// expand to (`notes` as `shoal_glsl::Translation::notes` lists them).
    #[doc(hidden)]
    pub const fn from_translated(
        path: &'static str,
        (text, notes): (
            &'static str,
            &'static [(&'static str, &'static str, &'static str)],
        ),
    ) -> Self {
        Self {
            text: std::borrow::Cow::Borrowed(text),
            path: std::borrow::Cow::Borrowed(super::without_parents(path)),
            snippets: Vec::new(),
            blocks: Vec::new(),
            notes: Notes::Static(notes),
        }
    }

    /// The bindings whose WGSL name is not the one the kernel is bound by, as
    /// `(name, WGSL name)`: a GLSL or HLSL binding named by a word WGSL reserves (`target` is
    /// `target_` in the WGSL) or by a predeclared name the translated kernel uses for the
    /// built-in (`select`). The kernel's reflection, `.bind` and the errors use the first.
    ///
    /// ```
    /// # #[cfg(feature = "glsl")] {
    /// let source = shoal::Source::glsl("copy.comp", "#version 450
    /// layout(local_size_x = 64) in;
    /// layout(std430, binding = 0) buffer B { float target[]; };
    /// void main() { target[gl_GlobalInvocationID.x] = 1.0; }")?;
    /// assert_eq!(source.aliases(), [("target", "target_")]);
    /// assert_eq!(shoal::validate(&source)?[0].bindings[0].name, "target");
    /// # }
    /// # Ok::<(), shoal::Error>(())
    /// ```
    pub fn aliases(&self) -> Vec<(&str, &str)> {
        self.notes
            .iter()
            .filter(|(kind, _, _)| *kind == "alias")
            .map(|(_, name, wgsl)| (name, wgsl))
            .collect()
    }

    /// `reflection` (of this source's WGSL) with each aliased binding under the name the kernel
    /// is bound by.
    pub(crate) fn rename_bindings(&self, reflection: &mut Reflection) {
        let aliases = self.aliases();
        if aliases.is_empty() {
            return;
        }
        let user = |wgsl: &mut String| {
            if let Some((name, _)) = aliases.iter().find(|(_, w)| w == wgsl) {
                *wgsl = name.to_string();
            }
        };
        for binding in &mut reflection.bindings {
            user(&mut binding.name);
        }
        for (texture, sampler) in &mut reflection.sampled_with {
            user(texture);
            user(sampler);
        }
    }

    /// `file:line` of the first subgroup operation in the GLSL, where the source was translated
    /// from GLSL that uses them.
    pub(crate) fn subgroups_line(&self) -> Option<&str> {
        self.notes.find("subgroups", "")
    }

    /// The GLSL or HLSL `constant_id` constants with `file:line` of each declaration.
    pub(crate) fn constant_lines(&self) -> Vec<(&str, &str)> {
        self.notes
            .iter()
            .filter(|(kind, _, _)| *kind == "constant")
            .map(|(_, name, line)| (name, line))
            .collect()
    }
}
