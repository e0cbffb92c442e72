// Reads a depth image back (`Image::read` of a depth32float image). GL cannot copy a depth
// texture into a buffer (wgpu's DEPTH_TEXTURE_AND_BUFFER_COPIES), so on every backend the texels
// are loaded by this kernel into a buffer, which is then read back like any other.
//
// Declared `texture_2d<f32>`, not `texture_depth_2d`: `textureLoad` of a depth texture fails on
// GL, while a depth texture bound as an unfilterable float texture loads on every backend.
@group(0) @binding(0) var depth: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> texels: array<f32>;

@compute @workgroup_size(8, 8)
fn read_depth(@builtin(global_invocation_id) id: vec3<u32>) {
    let size = textureDimensions(depth);
    if id.x < size.x && id.y < size.y {
        texels[id.y * size.x + id.x] = textureLoad(depth, id.xy, 0).x;
    }
}
