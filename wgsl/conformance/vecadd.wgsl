// VecAdd (the Direct3D 12 book, §13.3.5): the sum of two structured buffers of `Data`, one thread group of 32.
// `vec3<f32>` is 16-byte aligned in WGSL, so `Data` is 32 bytes: v1 at 0, v2 at 16.

struct Data {
    v1: vec3<f32>,
    v2: vec2<f32>,
}

@group(0) @binding(0) var<storage, read> input_a: array<Data>;
@group(0) @binding(1) var<storage, read> input_b: array<Data>;
@group(0) @binding(2) var<storage, read_write> output: array<Data>;

@compute @workgroup_size(32)
fn vec_add(@builtin(global_invocation_id) dtid: vec3<u32>) {
    if dtid.x >= arrayLength(&output) {
        return;
    }
    output[dtid.x].v1 = input_a[dtid.x].v1 + input_b[dtid.x].v1;
    output[dtid.x].v2 = input_a[dtid.x].v2 + input_b[dtid.x].v2;
}
