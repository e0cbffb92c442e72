//! The GLSL constructs that glslang compiles but naga's SPIR-V front end, WGSL or WebGPU cannot
//! take, found by trying each (docs/porting.md lists them): a typed error that names the
//! construct, where it is, and what to write in WGSL.

use crate::Error;

/// Every construct [`to_wgsl`](crate::to_wgsl) refuses, with its WGSL equivalent. An
/// [`Error::Unsupported`]'s `construct` starts with one of these (followed, for some, by the
/// block, member or name at fault in parentheses).
pub const UNSUPPORTED: &[(&str, &str)] = &[
    LOCAL_SIZE_ID,
    SPEC_ARRAY,
    COMBINED,
    TEXEL_BUFFER,
    COUNTER,
    SUBGROUP,
    IMAGE_ATOMIC,
    STD140_ARRAY,
    crate::layout::LAYOUT,
    crate::layout::ROW_MAJOR,
    crate::names::NAME,
];

pub(crate) const LOCAL_SIZE_ID: (&str, &str) = (
    "`local_size_x_id` (a work-group size from a specialization constant)",
    "`override X: u32 = 64;` and `@workgroup_size(X)`, set with `KernelBuilder::constant`",
);
pub(crate) const SPEC_ARRAY: (&str, &str) = (
    "an array sized by a `constant_id` constant",
    "`var<workgroup> a: array<T, N>;` with `override N: u32`",
);
pub(crate) const COMBINED: (&str, &str) = (
    "a combined image sampler (`sampler2D` and kin)",
    "`texture_2d<f32>` and `sampler` bindings with `textureSampleLevel` (in GLSL: a `texture2D` \
     and a `sampler`, joined as `sampler2D(tex, smp)` where sampled)",
);
pub(crate) const TEXEL_BUFFER: (&str, &str) = (
    "a texel buffer (`imageBuffer`, `uimageBuffer`, `samplerBuffer`)",
    "a storage buffer, `var<storage, read_write> a: array<u32>;` (WebGPU has no texel buffers)",
);
pub(crate) const COUNTER: (&str, &str) = (
    "an atomic counter (`atomic_uint`)",
    "`var<storage, read_write> counter: atomic<u32>;` with `atomicAdd(&counter, 1u)`",
);
pub(crate) const SUBGROUP: (&str, &str) = (
    "subgroup operations (`GL_KHR_shader_subgroup_*`)",
    "`subgroupAdd`, `subgroupBroadcast`, … in a WGSL kernel (Shoal adds `enable subgroups;`)",
);
pub(crate) const IMAGE_ATOMIC: (&str, &str) = (
    "an image atomic (`imageAtomicAdd` and kin)",
    "`var<storage, read_write> counts: array<atomic<u32>>;` indexed by pixel, with `atomicAdd` \
     (WebGPU has no image atomics)",
);
pub(crate) const STD140_ARRAY: (&str, &str) = (
    "a std140 array of scalars or 2-vectors, or a matrix of 2-vectors (`mat2`, `mat3x2`, \
     `mat4x2`), in a std140 block (a stride of 16)",
    "`array<vec4<f32>, N>` in the uniform (or a storage buffer, `var<storage, read>`)",
);

/// The GLSL text with comments blanked, line by line (line numbers kept).
pub(crate) fn code_lines(text: &str) -> Vec<String> {
    let mut in_block = false;
    text.lines()
        .map(|line| {
            let mut out = String::new();
            let mut rest = line;
            loop {
                if in_block {
                    match rest.find("*/") {
                        Some(end) => {
                            rest = &rest[end + 2..];
                            in_block = false;
                        }
                        None => break,
                    }
                } else {
                    let line_comment = rest.find("//");
                    let block = rest.find("/*");
                    match (line_comment, block) {
                        (Some(l), b) if b.is_none_or(|b| l < b) => {
                            out.push_str(&rest[..l]);
                            break;
                        }
                        (_, Some(b)) => {
                            out.push_str(&rest[..b]);
                            rest = &rest[b + 2..];
                            in_block = true;
                        }
                        _ => {
                            out.push_str(rest);
                            break;
                        }
                    }
                }
            }
            out
        })
        .collect()
}

