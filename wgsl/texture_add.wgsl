// Texture add (the Direct3D 12 book, §13.2): gOutput[id] = gInputA[id] + gInputB[id]. The inputs are sampled
// textures read by index (Texture2D's operator[] is textureLoad), the output a storage image
// (RWTexture2D). The book's [numthreads(16, 16, 1)] becomes an override planned from the device.

override WX: u32 = 16;
override WY: u32 = 16;

@group(0) @binding(0) var input_a: texture_2d<f32>;
@group(0) @binding(1) var input_b: texture_2d<f32>;
@group(0) @binding(2) var output: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(WX, WY)
fn texture_add(@builtin(global_invocation_id) dispatch_thread_id: vec3<u32>) {
    let p = dispatch_thread_id.xy;
    if any(p >= textureDimensions(output)) {
        return;
    }
    textureStore(output, p, textureLoad(input_a, p, 0) + textureLoad(input_b, p, 0));
}
