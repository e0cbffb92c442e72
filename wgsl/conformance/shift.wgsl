// The shift-by-one through shared memory of the OpenGL compute-shader lesson ("Synchronization"): each
// invocation stores its value in a workgroup array, waits at the barrier, then reads the value of
// the invocation to its left (wrapping). Without workgroupBarrier() this is the document's race.
// The lesson uses 1024 invocations and `& 1023`; the size here is an override planned from the
// device, so the wrap is a modulo.

override N: u32 = 1024;

@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> shifted: array<u32>;

var<workgroup> temp_storage: array<u32, N>;

@compute @workgroup_size(N)
fn shift_left_neighbour(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let base = wid.x * N;
    temp_storage[lid.x] = values[base + lid.x];
    workgroupBarrier();
    shifted[base + lid.x] = temp_storage[(lid.x + N - 1u) % N];
}
