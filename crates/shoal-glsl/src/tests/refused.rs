//! Each refused construct, where its refusal points, and inputs that must be errors, not panics.

use crate::{Error, UNSUPPORTED, to_wgsl};

/// `(kernel text, a word only its construct's description has, line)`, one or more for each
/// construct in [`UNSUPPORTED`].
const REFUSED: &[(&str, &str, usize)] = &[
    (
        "#version 450\nlayout(local_size_x = 64) in;\nlayout(constant_id = 0) const uint N = 0;\nshared uint s[64 / N];\nlayout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { s[0] = 1u; v[0] = s[0]; }\n",
        "sizes an array",
        4,
    ),
    (
        "#version 450\nlayout(local_size_x = 8) in;\nlayout(binding = 0) uniform sampler2D texs[4];\nlayout(std430, binding = 1) buffer B { vec4 v[]; };\nvoid main() { v[0] = textureLod(texs[1], vec2(0.5), 0.0); }\n",
        "array of combined",
        3,
    ),
    (
        "#version 450\nlayout(local_size_x = 8) in;\nlayout(binding = 0) uniform sampler2DShadow map;\nlayout(std430, binding = 1) buffer B { float v[]; };\nfloat lit(sampler2DShadow m) { return textureLod(m, vec3(0.5), 0.0); }\nvoid main() { v[0] = lit(map); }\n",
        "shadow sampler",
        5,
    ),
    (
        "#version 450\nlayout(local_size_x = 8) in;\nuniform float k = 1.0;\nlayout(std430, binding = 1) buffer B { float v[]; };\nvoid main() { v[0] = k; }\n",
        "initialiser",
        3,
    ),
    (
        "#version 450\nlayout(local_size_x = 8) in;\nlayout(binding = 0) writeonly uniform image2D img;\nvoid main() { imageStore(img, ivec2(0), vec4(1.0)); }\n",
        "without a format",
        3,
    ),
    (
        "#version 450\nlayout(local_size_x = 8) in;\nlayout(binding = 0,\n  rg8ui) writeonly uniform uimage2D img;\nvoid main() { imageStore(img, ivec2(0), uvec4(1u)); }\n",
        "has no storage texture",
        4,
    ),
    (
        "#version 450\n#extension GL_ARB_shader_clock : enable\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { uvec2 t; };\nvoid main() { t = clock2x32ARB(); }\n",
        "SPIR-V capability",
        2,
    ),
    (
        "#version 450\n#extension GL_EXT_buffer_reference : require\nlayout(local_size_x = 1) in;\nlayout(buffer_reference) buffer P { uint v; };\nlayout(std430, binding = 0) buffer B { P p; };\nvoid main() { p.v = 1u; }\n",
        "buffer reference",
        2,
    ),
    (
        "#version 460\n#extension GL_EXT_ray_query : require\nlayout(local_size_x = 1) in;\nlayout(binding = 0) uniform accelerationStructureEXT scene;\nvoid main() { rayQueryEXT q; }\n",
        "ray query",
        2,
    ),
    (
        "#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { int16_t x = int16_t(v[0]); v[0] = uint(x); }\n",
        "8- or 16-bit integer",
        5,
    ),
    (
        "#version 450\n#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\nlayout(local_size_x = 1) in;\nlayout(push_constant) uniform P {\n    float a;\n    float16_t h;\n} p;\nlayout(std430, binding = 0) buffer B { float v[]; };\nvoid main() { v[0] = p.a + float(p.h); }\n",
        "push-constant block",
        6,
    ),
    (
        "#version 450\nlayout(local_size_x = 8) in;\nlayout(binding = 0, r32ui) uniform uimageBuffer b;\nvoid main() { imageStore(b, 0, uvec4(1u)); }\n",
        "texel buffer",
        3,
    ),
    (
        "#version 450\nlayout(local_size_x = 8) in;\nlayout(binding = 0, offset = 0) uniform atomic_uint c;\nvoid main() { atomicCounterIncrement(c); }\n",
        "atomic counter",
        3,
    ),
    (
        "#version 450\n#extension GL_KHR_shader_subgroup_clustered : enable\nlayout(local_size_x = 64) in;\nlayout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { v[0] = subgroupClusteredAdd(v[0], 4u); }\n",
        "clustered or quad",
        2,
    ),
    (
        "#version 450\nlayout(local_size_x = 8, local_size_y = 8) in;\nlayout(binding = 0, r32ui) uniform uimage2D hist;\nlayout(binding = 1, rgba32f) uniform image2D outp;\nvoid main() {\n    imageAtomicAdd(hist, ivec2(0), 1u);\n    imageStore(outp, ivec2(gl_GlobalInvocationID.xy), vec4(1.0));\n}\n",
        "image atomic",
        6,
    ),
    (
        "#version 450\nlayout(local_size_x = 4) in;\nlayout(std140, binding = 0) uniform U { float k[4]; } u;\nlayout(std430, binding = 1) buffer B { float v[]; };\nvoid main() { v[0] = u.k[1]; }\n",
        "std140 array",
        3,
    ),
    (
        "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { layout(offset = 16) uint x; uint y; };\nvoid main() { x = 1u; y = 2u; }\n",
        "member offset or array stride",
        3,
    ),
    (
        "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { layout(row_major) mat2 m; };\nvoid main() { m = mat2(1.0, 2.0, 3.0, 4.0); }\n",
        "row_major",
        3,
    ),
    (
        "#version 450\nlayout(local_size_x = 1) in;\nlayout(constant_id = 0) const uint target = 1u;\nlayout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { v[0] = target; }\n",
        "cannot spell",
        3,
    ),
];

