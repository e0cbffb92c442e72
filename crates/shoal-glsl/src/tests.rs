//! Translation of the repository's GLSL kernels, the naming rule, barriers, images and
//! glslang's messages; `refused` has the refused constructs and inputs that must not panic.

use super::*;

mod names;
mod refused;
mod rewrites;

/// Parses and validates `wgsl` as naga does when Shoal builds the kernel.
pub(super) fn valid_wgsl(name: &str, wgsl: &str) -> naga::Module {
    let module = naga::front::wgsl::parse_str(wgsl)
        .unwrap_or_else(|e| panic!("{name}: {}\n{wgsl}", e.emit_to_string(wgsl)));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{name}: {}\n{wgsl}", e.emit_to_string(wgsl)));
    module
}

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
    (
        "barriers.comp",
        include_str!("../../../wgsl/glsl/barriers.comp"),
    ),
];

#[test]
fn every_kernel_translates_and_the_wgsl_validates() {
    for (name, text) in KERNELS {
        let wgsl = to_wgsl(name, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        valid_wgsl(name, &wgsl);
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

/// Each GLSL barrier function alone, and the WGSL barriers it becomes (docs/porting.md).
#[test]
fn every_barrier_function_translates_to_its_wgsl_barriers() {
    const WORKGROUP: &str = "workgroupBarrier()";
    const STORAGE: &str = "storageBarrier()";
    const TEXTURE: &str = "textureBarrier()";
    for (call, expected) in [
        ("barrier()", &[WORKGROUP][..]),
        ("memoryBarrierShared()", &[WORKGROUP]),
        ("memoryBarrierBuffer()", &[STORAGE]),
        ("memoryBarrierImage()", &[TEXTURE]),
        ("memoryBarrier()", &[STORAGE, WORKGROUP, TEXTURE]),
        ("groupMemoryBarrier()", &[STORAGE, WORKGROUP, TEXTURE]),
    ] {
        let text = format!(
            "#version 450\nlayout(local_size_x = 64) in;\nshared uint s[64];\nlayout(std430, binding = 0) buffer B {{ uint v[]; }};\nvoid main() {{\n    s[gl_LocalInvocationIndex] = v[gl_LocalInvocationIndex];\n    {call};\n    v[gl_LocalInvocationIndex] = s[63u - gl_LocalInvocationIndex];\n}}\n"
        );
        let wgsl = to_wgsl("b.comp", &text).unwrap_or_else(|e| panic!("{call}: {e}"));
        for barrier in [WORKGROUP, STORAGE, TEXTURE] {
            let count = wgsl.matches(barrier).count();
            let want = usize::from(expected.contains(&barrier));
            assert_eq!(count, want, "{call}: {barrier} in {wgsl}");
        }
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
    // Neither loaded nor stored (only its size asked): read, which every format allows.
    let text = "#version 450
layout(local_size_x = 1) in;
layout(binding = 0, rgba32f) uniform image2D img;
layout(std430, binding = 1) buffer B { ivec2 size; };
void main() { size = imageSize(img); }
";
    let wgsl = to_wgsl("images.comp", text).expect("translates");
    let var = "img: texture_storage_2d<rgba32float,read>";
    assert!(wgsl.contains(var), "{var} in {wgsl}");
    valid_wgsl("images.comp", &wgsl);
}

#[test]
fn messages_of_a_path_with_colons_show_the_source_line() {
    let text =
        "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    undefined_thing = 1;\n}\n";
    for path in ["C:/kernels/broken.comp", "a:b:c.comp"] {
        match to_wgsl(path, text) {
            Err(Error::Compile { message }) => {
                assert!(message.contains(&format!("{path}:4:")), "{message}");
                assert!(
                    message.contains("    |     undefined_thing = 1;"),
                    "{message}"
                );
            }
            other => panic!("{other:?}"),
        }
    }
}

/// Under `#line` glslang's line numbers are not the text's: no source line rather than a wrong one.
#[test]
fn messages_after_a_line_directive_show_no_source_line() {
    let text = "#version 450\nlayout(local_size_x = 1) in;\n#line 1\nvoid main() {\n    undefined_thing = 1;\n}\n";
    match to_wgsl("k.comp", text) {
        Err(Error::Compile { message }) => {
            assert!(message.contains("k.comp:2:"), "{message}");
            assert!(!message.contains("    |"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}
