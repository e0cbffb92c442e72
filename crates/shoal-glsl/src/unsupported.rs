//! The GLSL constructs that glslang compiles but naga's SPIR-V front end, WGSL or WebGPU cannot
//! take, found by trying each (docs/porting.md lists them): a typed error that names the
//! construct, where it is, and what to write in WGSL.

use crate::Error;

/// Every construct [`to_wgsl`](crate::to_wgsl) refuses, with its WGSL equivalent. An
/// [`Error::Unsupported`]'s `construct` starts with one of these (followed, for some, by the
/// block, member or name at fault in parentheses).
pub const UNSUPPORTED: &[(&str, &str)] = &[
    SPEC_EXPRESSION,
    crate::samplers::SAMPLER_ARRAY,
    crate::samplers::SHADOW_PARAMETER,
    crate::uniforms::INITIALISED,
    crate::formats::FORMATLESS,
    crate::formats::NO_STORAGE_FORMAT,
    CAPABILITY,
    BUFFER_REFERENCE,
    RAY_QUERY,
    SMALL_INTEGERS,
    PUSH_CONSTANT_16,
    TEXEL_BUFFER,
    COUNTER,
    SUBGROUP,
    IMAGE_ATOMIC,
    STD140_ARRAY,
    crate::layout::LAYOUT,
    crate::layout::ROW_MAJOR,
    crate::names::NAME,
];

pub(crate) const BUFFER_REFERENCE: (&str, &str) = (
    "a buffer reference (`GL_EXT_buffer_reference`, buffer device address)",
    "a storage buffer binding, `var<storage, read_write> data: array<T>;`, indexed by an offset \
     (WebGPU has no pointers into buffers)",
);
pub(crate) const RAY_QUERY: (&str, &str) = (
    "a ray query (`GL_EXT_ray_query`, `rayQueryEXT`)",
    "a ray-triangle test written in the kernel over a storage buffer of triangles (WebGPU has \
     no ray queries)",
);
pub(crate) const SMALL_INTEGERS: (&str, &str) = (
    "an 8- or 16-bit integer type (`int16_t`, `uint8_t`, `u16vec2`, …)",
    "`u32`/`i32` values, packed and unpacked with shifts and masks (`extractBits`) where the data \
     holds smaller integers (WGSL has no 8- or 16-bit integers)",
);
pub(crate) const PUSH_CONSTANT_16: (&str, &str) = (
    "a 16-bit member in a push-constant block (`float16_t`, `f16vec2`, …)",
    "a 32-bit member (`float`, `vec2`); `var<immediate>` takes no 16-bit scalars",
);
pub(crate) const SPEC_EXPRESSION: (&str, &str) = (
    "an expression on `constant_id` constants that sizes an array, with an operation Shoal does \
     not evaluate at translation or a division by zero",
    "integer arithmetic (`+ - * / % << >> & | ^`, comparisons, `?:`) on constants whose values \
     are given (`Options::constant`) or whose defaults are valid; in WGSL an `override` constant",
);
pub(crate) const CAPABILITY: (&str, &str) = (
    "a construct needing a SPIR-V capability WebGPU does not have",
    "the construct's WGSL equivalent, or none: WebGPU has no such feature",
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
    "clustered or quad subgroup operations (`GL_KHR_shader_subgroup_clustered`, `_quad`)",
    "the basic, vote, arithmetic, ballot and shuffle subgroup operations, which translate; or \
     `var<workgroup>` memory and `workgroupBarrier()` for a cluster's sum",
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
    let checks: [Check<'_>; 7] = [
        (
            &[
                "GL_EXT_buffer_reference",
                "GL_EXT_buffer_reference2",
                "buffer_reference",
            ],
            &any,
            BUFFER_REFERENCE,
        ),
        (&["GL_EXT_ray_query", "rayQueryEXT"], &any, RAY_QUERY),
        (
            &[
                "int8_t", "uint8_t", "int16_t", "uint16_t", "i8vec2", "i8vec3", "i8vec4", "u8vec2",
                "u8vec3", "u8vec4", "i16vec2", "i16vec3", "i16vec4", "u16vec2", "u16vec3",
                "u16vec4",
            ],
            &any,
            SMALL_INTEGERS,
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
    push_constant_16(path, &lines)
}

/// Refuses a 16-bit float member in a push-constant block (its line).
fn push_constant_16(path: &str, lines: &[String]) -> Result<(), Error> {
    let halves = [
        "float16_t",
        "f16vec2",
        "f16vec3",
        "f16vec4",
        "f16mat2",
        "f16mat3",
        "f16mat4",
    ];
    let mut inside = false;
    for (index, line) in lines.iter().enumerate() {
        if line.contains("push_constant") {
            inside = true;
        }
        if inside {
            let one = [line.clone()];
            if find_word(&one, &halves, |_| true).is_some() {
                return Err(unsupported(path, Some(index + 1), PUSH_CONSTANT_16, None));
            }
            if line.contains('}') {
                inside = false;
            }
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
        E::UnsupportedCapability(capability) => unsupported(
            path,
            find_word(&lines, &["#extension"], |_| true)
                .or_else(|| find_word(&lines, &["extension"], |_| true)),
            CAPABILITY,
            Some(format!("SPIR-V capability {capability:?}")),
        ),
        _ => Error::Translate {
            message: format!("{path}: naga's SPIR-V front end rejected glslang's output: {error}"),
        },
    }
}

/// The refusal of an array-sizing expression on `constant_id` constants Shoal could not evaluate,
/// at the line of `name` (a constant it uses).
pub(crate) fn spec_expression(path: &str, text: &str, name: &str) -> Error {
    let lines = code_lines(text);
    let line = spec_sized_array(&lines).or_else(|| find_word(&lines, &[name], |_| true));
    let detail = (!name.is_empty()).then(|| format!("using `{name}`"));
    unsupported(path, line, SPEC_EXPRESSION, detail)
}

/// The 1-based line of the first declaration of an array sized by a `constant_id` constant
/// (`shared uint s[N];`, `float w[N * 2];`).
fn spec_sized_array(lines: &[String]) -> Option<usize> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let constants: Vec<String> = crate::sites::constants(lines)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
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