/// The `Unsupported` error's construct, what it says to write, and where.
pub(super) fn refusal(text: &str) -> (String, &'static str, String) {
    match to_wgsl("k.comp", text) {
        Err(Error::Unsupported {
            construct,
            wgsl,
            location,
        }) => (construct.to_string(), wgsl, location),
        other => panic!("{other:?} for\n{text}"),
    }
}

#[test]
fn refused_constructs_are_typed_errors_with_their_wgsl() {
    let mut covered = Vec::new();
    for (text, word, line) in REFUSED {
        let listed: Vec<_> = UNSUPPORTED
            .iter()
            .filter(|(c, _)| c.contains(word))
            .collect();
        assert_eq!(listed.len(), 1, "`{word}` names one listed construct");
        let (construct, wgsl) = *listed[0];
        let (got, got_wgsl, location) = refusal(text);
        assert!(got.starts_with(construct), "{got} for\n{text}");
        assert_eq!(got_wgsl, wgsl, "{got}");
        assert_eq!(location, format!("k.comp:{line}"), "{got}");
        covered.push(construct);
    }
    for (construct, _) in UNSUPPORTED {
        assert!(covered.contains(construct), "untested: {construct}");
    }
}

#[test]
fn comments_do_not_trigger_refusals() {
    let text = "#version 450\n// a sampler2D in a comment, /* atomic_uint */\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { v[0] = 1u; }\n";
    to_wgsl("c.comp", text).expect("translates");
}

