// Stable LSD radix sort, work groups of up to 256 invocations ranking digits through shared
// memory (see radix_sort_common.wgsl for the passes).

#import radix_sort::common

// 4-bit digits.
const RADIX: u32 = 16u;

// Invocations per work group (a power of two, planned from the device), keys per invocation.
override WG: u32 = 256u;
override PER: u32 = 16u;
// The bits of a digit that count (radix_sort::common's `digit`).
override DIGIT_MASK: u32 = 0xffffffffu;
#import scan::document

alias T = u32;
fn combine(a: T, b: T) -> T { return a + b; }

var<workgroup> sh_digits: array<atomic<u32>, RADIX>;
// Per digit, per invocation: keys of that digit (digit-major), then their exclusive scan.
var<workgroup> sh_local: array<u32, RADIX * WG>;
var<workgroup> shared_data: array<u32, 2u * WG>;

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
            atomicAdd(&sh_digits[digit(key_in(i))], 1u);
        }
    }
    workgroupBarrier();
    // Work groups may be smaller than RADIX (8 invocations on a software adapter).
    for (var d = id; d < RADIX; d += WG) {
        counts[d * params.tiles + tile] = atomicLoad(&sh_digits[d]);
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
        mine[digit(key_in(i))] += 1u;
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
        let key = key_in(i);
        let d = digit(key);
        let at = mine[d];
        mine[d] = at + 1u;
        keys_out[at] = key_out(key);
        if with_values() {
            values_out[at] = values_in[i];
        }
    }
}
