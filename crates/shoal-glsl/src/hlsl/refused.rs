//! The HLSL constructs Shoal refuses, found in the text before glslang runs: each a typed error
//! with its line and what to write instead.

use crate::Error;
use crate::unsupported::{code_lines, find_word, unsupported};

/// Every construct [`to_wgsl`](super::to_wgsl) refuses, with what to write instead. An
/// [`Error::Unsupported`]'s `construct` starts with one of these (followed, for some, by the
/// name at fault in parentheses).
pub const REFUSED: &[(&str, &str)] = &[
    DESCRIPTOR_HEAP,
    TEXEL_BUFFER,
    RESOURCE_ARGUMENT,
    WAVE,
    COUNTER,
    GLOBALS,
    REGISTER,
    BINDING_CLASH,
];

pub(crate) const DESCRIPTOR_HEAP: (&str, &str) = (
    "a bindless `ResourceDescriptorHeap[...]` / `SamplerDescriptorHeap[...]` resource",
    "declare the resource at file scope with a register, `Texture2D gInput : register(t0);`, \
     and bind it by that name (docs/hlsl.md shows the edit)",
);
pub(crate) const TEXEL_BUFFER: (&str, &str) = (
    "a typed buffer (`Buffer<T>`, `RWBuffer<T>`): WebGPU has no texel buffers",
    "a `StructuredBuffer<T>` / `RWStructuredBuffer<T>` of the same element",
);
pub(crate) const RESOURCE_ARGUMENT: (&str, &str) = (
    "a resource (buffer, texture or sampler) passed as a function argument",
    "use the file-scope resource inside the function by its name, or pass the values it reads",
);
pub(crate) const WAVE: (&str, &str) = (
    "a wave intrinsic (`WaveActiveSum`, `WaveReadLaneAt`, `QuadReadAcross*`, …): the route \
     compiles for Vulkan 1.0, which has no subgroups",
    "a `groupshared` array and `GroupMemoryBarrierWithGroupSync()`, or a WGSL kernel with \
     `subgroupAdd` and kin",
);
pub(crate) const COUNTER: (&str, &str) = (
    "a structured buffer's hidden counter (`IncrementCounter`, `DecrementCounter`, \
     `[[vk::counter_binding]]`)",
    "an `AppendStructuredBuffer<T>` / `ConsumeStructuredBuffer<T>` (Shoal's append buffers), \
     or an `RWStructuredBuffer<uint>` counter with `InterlockedAdd`",
);
pub(crate) const GLOBALS: (&str, &str) = (
    "a file-scope variable that is neither `static` nor `groupshared` (HLSL makes it a member of \
     the implicit `$Globals` constant buffer, which has no name to bind)",
    "`static const` for a constant, or a member of a named `cbuffer` bound by that name",
);
pub(crate) const REGISTER: (&str, &str) = (
    "a register number of 200 or more",
    "a register below 200 (`register(t0)` … `register(t199)`), one binding per register",
);
pub(crate) const BINDING_CLASH: (&str, &str) = (
    "two resources on one binding number",
    "another `[[vk::binding(n)]]` number (registers take 200 and up: b at 200, t at 400, s at \
     600, u at 800)",
);

/// Refuses, before compiling, the constructs that can be seen in the text.
pub(crate) fn scan(path: &str, text: &str) -> Result<(), Error> {
    let lines = code_lines(text);
    let any = |_: &str| true;
    let template = |rest: &str| rest.trim_start().starts_with('<');
    let call = |rest: &str| rest.trim_start().starts_with('(');
    let checks: [(&[&str], &dyn Fn(&str) -> bool, (&'static str, &'static str)); 4] = [
        (
            &["ResourceDescriptorHeap", "SamplerDescriptorHeap"],
            &any,
            DESCRIPTOR_HEAP,
        ),
        (&["Buffer", "RWBuffer"], &template, TEXEL_BUFFER),
        (
            &[
                "WaveActiveSum",
                "WaveActiveProduct",
                "WaveActiveMin",
                "WaveActiveMax",
                "WaveActiveBitAnd",
                "WaveActiveBitOr",
                "WaveActiveBitXor",
                "WaveActiveCountBits",
                "WaveActiveAllTrue",
                "WaveActiveAnyTrue",
                "WaveActiveAllEqual",
                "WaveActiveBallot",
                "WaveReadLaneAt",
                "WaveReadLaneFirst",
                "WavePrefixSum",
                "WavePrefixProduct",
                "WavePrefixCountBits",
                "WaveGetLaneIndex",
                "WaveGetLaneCount",
                "WaveIsFirstLane",
                "QuadReadAcrossX",
                "QuadReadAcrossY",
                "QuadReadAcrossDiagonal",
                "QuadReadLaneAt",
            ],
            &call,
            WAVE,
        ),
        (
            &["IncrementCounter", "DecrementCounter", "counter_binding"],
            &any,
            COUNTER,
        ),
    ];
    for (words, accept, what) in checks {
        if let Some(line) = find_word(&lines, words, accept) {
            return Err(unsupported(path, Some(line), what, None));
        }
    }
    if let Some((line, name)) = resource_argument(&lines) {
        let detail = format!("`{name}`");
        return Err(unsupported(path, Some(line), RESOURCE_ARGUMENT, Some(detail)));
    }
    Ok(())
}