/// The 1-based line of the first word in `words` for which `accept(rest after the word)` holds.
pub(crate) fn find_word(
    lines: &[String],
    words: &[&str],
    accept: impl Fn(&str) -> bool,
) -> Option<usize> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    for (index, line) in lines.iter().enumerate() {
        for word in words {
            let mut from = 0;
            while let Some(at) = line[from..].find(word) {
                let start = from + at;
                let end = start + word.len();
                let before = line[..start]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !is_ident(c));
                let after = line[end..].chars().next().is_none_or(|c| !is_ident(c));
                if before && after && accept(&line[end..]) {
                    return Some(index + 1);
                }
                from = end;
            }
        }
    }
    None
}

/// The refusal of `construct` at `path:line`; `detail` (the block, member or name at fault) is
/// added to the construct's description in parentheses.
pub(crate) fn unsupported(
    path: &str,
    line: Option<usize>,
    (construct, wgsl): (&'static str, &'static str),
    detail: Option<String>,
) -> Error {
    Error::Unsupported {
        construct: match detail {
            Some(detail) => format!("{construct} ({detail})"),
            None => construct.to_string(),
        },
        wgsl,
        location: match line {
            Some(n) => format!("{path}:{n}"),
            None => path.to_string(),
        },
    }
}

/// Words that mark a construct, which of their uses count, and the construct.
type Check<'a> = (
    &'a [&'a str],
    &'a dyn Fn(&str) -> bool,
    (&'static str, &'static str),
);

/// Refuses, before compiling, the constructs that can be seen in the text.
pub(crate) fn scan(path: &str, text: &str) -> Result<(), Error> {
    let lines = code_lines(text);
    let any = |_: &str| true;
    let checks: [Check<'_>; 6] = [
        (
            &["local_size_x_id", "local_size_y_id", "local_size_z_id"],
            &any,
            LOCAL_SIZE_ID,
        ),
        (
            &[
                "sampler1D",
                "sampler2D",
                "sampler3D",
                "samplerCube",
                "sampler1DArray",
                "sampler2DArray",
                "samplerCubeArray",
                "sampler2DShadow",
                "sampler2DMS",
                "isampler2D",
                "usampler2D",
                "isampler3D",
                "usampler3D",
                "isampler2DArray",
                "usampler2DArray",
            ],
            // `sampler2D(tex, smp)` joins separate bindings where sampled: that one is fine.
            &|rest: &str| !rest.trim_start().starts_with('('),
            COMBINED,
        ),
        (
            &[
                "imageBuffer",
                "iimageBuffer",
                "uimageBuffer",
                "samplerBuffer",
                "isamplerBuffer",
                "usamplerBuffer",
            ],
            &any,
            TEXEL_BUFFER,
        ),
        (&["atomic_uint"], &any, COUNTER),
        (
            &[
                "GL_KHR_shader_subgroup_basic",
                "GL_KHR_shader_subgroup_vote",
                "GL_KHR_shader_subgroup_arithmetic",
                "GL_KHR_shader_subgroup_ballot",
                "GL_KHR_shader_subgroup_shuffle",
                "GL_KHR_shader_subgroup_shuffle_relative",
                "GL_KHR_shader_subgroup_clustered",
                "GL_KHR_shader_subgroup_quad",
            ],
            &any,
            SUBGROUP,
        ),
        (
            &[
                "imageAtomicAdd",
                "imageAtomicMin",
                "imageAtomicMax",
                "imageAtomicAnd",
                "imageAtomicOr",
                "imageAtomicXor",
                "imageAtomicExchange",
                "imageAtomicCompSwap",
                "imageAtomicLoad",
                "imageAtomicStore",
            ],
            &any,
            IMAGE_ATOMIC,
        ),
    ];
    for (words, accept, what) in checks {
        if let Some(line) = find_word(&lines, words, accept) {
            return Err(unsupported(path, Some(line), what, None));
        }
    }
    Ok(())
}

