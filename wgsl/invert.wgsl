// Invert (the OpenGL compute-shader lesson): reads one image, writes `1 - texel` into another. The document's GLSL uses
// 32 x 32 work groups; here the size is an override planned from the device (32 x 32 where 1024
// invocations are allowed, 16 x 16 in the browser).

override WX: u32 = 16;
override WY: u32 = 16;

@group(0) @binding(0) var img_input: texture_storage_2d<rgba32float, read>;
@group(0) @binding(1) var img_output: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(WX, WY)
fn invert(@builtin(global_invocation_id) gid: vec3<u32>) {
    let p = gid.xy;
    // The document assumes sizes that are multiples of 32; any size works here.
    if any(p >= textureDimensions(img_output)) {
        return;
    }
    let texel = textureLoad(img_input, p);
    textureStore(img_output, p, vec4<f32>(1.0) - texel);
}
