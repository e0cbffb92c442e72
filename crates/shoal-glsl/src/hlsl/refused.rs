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
    PACKING,
    CBUFFER_ARRAY,
    ATOMIC_COMPONENT,
    IMAGE_ATOMIC,
    super::bindings::IMAGE_FORMAT,
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

pub(crate) const PACKING: (&str, &str) = (
    "a `cbuffer` (or push-constant) member HLSL packs at another offset than WGSL",
    "members in WGSL's order of alignment: a `float3` or `float4` starts a 16-byte register \
     (pad with a `float` before it), or read the block as `float4`s",
);
pub(crate) const CBUFFER_ARRAY: (&str, &str) = (
    "an array of scalars or 2-vectors in a `cbuffer` (HLSL puts each element in a 16-byte \
     register; WGSL's uniform arrays cannot have that stride)",
    "a `float4` array read as `w[i / 4][i % 4]` (the Direct3D 12 book's `gWeightVec`), or a \
     `StructuredBuffer`",
);
pub(crate) const ATOMIC_COMPONENT: (&str, &str) = (
    "an atomic on one component of a vector (`InterlockedAdd(v.x, …)`)",
    "an array, `groupshared uint g[4];`, with the atomic on its element `g[0]`",
);
pub(crate) const IMAGE_ATOMIC: (&str, &str) = (
    "an atomic on a texture (`InterlockedAdd(image[xy], …)`): WebGPU has no image atomics",
    "an `RWStructuredBuffer<uint>` indexed by pixel (`y * width + x`) with `InterlockedAdd`",
);

/// A refusal or failure of the GLSL route's steps, said for HLSL: layout refusals with HLSL's
/// words (their block, member and offsets kept), and what naga's SPIR-V front end fails on in
/// glslang's HLSL output (an atomic on a vector's component, on which it panics; an image atomic)
/// with the line of the first atomic.
pub(crate) fn in_hlsl_words(path: &str, text: &str, error: Error) -> Error {
    let lines = code_lines(text);
    let atomic_line = || {
        find_word(
            &lines,
            &[
                "InterlockedAdd",
                "InterlockedAnd",
                "InterlockedOr",
                "InterlockedXor",
                "InterlockedMin",
                "InterlockedMax",
                "InterlockedExchange",
                "InterlockedCompareExchange",
                "InterlockedCompareStore",
            ],
            |_| true,
        )
    };
    match error {
        Error::Unsupported {
            ref construct,
            ref location,
            ..
        } => {
            let what = if construct.starts_with(crate::layout::LAYOUT.0) {
                PACKING
            } else if construct.starts_with(crate::unsupported::STD140_ARRAY.0) {
                CBUFFER_ARRAY
            } else {
                return error;
            };
            // The GLSL route names the block by its struct (`C_block`): name the `cbuffer` and
            // point at the member's line.
            let detail = construct.split_once(") (").map(|(_, d)| {
                d.trim_end_matches(')')
                    .replacen("_block`", "`", 1)
                    .replacen("block `", "cbuffer `", 1)
            });
            let member = detail
                .as_deref()
                .and_then(|d| d.split_once(": `"))
                .and_then(|(_, m)| m.split('`').next())
                .map(|m| {
                    m.rsplit('.')
                        .next()
                        .unwrap_or(m)
                        .trim_end_matches("[]")
                        .to_string()
                });
            let line = location
                .rsplit_once(':')
                .and_then(|(_, n)| n.parse().ok())
                .or_else(|| member.and_then(|m| find_word(&lines, &[&m], |_| true)))
                .or_else(|| constant_buffer_array(&lines));
            unsupported(path, line, what, detail)
        }
        Error::Translate { message } if message.contains("Atomic operations on Access") => {
            unsupported(path, atomic_line(), ATOMIC_COMPONENT, None)
        }
        // Storage class 11 is `Image`: an atomic on a texel (naga's error, by its Display).
        Error::Translate { message } if message.contains("unsupported storage class %11") => {
            unsupported(path, atomic_line(), IMAGE_ATOMIC, None)
        }
        other => other,
    }
}

/// The line of the first array of scalars or 2-vectors declared in a `cbuffer`.
fn constant_buffer_array(lines: &[String]) -> Option<usize> {
    const NARROW: &[&str] = &[
        "float", "int", "uint", "bool", "half", "float2", "int2", "uint2", "half2", "float1",
        "int1", "uint1",
    ];
    let mut depth = 0usize;
    let mut in_cbuffer = false;
    for (index, line) in lines.iter().enumerate() {
        let mut rest = line.as_str();
        if depth == 0 && (rest.contains("cbuffer") || rest.contains("ConstantBuffer<")) {
            in_cbuffer = true;
        }
        if in_cbuffer {
            let body = if depth == 0 {
                rest.split_once('{').map_or("", |(_, b)| b)
            } else {
                rest
            };
            let narrow = body.split(';').any(|declaration| {
                let first = declaration.split_whitespace().next().unwrap_or_default();
                NARROW.contains(&first) && declaration.contains('[')
            });
            if narrow {
                return Some(index + 1);
            }
        }
        depth += rest.matches('{').count();
        rest = line.as_str();
        depth = depth.saturating_sub(rest.matches('}').count());
        if depth == 0 && rest.contains('}') {
            in_cbuffer = false;
        }
    }
    None
}

/// Refuses, before compiling, the constructs that can be seen in the text.
pub(crate) fn scan(path: &str, text: &str) -> Result<(), Error> {
    let lines = code_lines(text);
    let any = |_: &str| true;
    let template = |rest: &str| rest.trim_start().starts_with('<');
    let call = |rest: &str| rest.trim_start().starts_with('(');
    let checks = [
        (
            &["ResourceDescriptorHeap", "SamplerDescriptorHeap"][..],
            &any as &dyn Fn(&str) -> bool,
            DESCRIPTOR_HEAP,
        ),
        (&["Buffer", "RWBuffer"][..], &template, TEXEL_BUFFER),
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
            ][..],
            &call,
            WAVE,
        ),
        (
            &["IncrementCounter", "DecrementCounter", "counter_binding"][..],
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
        return Err(unsupported(
            path,
            Some(line),
            RESOURCE_ARGUMENT,
            Some(detail),
        ));
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
            let before_ok = text[..start]
                .chars()
                .next_back()
                .is_none_or(|c| !is_ident(c));
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
                .trim_start_matches('<')
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
