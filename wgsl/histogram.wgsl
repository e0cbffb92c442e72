// Histogram of u32 values into BINS bins (a value v lands in bin min(v, BINS - 1)). Each work
// group counts a tile of WG x PER values in shared memory, then adds its non-zero bins to the
// global counts: one global atomic per bin and work group instead of one per value.
// Values are read four at a time (`input4`, the same buffer as vec4s: a software adapter loads a
// vec4 in about the time of one scalar); the last n % 4 through `input`.
//
// How the work group counts is the `bins` and `total` blocks: below, one shared counter per bin,
// incremented with atomics (a GPU's shared atomics are cheap); histogram.rs swaps in one counter
// per bin and invocation, incremented without atomics, where an atomic costs a loop over the
// lanes (software adapters): in shared memory (SwiftShader, histogram_lane_bins.wgsl), or in
// each invocation's own array, which `publish` copies to shared memory before the merge
// (llvmpipe, histogram_private_bins.wgsl); the `total` of both is histogram_lane_total.wgsl.

override WG: u32 = 256u;
// A multiple of 4.
override PER: u32 = 16u;
override BINS: u32 = 256u;
// Each invocation reads its PER values as one contiguous run (software adapters, where it
// measured faster), or every WG-th vec4 of the tile (a GPU's coalesced loads).
override CONTIGUOUS: bool = false;

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

// #block bins
// Workgroup memory starts zeroed (WGSL), so no clearing pass.
var<workgroup> sh_bins: array<atomic<u32>, BINS>;

// Counts one value in `bin`, for invocation `id`.
fn count(bin: u32, id: u32) {
    atomicAdd(&sh_bins[bin], 1u);
}

// Makes invocation `id`'s counts visible to `total` (after a barrier).
fn publish(id: u32) {}
// #end bins

// #block total
// The work group's count in `bin`, after a barrier.
fn total(bin: u32) -> u32 {
    return atomicLoad(&sh_bins[bin]);
}
// #end total

// Counts the four values of vec4 `q`, for invocation `id`.
fn count4(q: u32, id: u32) {
    let v = min(input4[q], vec4<u32>(BINS - 1u));
    count(v.x, id);
    count(v.y, id);
    count(v.z, id);
    count(v.w, id);
}

@compute @workgroup_size(WG)
fn histogram(@builtin(local_invocation_index) id: u32, @builtin(workgroup_id) wid: vec3<u32>,
             @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = (wid.z * nwg.y + wid.y) * nwg.x + wid.x;
    if tile >= params.tiles {
        return;
    }
    let base = tile * WG * PER;
    let n4 = params.n / 4u;
    if CONTIGUOUS {
        // This invocation's whole vec4s, four per iteration (a software adapter pays for each
        // iteration about what it pays for a load), with no test per vec4.
        let first = base / 4u + id * (PER / 4u);
        let end = max(first, min(first + PER / 4u, n4));
        var q = first;
        for (; q + 4u <= end; q += 4u) {
            count4(q, id);
            count4(q + 1u, id);
            count4(q + 2u, id);
            count4(q + 3u, id);
        }
        for (; q < end; q++) {
            count4(q, id);
        }
    } else {
        for (var j = 0u; j < PER / 4u; j++) {
            let q = base / 4u + j * WG + id;
            if q < n4 {
                count4(q, id);
            }
        }
    }
    // The last n % 4 values, in the tile that holds them.
    let tail = n4 * 4u;
    if id == 0u && tail >= base && tail - base < WG * PER {
        for (var i = tail; i < params.n; i++) {
            count(min(input[i], BINS - 1u), id);
        }
    }
    publish(id);
    workgroupBarrier();
    for (var b = id; b < BINS; b += WG) {
        let c = total(b);
        if c != 0u {
            atomicAdd(&counts[b], c);
        }
    }
}