/// naga's SPIR-V front end refused glslang's output (`spirv`): the construct, where it is known.
pub(crate) fn from_spirv(
    path: &str,
    text: &str,
    spirv: &[u8],
    error: &naga::front::spv::Error,
) -> Error {
    use naga::front::spv::Error as E;
    let lines = code_lines(text);
    match error {
        E::InvalidArraySize(_) => {
            let line =
                spec_sized_array(&lines).or_else(|| find_word(&lines, &["constant_id"], |_| true));
            unsupported(path, line, SPEC_ARRAY, None)
        }
        // A matrix whose columns are not WGSL's distance apart: a row-major one that is not
        // square (its rows are), or std140's 16 bytes between 2-vectors (a `mat2`'s columns, or
        // a row-major `mat2`'s rows). Which, from glslang's decorations; both if none says.
        E::UnsupportedMatrixStride {
            stride,
            columns,
            rows,
            width,
        } => {
            let row_major = || find_word(&lines, &["row_major"], |_| true);
            let words = [
                "mat2", "mat2x2", "mat3x2", "mat4x2", "dmat2", "dmat2x2", "dmat3x2", "dmat4x2",
            ];
            let two_rows = || find_word(&lines, &words, |_| true);
            match crate::layout::stride_is_row_major(spirv, *stride, *columns, *rows, *width) {
                Some(true) => unsupported(path, row_major(), crate::layout::ROW_MAJOR, None),
                Some(false) => unsupported(path, two_rows(), STD140_ARRAY, None),
                None => unsupported(
                    path,
                    two_rows().or_else(row_major),
                    STD140_ARRAY,
                    Some(format!(
                        "a {columns}x{rows} matrix with {stride} bytes between its columns or, \
                         row-major, its rows; a `row_major` matrix that is not square is also \
                         refused"
                    )),
                ),
            }
        }
        _ => Error::Translate {
            message: format!(
                "{path}: naga's SPIR-V front end rejected glslang's output: {error:?}"
            ),
        },
    }
}

/// The 1-based line of the first declaration of an array sized by a `constant_id` constant
/// (`shared uint s[N];`, `float w[N * 2];`).
fn spec_sized_array(lines: &[String]) -> Option<usize> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    // `layout(constant_id = 0) const uint N = 64;`: the word before the `=` after `)`.
    let mut constants = Vec::new();
    for line in lines {
        let Some(at) = line.find("constant_id") else {
            continue;
        };
        let rest = &line[at..];
        let Some(close) = rest.find(')') else {
            continue;
        };
        let declaration = rest[close + 1..].split('=').next().unwrap_or_default();
        if let Some(name) = declaration
            .split(|c: char| !is_ident(c))
            .rfind(|w| !w.is_empty())
        {
            constants.push(name.to_string());
        }
    }
    lines
        .iter()
        .position(|line| {
            line.match_indices('[').any(|(open, _)| {
                let Some(close) = line[open..].find(']') else {
                    return false;
                };
                let size = &line[open + 1..open + close];
                let uses = size
                    .split(|c: char| !is_ident(c))
                    .any(|w| constants.iter().any(|c| c == w));
                // A declaration: `[qualifiers] type name[` (words only since the statement began).
                let before = &line[..open];
                let statement = before
                    .rsplit([';', '{', '}', '(', ',', '='])
                    .next()
                    .unwrap_or(before);
                let words = statement.split_whitespace().count();
                uses && words >= 2 && statement.chars().all(|c| is_ident(c) || c.is_whitespace())
            })
        })
        .map(|index| index + 1)
}

/// naga's validator refused the module.
pub(crate) fn from_validation(path: &str, error: &naga::valid::ValidationError) -> Error {
    let mut message = format!("{path}: the translated module is invalid: {error}");
    let mut cause = std::error::Error::source(error);
    while let Some(c) = cause {
        message.push_str(&format!(": {c}"));
        cause = c.source();
    }
    Error::Translate { message }
}
