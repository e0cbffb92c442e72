//! The GLSL constructs that glslang compiles but naga's SPIR-V front end, WGSL or WebGPU cannot
//! take, found by trying each (docs/porting.md lists them): a typed error that names the
//! construct, where it is, and what to write in WGSL.

use crate::Error;

/// Every construct [`to_wgsl`](crate::to_wgsl) refuses, with its WGSL equivalent.
pub const UNSUPPORTED: &[(&str, &str)] = &[
    (LOCAL_SIZE_ID.0, LOCAL_SIZE_ID.1),
    (SPEC_ARRAY.0, SPEC_ARRAY.1),
    (COMBINED.0, COMBINED.1),
    (TEXEL_BUFFER.0, TEXEL_BUFFER.1),
    (COUNTER.0, COUNTER.1),
    (SUBGROUP.0, SUBGROUP.1),
    (STD140_ARRAY.0, STD140_ARRAY.1),
];

const LOCAL_SIZE_ID: (&str, &str) = (
    "`local_size_x_id` (a work-group size from a specialization constant)",
    "`override X: u32 = 64;` and `@workgroup_size(X)`, set with `KernelBuilder::constant`",
);
const SPEC_ARRAY: (&str, &str) = (
    "an array sized by a `constant_id` constant",
    "`var<workgroup> a: array<T, N>;` with `override N: u32`",
);
const COMBINED: (&str, &str) = (
    "a combined image sampler (`sampler2D` and kin)",
    "`texture_2d<f32>` and `sampler` bindings with `textureSampleLevel` (in GLSL: a `texture2D` \
     and a `sampler`, joined as `sampler2D(tex, smp)` where sampled)",
);
const TEXEL_BUFFER: (&str, &str) = (
    "a texel buffer (`imageBuffer`, `uimageBuffer`, `samplerBuffer`)",
    "a storage buffer, `var<storage, read_write> a: array<u32>;` (WebGPU has no texel buffers)",
);
const COUNTER: (&str, &str) = (
    "an atomic counter (`atomic_uint`)",
    "`var<storage, read_write> counter: atomic<u32>;` with `atomicAdd(&counter, 1u)`",
);
const SUBGROUP: (&str, &str) = (
    "subgroup operations (`GL_KHR_shader_subgroup_*`)",
    "`subgroupAdd`, `subgroupBroadcast`, … in a WGSL kernel (Shoal adds `enable subgroups;`)",
);
const STD140_ARRAY: (&str, &str) = (
    "a std140 array of scalars or 2-vectors in a uniform block (a stride of 16)",
    "`array<vec4<f32>, N>` in the uniform (or a storage buffer, `var<storage, read>`)",
);

/// The GLSL text with comments blanked, line by line (line numbers kept).
fn code_lines(text: &str) -> Vec<String> {
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
fn find_word(lines: &[String], words: &[&str], accept: impl Fn(&str) -> bool) -> Option<usize> {
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

fn unsupported(
    path: &str,
    line: Option<usize>,
    (construct, wgsl): (&'static str, &'static str),
) -> Error {
    Error::Unsupported {
        construct,
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
    let checks: [Check<'_>; 5] = [
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
    ];
    for (words, accept, what) in checks {
        if let Some(line) = find_word(&lines, words, accept) {
            return Err(unsupported(path, Some(line), what));
        }
    }
    Ok(())
}

/// naga's SPIR-V front end refused glslang's output: the construct, where it is known.
pub(crate) fn from_spirv(path: &str, text: &str, error: &naga::front::spv::Error) -> Error {
    if matches!(error, naga::front::spv::Error::InvalidArraySize(_)) {
        let lines = code_lines(text);
        return unsupported(
            path,
            find_word(&lines, &["constant_id"], |_| true),
            SPEC_ARRAY,
        );
    }
    Error::Translate {
        message: format!("{path}: naga's SPIR-V front end rejected glslang's output: {error:?}"),
    }
}

/// naga's validator refused the module: the construct, where it is known.
pub(crate) fn from_validation(
    path: &str,
    _text: &str,
    error: &naga::valid::ValidationError,
) -> Error {
    let mut message = format!("{path}: the translated module is invalid: {error}");
    let mut cause = std::error::Error::source(error);
    while let Some(c) = cause {
        message.push_str(&format!(": {c}"));
        cause = c.source();
    }
    Error::Translate { message }
}

/// Refuses what the module shows and WGSL cannot say: std140 scalar arrays (stride 16).
pub(crate) fn check_module(path: &str, text: &str, module: &naga::Module) -> Result<(), Error> {
    let mut layouter = naga::proc::Layouter::default();
    if layouter.update(module.to_ctx()).is_err() {
        return Ok(());
    }
    for (_, var) in module.global_variables.iter() {
        if var.space != naga::AddressSpace::Uniform {
            continue;
        }
        if narrow_array(module, &layouter, var.ty) {
            let lines = code_lines(text);
            let line = find_word(&lines, &["std140", "uniform"], |_| true);
            return Err(unsupported(path, line, STD140_ARRAY));
        }
    }
    Ok(())
}

/// Whether `ty` holds an array whose stride is larger than WGSL's for its element (std140 padding).
fn narrow_array(
    module: &naga::Module,
    layouter: &naga::proc::Layouter,
    ty: naga::Handle<naga::Type>,
) -> bool {
    match &module.types[ty].inner {
        naga::TypeInner::Array { base, stride, .. } => {
            layouter[*base].to_stride() < *stride || narrow_array(module, layouter, *base)
        }
        naga::TypeInner::Struct { members, .. } => {
            members.iter().any(|m| narrow_array(module, layouter, m.ty))
        }
        _ => false,
    }
}
