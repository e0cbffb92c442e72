// "Hello Compute World" (ARM's OpenGL ES introduction): element-wise multiply of two vec4 arrays. The document relies on
// the dispatch matching the length; here `arrayLength` bounds it, so any length works.

@group(0) @binding(0) var<storage, read_write> output_data: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> input_data0: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> input_data1: array<vec4<f32>>;

@compute @workgroup_size(128)
fn multiply(@builtin(global_invocation_id) gid: vec3<u32>) {
    let ident = gid.x;
    if ident >= arrayLength(&output_data) {
        return;
    }
    output_data[ident] = input_data0[ident] * input_data1[ident];
}
