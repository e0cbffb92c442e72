//! The rewrites that make GLSL as Vulkan and OpenGL programs write it translate: each on a small
//! kernel, the WGSL checked for what the rewrite promises and validated as Shoal validates it.

use super::valid_wgsl;
use crate::{Error, Options, to_wgsl, translate};

fn wgsl_of(text: &str) -> String {
    let wgsl = to_wgsl("k.comp", text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    valid_wgsl("k.comp", &wgsl);
    wgsl
}

#[test]
fn combined_samplers_split_into_texture_and_name_sampler() {
    let text = "#version 450
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) uniform sampler2D albedo;
layout(set = 0, binding = 1) uniform sampler2DShadow depth;
layout(std430, binding = 2) buffer Out { vec4 o[]; };
vec4 fetch(sampler2D s, vec2 uv) { return textureLod(s, uv, 0.0); }
void main() {
    vec2 uv = vec2(gl_GlobalInvocationID.x) / 8.0;
    float lit = textureLod(depth, vec3(uv, 0.5), 0.0) + texture(depth, vec3(uv, 0.25));
    o[gl_GlobalInvocationID.x] = fetch(albedo, uv) * lit + vec4(textureSize(albedo, 0), 0, 0);
}
";
    let wgsl = wgsl_of(text);
    for binding in [
        "var albedo: texture_2d<f32>",
        "var albedo_sampler: sampler;",
        "var depth: texture_depth_2d",
        "var depth_sampler: sampler_comparison",
    ] {
        assert!(wgsl.contains(binding), "{binding} in\n{wgsl}");
    }
}

#[test]
fn loose_uniforms_are_one_block_named_uniforms() {
    let text = "#version 430
layout(local_size_x = 64) in;
uniform float dt;
layout(std430, binding = 0) buffer Pos { vec4 pos[]; };
layout(location = 2) uniform vec3 gravity;
uniform uint count;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < count) { pos[i].xyz += gravity * dt; }
}
";
    let wgsl = wgsl_of(text);
    assert!(
        wgsl.contains("var<uniform> uniforms: uniforms_block;"),
        "{wgsl}"
    );
    let members = ["dt: f32", "gravity: vec3<f32>", "count: u32"];
    let at: Vec<usize> = members
        .iter()
        .map(|m| wgsl.find(m).unwrap_or(usize::MAX))
        .collect();
    assert!(
        at.windows(2).all(|w| w[0] < w[1] && w[1] != usize::MAX),
        "{wgsl}"
    );
    // A glslang error after the rewrite names the user's line.
    let broken = text.replace(
        "pos[i].xyz += gravity * dt;",
        "pos[i].xyz += gravity * dtt;",
    );
    match to_wgsl("k.comp", &broken) {
        Err(Error::Compile { message }) => assert!(message.contains("k.comp:9:"), "{message}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn spec_constant_expressions_stay_overrides_inside_functions() {
    let text = "#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint totalCount = 256;
layout(constant_id = 1) const uint SHIFT = 1;
layout(std430, binding = 0) buffer B { uint v[]; };
uint quarter() { return totalCount / 4u; }
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < quarter() && i < (totalCount >> SHIFT)) { v[i] = v[i] + totalCount / 4u; }
}
";
    let wgsl = wgsl_of(text);
    assert!(wgsl.contains("override totalCount: u32 = 256u;"), "{wgsl}");
    assert!(wgsl.contains("override SHIFT: u32 = 1u;"), "{wgsl}");
    assert!(wgsl.contains("totalCount / 4u"), "{wgsl}");
}

#[test]
fn spec_sized_arrays_are_fixed_from_the_options_or_defaults() {
    let text = "#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const int MAX_LOD = 3;
layout(constant_id = 1) const uint SCALE = 2;
shared float lodCount[MAX_LOD + 1];
layout(std430, binding = 0) buffer B { float v[]; };
void main() { lodCount[0] = float(SCALE); v[0] = lodCount[0] + float(lodCount.length()); }
";
    let wgsl = wgsl_of(text);
    assert!(wgsl.contains("array<f32, 4>"), "{wgsl}");
    assert!(!wgsl.contains("override MAX_LOD"), "{wgsl}");
    assert!(wgsl.contains("override SCALE"), "{wgsl}");
    let options = Options::new().constant("MAX_LOD", 7);
    let t = translate("k.comp", text, &options).expect("translates");
    assert!(t.wgsl.contains("array<f32, 8>"), "{}", t.wgsl);
    assert_eq!(t.fixed, [("MAX_LOD".to_string(), 7)]);
}

