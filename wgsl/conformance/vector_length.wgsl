// Exercise 1 of the Direct3D 12 book's §13.9: the lengths of 3D vectors. The input is `array<vec3<f32>>`, 16 bytes
// per element: the Rust side uses glam::Vec3, which Shoal lays out with the same padding.

@group(0) @binding(0) var<storage, read> vectors: array<vec3<f32>>;
@group(0) @binding(1) var<storage, read_write> lengths: array<f32>;

@compute @workgroup_size(64)
fn vector_length(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x >= arrayLength(&lengths) {
        return;
    }
    lengths[gid.x] = length(vectors[gid.x]);
}
