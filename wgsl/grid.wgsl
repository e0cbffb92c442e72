// Grid (the OpenGL compute-shader lesson's 023_ComputeShaderGrid.glsl): 16 x 16 patches, one per work group, orange and blue.
//
// The document's comment says orange "when workgroup x is even we want workgroup y to be odd, and
// vice-versa", but its condition `((x & 1) != 1) != ((y & 1) == 1)` is orange where the parities
// are EQUAL (work group (0, 0) is orange). This is the condition, as the code has it.
// The size stays 16 x 16: the pattern is defined by work groups (256 invocations, which every
// WebGPU device allows).

// The image's format is a block, so a user can write another (examples/grid.rs: rgba8unorm).
// #block image
@group(0) @binding(0) var img_output: texture_storage_2d<rgba32float, write>;
// #end image

@compute @workgroup_size(16, 16)
fn grid(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    if any(gid.xy >= textureDimensions(img_output)) {
        return;
    }
    var pixel: vec4<f32>;
    if ((wid.x & 1u) != 1u) != ((wid.y & 1u) == 1u) {
        pixel = vec4<f32>(1.0, 0.5, 0.0, 1.0);
    } else {
        pixel = vec4<f32>(0.0, 0.5, 1.0, 1.0);
    }
    textureStore(img_output, gid.xy, pixel);
}