#[test]
fn local_size_id_is_the_workgroup_size_from_an_override() {
    let text = "#version 450
layout(local_size_x_id = 0, local_size_y = 2) in;
layout(constant_id = 0) const uint GROUP = 32;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { v[gl_GlobalInvocationID.x] = gl_WorkGroupSize.x; }
";
    let wgsl = wgsl_of(text);
    assert!(wgsl.contains("@workgroup_size(GROUP, 2, 1)"), "{wgsl}");
    // Sizing an array, the work-group size is fixed too, from the options.
    let text = text.replace(
        "layout(std430",
        "shared uint s[gl_WorkGroupSize.x];\nlayout(std430",
    );
    let options = Options::new().constant("GROUP", 16);
    let t = translate("k.comp", &text, &options).expect("translates");
    assert!(t.wgsl.contains("@workgroup_size(16, 2, 1)"), "{}", t.wgsl);
}

#[test]
fn includes_resolve_relative_then_from_the_directories_and_map_lines() {
    let root = std::env::temp_dir().join(format!("shoal-glsl-include-{}", std::process::id()));
    let common = root.join("common");
    std::fs::create_dir_all(&common).expect("dirs");
    std::fs::write(
        root.join("local.glsl"),
        "#pragma once\nfloat twice(float x) { return 2.0 * x; }\n",
    )
    .expect("write");
    std::fs::write(
        common.join("bad.glsl"),
        "// a header\nfloat broken() { return nope; }\n",
    )
    .expect("write");
    let main = root.join("k.comp");
    let text = "#version 450
#extension GL_GOOGLE_include_directive : require
#include \"local.glsl\"
#include \"local.glsl\"
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { float v[]; };
void main() { v[0] = twice(v[0]); }
";
    let path = main.display().to_string();
    let t = translate(&path, text, &Options::new()).expect("translates");
    assert_eq!(t.included.len(), 2, "{:?}", t.included);
    valid_wgsl("k.comp", &t.wgsl);
    let with_bad = text.replace(
        "#include \"local.glsl\"\n#include",
        "#include \"bad.glsl\"\n#include",
    );
    match translate(&path, &with_bad, &Options::new()) {
        Err(Error::Compile { message }) => assert!(message.contains("no such file"), "{message}"),
        other => panic!("{other:?}"),
    }
    match translate(&path, &with_bad, &Options::new().include_dir(&common)) {
        Err(Error::Compile { message }) => {
            assert!(message.contains("bad.glsl:2:"), "{message}");
            assert!(message.contains("nope"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    // A refusal in a header names the header's line.
    std::fs::write(
        common.join("counter.glsl"),
        "// a header\nlayout(binding = 3) uniform atomic_uint hits;\n",
    )
    .expect("write");
    let with_counter = text.replace(
        "#include \"local.glsl\"\n#include",
        "#include \"counter.glsl\"\n#include",
    );
    match translate(&path, &with_counter, &Options::new().include_dir(&common)) {
        Err(Error::Unsupported {
            construct,
            location,
            ..
        }) => {
            assert!(construct.contains("atomic_uint"), "{construct}");
            assert!(location.ends_with("counter.glsl:2"), "{location}");
        }
        other => panic!("{other:?}"),
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn formatless_images_take_the_format_given_by_name() {
    let text = "#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) writeonly uniform image2D result;
void main() { imageStore(result, ivec2(gl_GlobalInvocationID.xy), vec4(1.0)); }
";
    let options = Options::new().image_format("result", "rgba8");
    let t = translate("k.comp", text, &options).expect("translates");
    assert!(
        t.wgsl.contains("texture_storage_2d<rgba8unorm,write>"),
        "{}",
        t.wgsl
    );
    let options = Options::new().image_format("result", "rg8ui");
    match translate("k.comp", text, &options) {
        Err(Error::Unsupported {
            construct,
            location,
            ..
        }) => {
            assert!(
                construct.contains("`rg8ui` given for `result`"),
                "{construct}"
            );
            assert_eq!(location, "k.comp:3");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn subgroup_operations_translate() {
    let text = "#version 450
#extension GL_KHR_shader_subgroup_arithmetic : enable
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { uint i = gl_GlobalInvocationID.x; v[i] = subgroupAdd(v[i]) + subgroupBroadcastFirst(i); }
";
    let wgsl = to_wgsl("k.comp", text).unwrap_or_else(|e| panic!("{e}"));
    assert!(wgsl.contains("subgroupAdd("), "{wgsl}");
}

#[test]
fn debug_printf_becomes_shoal_printf() {
    let text = "#version 450
#extension GL_EXT_debug_printf : enable
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { float v[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i == 1u) debugPrintfEXT(\"i = %u, v = %f, (%v2f)\", i, v[i], vec2(v[i], 1.0));
    v[i] += 1.0;
}
";
    let wgsl = to_wgsl("k.comp", text).unwrap_or_else(|e| panic!("{e}"));
    assert!(wgsl.ends_with("#import shoal::printf\n"), "{wgsl}");
    for call in ["shoal_print_u32(", "shoal_print_f32(", "shoal_print_vec2f("] {
        assert!(wgsl.contains(call), "{call} in\n{wgsl}");
        assert!(
            !wgsl.contains(&format!("fn {call}")),
            "stub {call} left in\n{wgsl}"
        );
    }
}
