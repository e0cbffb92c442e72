//! OpenGL-style loose uniforms (`uniform float dt;`), which Vulkan GLSL refuses, gathered into
//! one std140 uniform block before glslang sees the text: the declarations are blanked where they
//! stand and the block, with every one of them as a member in order, is declared on the line of
//! the last, so no line moves. The block is bound as [`BLOCK`]; its members are read by the same
//! names as before.

use crate::Error;
use crate::lex::{Edits, Walk, line_of, next_binding, qualifier, tokens};
use crate::unsupported::unsupported;

/// The name the gathered block of loose uniforms is bound by.
pub const BLOCK: &str = "uniforms";

pub(crate) const INITIALISED: (&str, &str) = (
    "a loose uniform with an initialiser (`uniform float k = 1.0;`)",
    "no initialiser: the value comes from the `uniforms` buffer the host binds (a constant that \
     never changes: `const float k = 1.0;`)",
);

/// Whether `word` starts an opaque type (a texture, image, sampler or atomic counter), which
/// stays a binding of its own.
fn opaque(word: &str) -> bool {
    let unprefixed = word.strip_prefix(['i', 'u']).unwrap_or(word);
    ["sampler", "texture", "image", "atomic_uint", "subpassInput"]
        .iter()
        .any(|p| word.starts_with(p) || unprefixed.starts_with(p))
}

/// Qualifiers that may stand between `uniform` and the type.
const QUALIFIERS: &[&str] = &[
    "highp",
    "mediump",
    "lowp",
    "precise",
    "readonly",
    "writeonly",
    "coherent",
    "volatile",
    "restrict",
    "layout",
];

/// `text` with its loose uniforms gathered into the block [`BLOCK`], and whether there were any.
pub(crate) fn gather(path: &str, text: &str) -> Result<(String, bool), Error> {
    let toks = tokens(text);
    let mut members = Vec::new();
    let mut edits = Edits::default();
    let mut last_end = None;
    let mut set = 0;
    let mut walk = Walk::default();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        walk.step(t, i);
        let statement = walk.statement;
        if walk.braces == 0 && t.text == "uniform" {
            let end = (i..toks.len()).find(|&j| matches!(toks[j].text.as_str(), ";" | "{"));
            let Some(end) = end.filter(|&j| toks[j].text == ";") else {
                i += 1;
                continue;
            };
            let body = &toks[i + 1..end];
            let ty = body.iter().find(|w| !QUALIFIERS.contains(&w.text.as_str()));
            if ty.is_some_and(|ty| !opaque(&ty.text)) && !body.is_empty() {
                if let Some(eq) = body.iter().find(|w| w.text == "=") {
                    return Err(unsupported(
                        path,
                        Some(line_of(text, eq.at.start)),
                        INITIALISED,
                        None,
                    ));
                }
                let layout = &toks[statement..i];
                if let Some(s) = qualifier(layout, "set") {
                    set = s;
                }
                let from = body[0].at.start;
                members.push(format!("{};", &text[from..toks[end].at.start]).replace('\n', " "));
                let start = toks[statement].at.start;
                edits.blank(text, start..toks[end].at.end);
                last_end = Some(toks[end].at.end);
                i = end + 1;
                walk.statement = i;
                continue;
            }
        }
        i += 1;
    }
    let Some(at) = last_end else {
        return Ok((text.to_string(), false));
    };
    // The next binding number no declaration uses (Vulkan GLSL needs one).
    let binding = next_binding(&toks);
    edits.insert(
        at,
        format!(
            "layout(std140, set = {set}, binding = {binding}) uniform {BLOCK} {{ {} }};",
            members.join(" ")
        ),
    );
    Ok((edits.apply(text), true))
}