/// HLSL's resource types.
pub(crate) const RESOURCE_TYPES: &[&str] = &[
    "StructuredBuffer",
    "RWStructuredBuffer",
    "AppendStructuredBuffer",
    "ConsumeStructuredBuffer",
    "ByteAddressBuffer",
    "RWByteAddressBuffer",
    "Texture1D",
    "Texture2D",
    "Texture3D",
    "TextureCube",
    "Texture2DArray",
    "RWTexture1D",
    "RWTexture2D",
    "RWTexture3D",
    "RWTexture2DArray",
    "SamplerState",
    "SamplerComparisonState",
];

/// The line and parameter of the first resource type written as a function parameter: after
/// `(` or `,` (with `in`, `inout`, `out` or `uniform` between), at the top level of a
/// parenthesis that follows a function's name in a definition (`void f(Texture2D t, …)`).
fn resource_argument(lines: &[String]) -> Option<(usize, String)> {
    let text = lines.join("\n");
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    for ty in RESOURCE_TYPES {
        let mut from = 0;
        while let Some(at) = text[from..].find(ty) {
            let start = from + at;
            let end = start + ty.len();
            from = end;
            let before_ok = text[..start].chars().next_back().is_none_or(|c| !is_ident(c));
            let after_ok = text[end..].chars().next().is_none_or(|c| !is_ident(c));
            if !before_ok || !after_ok {
                continue;
            }
            let mut before = text[..start].trim_end();
            for qualifier in ["inout", "in", "out", "uniform"] {
                if let Some(rest) = before.strip_suffix(qualifier)
                    && rest.chars().next_back().is_none_or(|c| !is_ident(c))
                {
                    before = rest.trim_end();
                }
            }
            if !(before.ends_with('(') || before.ends_with(',')) {
                continue;
            }
            // A definition's parameter list: the parenthesis opened by `name(` and followed,
            // after its `)`, by `{` (or a `;` of a declaration).
            let Some(open) = enclosing_paren(&text[..start]) else {
                continue;
            };
            let head = text[..open].trim_end();
            let is_function = head.chars().next_back().is_some_and(is_ident)
                && !head.ends_with("register")
                && !head.ends_with("binding");
            if !is_function {
                continue;
            }
            let Some(close) = closing_paren(&text[open..]) else {
                continue;
            };
            let after = text[open + close + 1..].trim_start();
            if !(after.starts_with('{') || after.starts_with(';') || after.starts_with(':')) {
                continue;
            }
            let name: String = text[end..]
                .trim_start_matches(|c: char| c == '<')
                .split(|c: char| !(is_ident(c) || c == '<' || c == '>' || c.is_whitespace()))
                .next()
                .unwrap_or_default()
                .split_whitespace()
                .last()
                .unwrap_or_default()
                .trim_start_matches(|c: char| !is_ident(c))
                .to_string();
            let line = text[..start].matches('\n').count() + 1;
            return Some((line, format!("{ty} {name}")));
        }
    }
    None
}

/// The byte offset of the `(` left open at the end of `before`.
fn enclosing_paren(before: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in before.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' if depth == 0 => return Some(i),
            '(' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The offset in `from` (which starts with `(`) of the `)` closing it.
pub(crate) fn closing_paren(from: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in from.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The 1-based line of the declaration of `name` (a whole word), the first if several.
pub(crate) fn line_of(text: &str, name: &str) -> Option<usize> {
    find_word(&code_lines(text), &[name], |_| true)
}

/// A refusal at `line` with `detail`.
pub(crate) fn refuse(
    path: &str,
    line: Option<usize>,
    what: (&'static str, &'static str),
    detail: Option<String>,
) -> Error {
    unsupported(path, line, what, detail)
}
