// The outside crate's own kernel: every element doubled.

@group(0) @binding(0) var<storage, read_write> values: array<u32>;

@compute @workgroup_size(64)
fn double(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x < arrayLength(&values) {
        values[gid.x] = 2u * values[gid.x];
    }
}
