//! Storage-image formats, on the GLSL text: an image declared without a format takes the one
//! the translation options give it by name (WGSL's storage textures always name one), and a
//! format WebGPU has no storage texture for is refused where it is written.

use crate::Error;
use crate::lex::{Edits, Token, line_of, tokens};
use crate::unsupported::unsupported;

pub(crate) const FORMATLESS: (&str, &str) = (
    "a storage image without a format qualifier",
    "a format in the GLSL (`layout(rgba8, binding = 0) uniform image2D img;`) or given to the \
     translation (`Options::image_format(\"img\", \"rgba8\")`, `glsl!(\"k.comp\", format = \
     \"img=rgba8\")`); in WGSL `texture_storage_2d<rgba8unorm, write>`",
);
pub(crate) const NO_STORAGE_FORMAT: (&str, &str) = (
    "a storage image format WebGPU has no storage texture for",
    "one of rgba8, rgba8_snorm, rgba8ui, rgba8i, rgba16f, rgba16ui, rgba16i, rgba32f, rgba32ui, \
     rgba32i, r32f, r32ui, r32i, rg32f, rg32ui, rg32i (e.g. `r8ui` data as `r32ui`)",
);

/// The formats WebGPU's storage textures take, as GLSL spells them.
const STORAGE: &[&str] = &[
    "rgba8",
    "rgba8_snorm",
    "rgba8ui",
    "rgba8i",
    "rgba16f",
    "rgba16ui",
    "rgba16i",
    "rgba32f",
    "rgba32ui",
    "rgba32i",
    "r32f",
    "r32ui",
    "r32i",
    "rg32f",
    "rg32ui",
    "rg32i",
];

/// Every format qualifier GLSL has for images.
const GLSL: &[&str] = &[
    "rgba32f",
    "rgba16f",
    "rg32f",
    "rg16f",
    "r11f_g11f_b10f",
    "r32f",
    "r16f",
    "rgba16",
    "rgb10_a2",
    "rgba8",
    "rg16",
    "rg8",
    "r16",
    "r8",
    "rgba16_snorm",
    "rgba8_snorm",
    "rg16_snorm",
    "rg8_snorm",
    "r16_snorm",
    "r8_snorm",
    "rgba32i",
    "rgba16i",
    "rgba8i",
    "rg32i",
    "rg16i",
    "rg8i",
    "r32i",
    "r16i",
    "r8i",
    "rgba32ui",
    "rgba16ui",
    "rgb10_a2ui",
    "rgba8ui",
    "rg32ui",
    "rg16ui",
    "rg8ui",
    "r32ui",
    "r16ui",
    "r8ui",
    "r64ui",
    "r64i",
];

/// Whether `word` is a storage image type (`image2D`, `uimage3D`, …; texel buffers are refused
/// elsewhere).
fn is_image(word: &str) -> bool {
    let rest = word
        .strip_prefix(['i', 'u'])
        .filter(|r| r.starts_with("image"))
        .unwrap_or(word);
    rest.strip_prefix("image").is_some_and(|dims| {
        !dims.is_empty() && dims != "Buffer" && dims.starts_with(['1', '2', '3', 'C'])
    })
}

/// `text` with each formatless image given its format from `given`, after refusing formats
/// WebGPU cannot store and formatless images with no format given.
pub(crate) fn apply(path: &str, text: &str, given: &[(String, String)]) -> Result<String, Error> {
    let toks = tokens(text);
    let mut edits = Edits::default();
    let (mut braces, mut statement) = (0usize, 0usize);
    for (i, t) in toks.iter().enumerate() {
        match t.text.as_str() {
            "{" => braces += 1,
            "}" => {
                braces = braces.saturating_sub(1);
                if braces == 0 {
                    statement = i + 1;
                }
            }
            ";" if braces == 0 => statement = i + 1,
            _ => {}
        }
        if braces != 0 || !is_image(&t.text) || toks.get(i + 1).is_some_and(|n| n.text == "(") {
            continue;
        }
        let qualifiers = &toks[statement..i];
        if !qualifiers.iter().any(|q| q.text == "uniform") {
            continue;
        }
        if let Some(format) = qualifiers.iter().find(|q| GLSL.contains(&q.text.as_str())) {
            if !STORAGE.contains(&format.text.as_str()) {
                let detail = format!("`{}`", format.text);
                let line = line_of(text, format.at.start);
                return Err(unsupported(
                    path,
                    Some(line),
                    NO_STORAGE_FORMAT,
                    Some(detail),
                ));
            }
            continue;
        }
        let name = toks.get(i + 1).map_or("", |n| n.text.as_str());
        let Some((_, format)) = given.iter().find(|(n, _)| n == name) else {
            let detail = format!("`{name}`");
            let line = line_of(text, t.at.start);
            return Err(unsupported(path, Some(line), FORMATLESS, Some(detail)));
        };
        if !STORAGE.contains(&format.as_str()) {
            let detail = format!("`{format}` given for `{name}`");
            let line = line_of(text, t.at.start);
            return Err(unsupported(
                path,
                Some(line),
                NO_STORAGE_FORMAT,
                Some(detail),
            ));
        }
        insert_format(&mut edits, qualifiers, format);
    }
    Ok(if edits.is_empty() {
        text.to_string()
    } else {
        edits.apply(text)
    })
}

/// Adds `format` to the statement's `layout(…)`, or a `layout(format)` before it.
fn insert_format(edits: &mut Edits, qualifiers: &[Token], format: &str) {
    match qualifiers
        .windows(2)
        .find(|w| w[0].text == "layout" && w[1].text == "(")
    {
        Some(w) => edits.insert(w[1].at.end, format!("{format}, ")),
        None => edits.insert(qualifiers[0].at.start, format!("layout({format}) ")),
    }
}