/// glslang's offsets and strides are in naga's module, and WGSL's writer drops them.
#[test]
fn offsets_and_strides_other_than_wgsls_are_refused() {
    for (text, detail) in [
        (
            "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { layout(offset = 16) uint x; uint y; };\nvoid main() { x = 1u; y = 2u; }\n",
            "block `B`: `x` at byte 16, WGSL's 0",
        ),
        (
            "#version 450\nlayout(local_size_x = 1) in;\nlayout(std140, binding = 0) buffer B { float v[]; };\nvoid main() { v[1] = 1.0; }\n",
            "block `B`: `v` has elements 16 bytes apart, WGSL's 4",
        ),
        (
            "#version 450\nlayout(local_size_x = 1) in;\nstruct S { float a; };\nlayout(std140, binding = 0) uniform U { S s; float b; };\nlayout(std430, binding = 1) buffer B { float c[]; };\nvoid main() { c[0] = s.a + b; }\n",
            "block `U`: `b` at byte 16, WGSL's 4",
        ),
    ] {
        let (construct, _, location) = refusal(text);
        assert!(construct.contains("member offset"), "{construct}");
        assert!(construct.contains(detail), "{construct}");
        let line = text
            .lines()
            .position(|l| l.contains("binding = 0"))
            .map(|i| i + 1);
        assert_eq!(
            location,
            format!("k.comp:{}", line.unwrap_or(0)),
            "{construct}"
        );
    }
}

/// naga's SPIR-V front end transposes a row-major matrix when it is loaded, not when it is
/// stored: `m = X; c = m;` left `transpose(X)` in `c`.
#[test]
fn row_major_matrices_are_refused_where_stored() {
    let text = "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { layout(row_major) mat2 m; mat2 c; };\nvoid main() { m = mat2(1.0, 2.0, 3.0, 4.0); c = m; }\n";
    let (construct, _, location) = refusal(text);
    assert!(construct.contains("row_major"), "{construct}");
    assert_eq!(location, "k.comp:3");
    // Not square: naga refuses the stride; the refusal is the row-major one.
    let text = "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) readonly buffer R { layout(row_major) mat3x2 m; };\nlayout(std430, binding = 1) buffer B { mat3x2 c; };\nvoid main() { c = m; }\n";
    let (construct, _, location) = refusal(text);
    assert!(construct.contains("row_major"), "{construct}");
    assert_eq!(location, "k.comp:3");
}

/// Loads are transposed, so a square row-major matrix that is only read translates.
#[test]
fn row_major_matrices_that_are_only_read_translate() {
    let text = "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) readonly buffer R { layout(row_major) mat2 m; };\nlayout(std140, binding = 1) uniform U { layout(row_major) mat4 u; };\nlayout(std430, binding = 2) buffer B { mat2 c; vec4 v; };\nvoid main() { c = m; v = u * vec4(1.0); }\n";
    let wgsl = to_wgsl("k.comp", text).expect("translates");
    assert_eq!(wgsl.matches("transpose(").count(), 2, "{wgsl}");
    super::valid_wgsl("k.comp", &wgsl);
}

/// The std140 refusal names its block's line, not the first `uniform` (an image's, here).
#[test]
fn std140_refusals_name_the_block() {
    let text = "#version 450\nlayout(local_size_x = 1) in;\nlayout(binding = 1, r32f) uniform image2D img;\nlayout(std140, binding = 0) uniform U { float k[4]; } u;\nlayout(std430, binding = 2) buffer B { float v[]; };\nvoid main() { v[0] = u.k[1] + imageLoad(img, ivec2(0)).x; }\n";
    let (construct, _, location) = refusal(text);
    assert!(construct.contains("std140"), "{construct}");
    assert_eq!(location, "k.comp:4");
    // A `mat2`'s columns 16 bytes apart: naga's front end refuses the matrix stride.
    let text = "#version 450\nlayout(local_size_x = 1) in;\nlayout(std140, binding = 0) uniform U { mat2 r; };\nlayout(std430, binding = 1) buffer B { vec2 o; };\nvoid main() { o = r[0]; }\n";
    let (construct, _, location) = refusal(text);
    assert!(construct.contains("std140"), "{construct}");
    assert_eq!(location, "k.comp:3");
}

