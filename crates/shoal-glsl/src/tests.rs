//! Translation of the repository's GLSL kernels, the naming rule, and each refused construct.

use super::*;

/// The repository's GLSL kernels (`wgsl/glsl/`), by file name.
const KERNELS: &[(&str, &str)] = &[
    ("shift.comp", include_str!("../../../wgsl/glsl/shift.comp")),
    (
        "prefix_sum.comp",
        include_str!("../../../wgsl/glsl/prefix_sum.comp"),
    ),
    ("grid.comp", include_str!("../../../wgsl/glsl/grid.comp")),
    (
        "invert.comp",
        include_str!("../../../wgsl/glsl/invert.comp"),
    ),
    (
        "multiply.comp",
        include_str!("../../../wgsl/glsl/multiply.comp"),
    ),
    (
        "atomics.comp",
        include_str!("../../../wgsl/glsl/atomics.comp"),
    ),
];

#[test]
fn every_kernel_translates_and_the_wgsl_parses() {
    for (name, text) in KERNELS {
        let wgsl = to_wgsl(name, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        naga::front::wgsl::parse_str(&wgsl)
            .unwrap_or_else(|e| panic!("{name}: {}\n{wgsl}", e.emit_to_string(&wgsl)));
    }
}

#[test]
fn barriers_are_workgroup_barriers_only() {
    let wgsl = to_wgsl("shift.comp", KERNELS[0].1).expect("translates");
    assert!(wgsl.contains("workgroupBarrier()"), "{wgsl}");
    for other in ["subgroupBarrier", "textureBarrier", "storageBarrier"] {
        assert!(!wgsl.contains(other), "{other} in {wgsl}");
    }
}

#[test]
fn blocks_are_named_by_instance_single_member_or_block() {
    let text = "#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Only { uint values[]; };
layout(std430, binding = 1) buffer Named { uint a[]; } inst;
layout(std430, binding = 2) buffer Params { uint count; uint data[]; };
void main() { values[0] = inst.a[0] + count + data[0]; }
";
    let wgsl = to_wgsl("names.comp", text).expect("translates");
    for var in ["values: Only", "inst: Named", "Params: Params_block"] {
        assert!(wgsl.contains(var), "{var} in {wgsl}");
    }
}

#[test]
fn constant_id_constants_are_overrides_by_name() {
    let text = "#version 450
layout(local_size_x = 64) in;
layout(constant_id = 3) const uint SCALE = 2;
layout(std430, binding = 0) buffer Only { uint values[]; };
void main() { values[gl_GlobalInvocationID.x] *= SCALE; }
";
    let wgsl = to_wgsl("spec.comp", text).expect("translates");
    assert!(wgsl.contains("override SCALE: u32 = 2u;"), "{wgsl}");
}

#[test]
fn glslang_errors_name_file_and_line() {
    let text =
        "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    undefined_thing = 1;\n}\n";
    match to_wgsl("dir/broken.comp", text) {
        Err(Error::Compile { message }) => {
            assert!(message.contains("dir/broken.comp:4:"), "{message}");
            assert!(message.contains("undefined_thing"), "{message}");
            assert!(
                message.contains("    |     undefined_thing = 1;"),
                "{message}"
            );
        }
        other => panic!("{other:?}"),
    }
}

/// `(kernel text, construct the error names, line)` for each refused construct.
const REFUSED: &[(&str, &str, usize)] = &[
    (
        "#version 450\nlayout(local_size_x_id = 0) in;\nlayout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { v[0] = 1u; }\n",
        "local_size_x_id",
        2,
    ),
    (
        "#version 450\nlayout(local_size_x = 64) in;\nlayout(constant_id = 0) const uint N = 64;\nshared uint s[N];\nlayout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { s[0] = 1u; v[0] = s[0]; }\n",
        "constant_id",
        3,
    ),
    (
        "#version 450\nlayout(local_size_x = 8) in;\nlayout(binding = 0) uniform sampler2D tex;\nlayout(binding = 1, rgba32f) uniform writeonly image2D img;\nvoid main() { imageStore(img, ivec2(0), textureLod(tex, vec2(0.5), 0.0)); }\n",
        "combined image sampler",
        3,
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
        "#version 450\n#extension GL_KHR_shader_subgroup_arithmetic : enable\nlayout(local_size_x = 64) in;\nlayout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { v[0] = subgroupAdd(v[0]); }\n",
        "subgroup operations",
        2,
    ),
    (
        "#version 450\nlayout(local_size_x = 4) in;\nlayout(std140, binding = 0) uniform U { float k[4]; } u;\nlayout(std430, binding = 1) buffer B { float v[]; };\nvoid main() { v[0] = u.k[1]; }\n",
        "std140 array",
        3,
    ),
];

#[test]
fn refused_constructs_are_typed_errors_with_their_wgsl() {
    for (text, construct_word, line) in REFUSED {
        match to_wgsl("k.comp", text) {
            Err(Error::Unsupported {
                construct,
                wgsl,
                location,
            }) => {
                assert!(construct.contains(construct_word), "{construct}");
                assert_eq!(location, format!("k.comp:{line}"), "{construct}");
                assert!(
                    UNSUPPORTED.contains(&(construct, wgsl)),
                    "{construct} is listed"
                );
            }
            other => panic!("{construct_word}: {other:?}"),
        }
    }
    assert_eq!(
        REFUSED.len(),
        UNSUPPORTED.len(),
        "every listed construct is tested"
    );
}

#[test]
fn comments_do_not_trigger_refusals() {
    let text = "#version 450\n// a sampler2D in a comment, /* atomic_uint */\nlayout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { uint v[]; };\nvoid main() { v[0] = 1u; }\n";
    to_wgsl("c.comp", text).expect("translates");
}

#[test]
fn every_barrier_function_translates_to_a_wgsl_barrier() {
    for call in [
        "barrier()",
        "memoryBarrier()",
        "memoryBarrierShared()",
        "memoryBarrierBuffer()",
        "memoryBarrierImage()",
        "groupMemoryBarrier()",
    ] {
        let text = format!(
            "#version 450\nlayout(local_size_x = 64) in;\nshared uint s[64];\nlayout(std430, binding = 0) buffer B {{ uint v[]; }};\nvoid main() {{\n    s[gl_LocalInvocationIndex] = v[gl_LocalInvocationIndex];\n    {call};\n    barrier();\n    v[gl_LocalInvocationIndex] = s[63u - gl_LocalInvocationIndex];\n}}\n"
        );
        let wgsl = to_wgsl("b.comp", &text).unwrap_or_else(|e| panic!("{call}: {e}"));
        assert!(wgsl.contains("workgroupBarrier()"), "{call}: {wgsl}");
        assert!(!wgsl.contains("subgroupBarrier"), "{call}: {wgsl}");
    }
}

#[test]
fn unqualified_images_get_the_access_their_code_uses() {
    let text = "#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, rgba32f) uniform image2D img_input;
layout(binding = 1, rgba32f) uniform image2D img_output;
layout(binding = 2, r32f) uniform image2D both;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(img_output, p, vec4(1.0) - imageLoad(img_input, p));
    imageStore(both, p, imageLoad(both, p) + vec4(1.0));
}
";
    let wgsl = to_wgsl("images.comp", text).expect("translates");
    for var in [
        "img_input: texture_storage_2d<rgba32float,read>",
        "img_output: texture_storage_2d<rgba32float,write>",
        "both: texture_storage_2d<r32float,read_write>",
    ] {
        assert!(wgsl.contains(var), "{var} in {wgsl}");
    }
}
