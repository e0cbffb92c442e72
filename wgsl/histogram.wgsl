// Histogram of u32 values into BINS bins (a value v lands in bin min(v, BINS - 1)). Each work
// group counts a tile of WG x PER values with atomics on shared memory, then adds its non-zero
// bins to the global counts: one global atomic per bin and work group instead of one per value.

override WG: u32 = 256u;
override PER: u32 = 16u;
override BINS: u32 = 256u;

struct Params {
    n: u32,
    tiles: u32,
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read_write> counts: array<atomic<u32>>;

// Workgroup memory starts zeroed (WGSL), so no clearing pass.
var<workgroup> sh_bins: array<atomic<u32>, BINS>;

@compute @workgroup_size(WG)
fn histogram(@builtin(local_invocation_index) id: u32, @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = (wid.z * nwg.y + wid.y) * nwg.x + wid.x;
    if tile >= params.tiles {
        return;
    }
    let base = tile * WG * PER;
    for (var j = 0u; j < PER; j++) {
        let i = base + j * WG + id;
        if i < params.n {
            atomicAdd(&sh_bins[min(input[i], BINS - 1u)], 1u);
        }
    }
    workgroupBarrier();
    for (var b = id; b < BINS; b += WG) {
        let c = atomicLoad(&sh_bins[b]);
        if c != 0u {
            atomicAdd(&counts[b], c);
        }
    }
}
