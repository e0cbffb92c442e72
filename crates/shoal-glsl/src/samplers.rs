//! Combined image samplers split, on the GLSL text before glslang: naga's SPIR-V front end drops
//! the sampler half of a `sampler2D`, and WGSL has textures and samplers only apart.
//!
//! `layout(binding = 1) uniform sampler2D tex;` becomes a `texture2D tex` at binding 1 and, on the
//! same line, a `sampler tex_sampler` (`samplerShadow` for a `…Shadow` type) at the next binding
//! number no declaration in the text uses, in the same set. Every use of `tex` becomes
//! `sampler2D(tex, tex_sampler)`, GLSL's own joining of the two; a function parameter
//! `sampler2D s` becomes two (`texture2D s, sampler s_sampler`) and each call passing a combined
//! sampler to it passes both halves. Arrays of combined samplers are refused with their line
//! (WGSL's binding arrays are a native-only feature Shoal does not request).

use crate::Error;
use crate::lex::{Edits, Token, Walk, closing, line_of, next_binding, qualifier, tokens};
use crate::unsupported::unsupported;

pub(crate) const SHADOW_PARAMETER: (&str, &str) = (
    "a shadow sampler (`sampler2DShadow` and kin) as a function parameter",
    "the comparison (`texture(map, vec3(uv, depth))`) where the sampler is declared, in `main` or \
     a function reading the global; in WGSL `textureSampleCompareLevel` on a `texture_depth_2d` \
     and a `sampler_comparison`",
);
pub(crate) const SAMPLER_ARRAY: (&str, &str) = (
    "an array of combined image samplers (`sampler2D tex[4]`) or one declared beside another \
     (`uniform sampler2D a, b;`)",
    "one `uniform sampler2D name;` per texture, each on its own declaration (WebGPU binding \
     arrays are not available in the browser)",
);

/// The separate texture type and sampler type a combined image sampler type splits into.
fn split_type(name: &str) -> Option<(String, &'static str)> {
    let (prefix, rest) = match name.as_bytes().first() {
        Some(b'i' | b'u') => name.split_at(1),
        _ => ("", name),
    };
    let dims = rest.strip_prefix("sampler")?;
    let (dims, shadow) = match dims.strip_suffix("Shadow") {
        Some(d) => (d, true),
        None => (dims, false),
    };
    let known = [
        "1D",
        "2D",
        "3D",
        "Cube",
        "1DArray",
        "2DArray",
        "CubeArray",
        "2DMS",
        "2DMSArray",
        "2DRect",
    ];
    if !known.contains(&dims) {
        return None;
    }
    let sampler = if shadow { "samplerShadow" } else { "sampler" };
    Some((format!("{prefix}texture{dims}"), sampler))
}

/// A combined image sampler in scope: a global, or a parameter within its function's body.
struct Combined {
    name: String,
    ctor: String,
    /// The declaring token's index (its uses are the other tokens called so).
    declared: usize,
    /// Token index range where the name means this one (`0..len` for a global).
    scope: std::ops::Range<usize>,
}

