// Records every built-in ID of every invocation (ARB_compute_shader §"Compute Shader Built-in
// Variables"), so the host can check them against the specification's formulas:
//   gl_GlobalInvocationID = gl_WorkGroupID * gl_WorkGroupSize + gl_LocalInvocationID
//   gl_LocalInvocationIndex = z * size.x * size.y + y * size.x + x
// The work-group size is (4, 7, 10) by default: 280 invocations. The host lowers Z where the
// device allows fewer invocations (WebGPU: 256).

override X: u32 = 4;
override Y: u32 = 7;
override Z: u32 = 10;

const WORDS: u32 = 16u; // one record: wid, lid, gid, nwg (3 words each), index, written flag

@group(0) @binding(0) var<storage, read_write> records: array<u32>;

@compute @workgroup_size(X, Y, Z)
fn record_ids(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(local_invocation_id) lid: vec3<u32>,
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) index: u32,
    @builtin(num_workgroups) nwg: vec3<u32>,
) {
    // Slot from the global ID, so a wrong global ID lands in a wrong slot and is caught.
    let width = nwg.x * X;
    let height = nwg.y * Y;
    let slot = (gid.z * height + gid.y) * width + gid.x;
    let base = slot * WORDS;
    records[base + 0u] = wid.x;
    records[base + 1u] = wid.y;
    records[base + 2u] = wid.z;
    records[base + 3u] = lid.x;
    records[base + 4u] = lid.y;
    records[base + 5u] = lid.z;
    records[base + 6u] = gid.x;
    records[base + 7u] = gid.y;
    records[base + 8u] = gid.z;
    records[base + 9u] = nwg.x;
    records[base + 10u] = nwg.y;
    records[base + 11u] = nwg.z;
    records[base + 12u] = index;
    records[base + 13u] = records[base + 13u] + 1u;
}