/// glslang takes C strings: a NUL byte is an error naming where it is, not a panic.
#[test]
fn nul_bytes_are_errors() {
    let text = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n\0\n";
    match std::panic::catch_unwind(|| to_wgsl("k.comp", text)) {
        Ok(Err(Error::Compile { message })) => {
            assert!(message.starts_with("k.comp:4:"), "{message}")
        }
        Ok(other) => panic!("{other:?}"),
        Err(_) => panic!("panicked on a NUL byte in the text"),
    }
    let text = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n";
    match std::panic::catch_unwind(|| to_wgsl("k\0.comp", text)) {
        Ok(Err(Error::Compile { message })) => assert!(message.contains("NUL"), "{message}"),
        Ok(other) => panic!("{other:?}"),
        Err(_) => panic!("panicked on a NUL byte in the path"),
    }
}

/// naga's SPIR-V front end panics on a type too large for its layouter: an error instead.
#[test]
fn types_too_large_for_naga_are_errors() {
    let text = "#version 450\nlayout(local_size_x = 1) in;\nshared float s[536870912];\nlayout(std430, binding = 0) buffer B { float v[]; };\nvoid main() { s[0] = 1.0; v[0] = s[0]; }\n";
    match std::panic::catch_unwind(|| to_wgsl("k.comp", text)) {
        // The guard's error: naga panicked, and the message says so.
        Ok(Err(Error::Translate { message })) => assert!(
            message.starts_with("k.comp: ") && message.contains("panicked"),
            "{message}"
        ),
        Ok(other) => panic!("{other:?}"),
        Err(_) => panic!("panicked on a huge shared array"),
    }
}

/// naga's SPIR-V front end transposes a row-major matrix loaded by itself or indexed into, not
/// one loaded inside a whole array or struct: those are refused, naming the block and line.
#[test]
fn row_major_matrices_in_arrays_and_nested_structs_are_refused() {
    for (text, block, line) in [
        (
            "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) readonly buffer R { layout(row_major) mat2 ms[2]; };\nlayout(std430, binding = 1) buffer B { mat2 c; };\nvoid main() { mat2 t[2] = ms; c = t[1]; }\n",
            "R",
            3,
        ),
        (
            "#version 450\nlayout(local_size_x = 1) in;\nstruct S { mat2 m; };\nlayout(std430, row_major, binding = 0) readonly buffer R { S s; };\nlayout(std430, binding = 1) buffer B { mat2 c; };\nvoid main() { S t = s; c = t.m; }\n",
            "R",
            4,
        ),
        (
            "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) readonly buffer R { layout(row_major) mat2 ms[]; };\nlayout(std430, binding = 1) buffer B { mat2 c; };\nvoid main() { c = ms[1]; }\n",
            "R",
            3,
        ),
    ] {
        let (construct, _, location) = refusal(text);
        assert!(construct.contains("row_major"), "{construct}");
        assert!(construct.contains(&format!("`{block}`")), "{construct}");
        assert_eq!(location, format!("k.comp:{line}"), "{construct}");
    }
}

/// A legal square row-major `mat4` does not take the blame for a std140 `mat2` elsewhere, and
/// a row-major std140 `mat2` (square) is refused for its std140 stride.
#[test]
fn matrix_stride_refusals_name_their_cause() {
    let text = "#version 450\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) readonly buffer R { layout(row_major) mat4 m; };\nlayout(std140, binding = 1) uniform U { mat2 r; };\nlayout(std430, binding = 2) buffer B { vec4 o; };\nvoid main() { o = m[0] + vec4(r[0], 0.0, 0.0); }\n";
    let (construct, _, location) = refusal(text);
    assert!(construct.contains("std140"), "{construct}");
    assert_eq!(location, "k.comp:4");
    let text = "#version 450\nlayout(local_size_x = 1) in;\nlayout(std140, row_major, binding = 0) uniform U { mat2 m; };\nlayout(std430, binding = 1) buffer B { vec2 o; };\nvoid main() { o = m[0]; }\n";
    let (construct, _, location) = refusal(text);
    assert!(construct.contains("std140"), "{construct}");
    assert_eq!(location, "k.comp:3");
}
