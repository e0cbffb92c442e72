// The shift-by-one of shift.wgsl through a storage buffer instead of workgroup memory: each
// invocation writes its value to its work group's region of `scratch`, waits at storageBarrier()
// (the `memoryBarrierBuffer()` + `barrier()` of GLSL, `DeviceMemoryBarrierWithGroupSync` of
// HLSL), then reads the value its left neighbour wrote (wrapping within the work group).

override N: u32 = 256;

@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> scratch: array<u32>;
@group(0) @binding(2) var<storage, read_write> shifted: array<u32>;

@compute @workgroup_size(N)
fn shift_through_storage(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let base = wid.x * N;
    scratch[base + lid.x] = values[base + lid.x];
    storageBarrier();
    shifted[base + lid.x] = scratch[base + (lid.x + N - 1u) % N];
}
