// Histogram of u32 values into BINS bins (a value v lands in bin min(v, BINS - 1)). Each work
// group counts a tile of WG x PER values with atomics on shared memory, then adds its non-zero
// bins to the global counts: one global atomic per bin and work group instead of one per value.
// Values are read four at a time (`input4`, the same buffer as vec4s: a software adapter loads a
// vec4 in about the time of one scalar); the last n % 4 through `input`.

override WG: u32 = 256u;
// A multiple of 4.
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
@group(0) @binding(3) var<storage, read> input4: array<vec4<u32>>;

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
    let n4 = params.n / 4u;
    for (var j = 0u; j < PER / 4u; j++) {
        let q = base / 4u + j * WG + id;
        if q < n4 {
            let v = min(input4[q], vec4<u32>(BINS - 1u));
            atomicAdd(&sh_bins[v.x], 1u);
            atomicAdd(&sh_bins[v.y], 1u);
            atomicAdd(&sh_bins[v.z], 1u);
            atomicAdd(&sh_bins[v.w], 1u);
        }
    }
    // The last n % 4 values, in the tile that holds them.
    let tail = n4 * 4u;
    if id == 0u && tail >= base && tail < base + WG * PER {
        for (var i = tail; i < params.n; i++) {
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

