// Stable LSD radix sort of u32 keys (optionally carrying u32 values), 4 bits per pass, 8 passes.
//
// Each pass: count_digits (a 16-bin histogram per tile, stored digit-major: counts[d * tiles + t]),
// an exclusive scan of those counts (the Scan family, recorded by radix_sort.rs) giving where
// digit d of tile t starts in the output, then scatter (each invocation owns PER contiguous keys,
// so ranks within a tile follow input order: the sort is stable).

override WG: u32 = 256u;
override PER: u32 = 16u;
const RADIX: u32 = 16u;

struct Params {
    n: u32,
    // The pass's digit: bits shift .. shift + 4.
    shift: u32,
    tiles: u32,
    // 1 when values travel with the keys.
    with_values: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> keys_in: array<u32>;
@group(0) @binding(2) var<storage, read> values_in: array<u32>;
@group(0) @binding(3) var<storage, read_write> counts: array<u32>;
@group(0) @binding(4) var<storage, read> offsets: array<u32>;
@group(0) @binding(5) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(6) var<storage, read_write> values_out: array<u32>;

var<workgroup> sh_digits: array<atomic<u32>, RADIX>;
// Per digit, per invocation: keys of that digit (digit-major), then their exclusive scan.
var<workgroup> sh_local: array<u32, RADIX * WG>;
var<workgroup> shared_data: array<u32, 2u * WG>;

fn digit(key: u32) -> u32 {
    return (key >> params.shift) & (RADIX - 1u);
}

fn group_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return (wid.z * nwg.y + wid.y) * nwg.x + wid.x;
}

@compute @workgroup_size(WG)
fn count_digits(@builtin(local_invocation_index) id: u32, @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = group_index(wid, nwg);
    if tile >= params.tiles {
        return;
    }
    // Workgroup memory starts zeroed (WGSL).
    let base = tile * WG * PER;
    for (var j = 0u; j < PER; j++) {
        let i = base + j * WG + id;
        if i < params.n {
            atomicAdd(&sh_digits[digit(keys_in[i])], 1u);
        }
    }
    workgroupBarrier();
    if id < RADIX {
        counts[id * params.tiles + tile] = atomicLoad(&sh_digits[id]);
    }
}

// The document's work-group scan (000), as in scan.wgsl.
fn scan_shared(id: u32) {
    workgroupBarrier();
    let steps = firstTrailingBit(WG) + 1u;
    for (var step = 0u; step < steps; step++) {
        let mask = (1u << step) - 1u;
        let rd_id = ((id >> step) << (step + 1u)) + mask;
        let wr_id = rd_id + 1u + (id & mask);
        shared_data[wr_id] = shared_data[rd_id] + shared_data[wr_id];
        workgroupBarrier();
    }
}

@compute @workgroup_size(WG)
fn scatter(@builtin(local_invocation_index) id: u32, @builtin(workgroup_id) wid: vec3<u32>,
           @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = group_index(wid, nwg);
    if tile >= params.tiles {
        return;
    }
    let start = tile * WG * PER + id * PER;
    let end = min(start + PER, params.n);
    var mine: array<u32, RADIX>;
    for (var i = start; i < end; i++) {
        mine[digit(keys_in[i])] += 1u;
    }
    for (var d = 0u; d < RADIX; d++) {
        sh_local[d * WG + id] = mine[d];
    }
    workgroupBarrier();
    // Exclusive scan of sh_local (RADIX x WG entries): each invocation owns RADIX consecutive
    // entries; their two half sums go through the document's scan.
    let own = id * RADIX;
    var a = 0u;
    var b = 0u;
    for (var k = 0u; k < RADIX / 2u; k++) {
        a += sh_local[own + k];
        b += sh_local[own + RADIX / 2u + k];
    }
    shared_data[2u * id] = a;
    shared_data[2u * id + 1u] = b;
    scan_shared(id);
    var run = shared_data[2u * id] - a;
    for (var k = 0u; k < RADIX; k++) {
        let c = sh_local[own + k];
        sh_local[own + k] = run;
        run += c;
    }
    workgroupBarrier();
    // Where this invocation's first key of each digit goes: the digit's start in the output for
    // this tile, plus the keys of that digit in earlier invocations of the tile.
    for (var d = 0u; d < RADIX; d++) {
        mine[d] = offsets[d * params.tiles + tile] + sh_local[d * WG + id] - sh_local[d * WG];
    }
    for (var i = start; i < end; i++) {
        let key = keys_in[i];
        let d = digit(key);
        let at = mine[d];
        mine[d] = at + 1u;
        keys_out[at] = key;
        if params.with_values != 0u {
            values_out[at] = values_in[i];
        }
    }
}