/// `text` with its combined image samplers split (the text itself where it has none).
pub(crate) fn split(path: &str, text: &str) -> Result<String, Error> {
    let toks = tokens(text);
    if !toks.iter().any(|t| split_type(&t.text).is_some()) {
        return Ok(text.to_string());
    }
    let refuse = |at: usize| unsupported(path, Some(line_of(text, at)), SAMPLER_ARRAY, None);
    let mut next_binding = next_binding(&toks);
    let mut edits = Edits::default();
    let mut combined = Vec::new();
    // Functions taking a combined sampler: (name, parameter index).
    let mut takers: Vec<(String, usize)> = Vec::new();
    let mut walk = Walk::default();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        walk.step(t, i);
        let (braces, statement) = (walk.braces, walk.statement);
        if braces == 0 && t.text == "(" && i > 0 && toks[i - 1].is_ident() {
            // A function's parameter list (or a layout qualifier, which has no sampler type).
            let Some(close) = closing(&toks, i) else {
                break;
            };
            let body = (toks.get(close + 1).is_some_and(|b| b.text == "{"))
                .then(|| closing(&toks, close + 1))
                .flatten()
                .map_or(close..close, |end| close + 1..end);
            let mut index = 0;
            for p in i + 1..close {
                if toks[p].text == "," {
                    index += 1;
                }
                let Some((texture, sampler)) = split_type(&toks[p].text) else {
                    continue;
                };
                if toks.get(p + 1).is_some_and(|n| n.text == "(") {
                    continue;
                }
                if toks[p].text.ends_with("Shadow") {
                    // naga's SPIR-V front end does not carry the comparison through arguments.
                    let line = line_of(text, toks[p].at.start);
                    return Err(unsupported(path, Some(line), SHADOW_PARAMETER, None));
                }
                takers.push((toks[i - 1].text.clone(), index));
                edits.replace(toks[p].at.clone(), texture);
                match toks.get(p + 1).filter(|n| n.is_ident()) {
                    Some(name) => {
                        if toks.get(p + 2).is_some_and(|n| n.text == "[") {
                            return Err(refuse(name.at.start));
                        }
                        edits.insert(name.at.end, format!(", {sampler} {}_sampler", name.text));
                        combined.push(Combined {
                            name: name.text.clone(),
                            ctor: toks[p].text.clone(),
                            declared: p + 1,
                            scope: body.clone(),
                        });
                    }
                    None => edits.insert(toks[p].at.end, format!(", {sampler}")),
                }
            }
            i = close + 1;
            continue;
        }
        if braces == 0
            && let Some((texture, sampler)) = split_type(&t.text)
            && toks.get(i + 1).is_none_or(|n| n.text != "(")
            && toks[statement..i].iter().any(|s| s.text == "uniform")
        {
            let name = toks.get(i + 1).filter(|n| n.is_ident());
            let end = toks.get(i + 2);
            let (Some(name), Some(end)) = (name, end) else {
                return Err(refuse(t.at.start));
            };
            if end.text != ";" {
                return Err(refuse(name.at.start));
            }
            let layout = &toks[statement..i];
            let set = qualifier(layout, "set").unwrap_or(0);
            let binding = match qualifier(layout, "binding") {
                Some(_) => {
                    next_binding += 1;
                    format!(", binding = {}", next_binding - 1)
                }
                None => String::new(),
            };
            edits.replace(t.at.clone(), texture);
            edits.insert(
                end.at.end,
                format!(
                    " layout(set = {set}{binding}) uniform {sampler} {}_sampler;",
                    name.text
                ),
            );
            combined.push(Combined {
                name: name.text.clone(),
                ctor: t.text.clone(),
                declared: i + 1,
                scope: 0..toks.len(),
            });
        }
        i += 1;
    }
    for (u, t) in toks.iter().enumerate() {
        if !t.is_ident() || (u > 0 && toks[u - 1].text == ".") {
            continue;
        }
        // The innermost scope: a parameter before a global of the same name.
        let Some(c) = combined
            .iter()
            .filter(|c| c.name == t.text && c.scope.contains(&u))
            .min_by_key(|c| c.scope.len())
        else {
            continue;
        };
        if u == c.declared {
            continue;
        }
        if toks.get(u + 1).is_some_and(|n| n.text == "[") {
            return Err(refuse(t.at.start));
        }
        let whole_argument = u > 0
            && matches!(toks[u - 1].text.as_str(), "(" | ",")
            && toks
                .get(u + 1)
                .is_some_and(|n| n.text == ")" || n.text == ",");
        let passed = whole_argument
            && call_of(&toks, u).is_some_and(|(f, index)| takers.contains(&(f, index)));
        let with = if passed {
            format!("{0}, {0}_sampler", c.name)
        } else {
            format!("{}({1}, {1}_sampler)", c.ctor, c.name)
        };
        edits.replace(t.at.clone(), with);
    }
    Ok(edits.apply(text))
}

/// The function called with the argument at token `at`, and the argument's index.
fn call_of(toks: &[Token], at: usize) -> Option<(String, usize)> {
    let (mut depth, mut index) = (0usize, 0usize);
    for j in (0..at).rev() {
        match toks[j].text.as_str() {
            ")" | "]" => depth += 1,
            "(" | "[" if depth > 0 => depth -= 1,
            "(" => return toks.get(j.checked_sub(1)?).map(|f| (f.text.clone(), index)),
            "," if depth == 0 => index += 1,
            ";" | "{" | "}" => return None,
            _ => {}
        }
    }
    None
}
