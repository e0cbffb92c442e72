// One step of a dependent chain: each dispatch reads what the previous one wrote. Recorded many
// times in one batch, it checks that wgpu orders dispatches on the same buffer (the
// counterpart of glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT) between dispatches).

@group(0) @binding(0) var<storage, read_write> values: array<u32>;

@compute @workgroup_size(64)
fn add_one(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x < arrayLength(&values) {
        values[gid.x] = values[gid.x] * 2u + 1u;
    }
}
