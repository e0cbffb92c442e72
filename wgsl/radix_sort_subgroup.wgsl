// Stable LSD radix sort in work groups of one subgroup (WG = the device's fixed subgroup size),
// for adapters where a barrier costs more than the work around it (lavapipe): the passes of
// radix_sort_common.wgsl without shared memory or barriers.

#import radix_sort::common

// 4-bit digits.
const RADIX: u32 = 16u;

// Invocations per work group: the device's subgroup size. Keys per invocation.
override WG: u32 = 8u;
override PER: u32 = 32u;
// The bits of a digit that count (radix_sort::common's `digit`).
override DIGIT_MASK: u32 = 0xffffffffu;

// Each invocation keeps its 16 digit counts in four vec4 registers (digit 4k + c in component c
// of counts k), indexed by comparison rather than by a dynamic index, and the subgroup sums and
// scans them across its lanes. An invocation's keys are PER contiguous ones, ordered by
// subgroup lane: the sort stays stable.

struct Lane {
    @builtin(subgroup_invocation_id) sg_id: u32,
}

// One in the component of `d`'s digit among digits 4k .. 4k + 3, zeros elsewhere.
fn one_hot(d: u32, k: u32) -> vec4<u32> {
    return select(vec4<u32>(0u), vec4<u32>(1u), vec4<u32>(d) == vec4<u32>(4u * k) + vec4<u32>(0u, 1u, 2u, 3u));
}

struct Counts {
    c0: vec4<u32>,
    c1: vec4<u32>,
    c2: vec4<u32>,
    c3: vec4<u32>,
}

// The digit counts of this invocation's keys of tile `tile`.
fn count_own(tile: u32, sg_id: u32) -> Counts {
    let start = (tile * WG + sg_id) * PER;
    let end = min(start + PER, params.n);
    var c = Counts();
    for (var i = start; i < end; i++) {
        let d = digit(key_in(i));
        c.c0 += one_hot(d, 0u);
        c.c1 += one_hot(d, 1u);
        c.c2 += one_hot(d, 2u);
        c.c3 += one_hot(d, 3u);
    }
    return c;
}

@compute @workgroup_size(WG)
fn count_digits_subgroup(lane: Lane, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = group_index(wid, nwg);
    if tile >= params.tiles {
        return;
    }
    let c = count_own(tile, lane.sg_id);
    let t0 = subgroupAdd(c.c0);
    let t1 = subgroupAdd(c.c1);
    let t2 = subgroupAdd(c.c2);
    let t3 = subgroupAdd(c.c3);
    if lane.sg_id == 0u {
        put_counts(0u, tile, t0);
        put_counts(1u, tile, t1);
        put_counts(2u, tile, t2);
        put_counts(3u, tile, t3);
    }
}

// Stores the tile's counts of digits 4k .. 4k + 3.
fn put_counts(k: u32, tile: u32, v: vec4<u32>) {
    let t = params.tiles;
    let d = 4u * k;
    counts[d * t + tile] = v.x;
    counts[(d + 1u) * t + tile] = v.y;
    counts[(d + 2u) * t + tile] = v.z;
    counts[(d + 3u) * t + tile] = v.w;
}

// Where digits 4k .. 4k + 3 of this invocation's keys start: the digits' starts for the tile
// plus the keys of those digits in lower lanes.
fn starts(k: u32, tile: u32, before: vec4<u32>) -> vec4<u32> {
    let t = params.tiles;
    let d = 4u * k;
    return before + vec4<u32>(offsets[d * t + tile], offsets[(d + 1u) * t + tile],
                              offsets[(d + 2u) * t + tile], offsets[(d + 3u) * t + tile]);
}

@compute @workgroup_size(WG)
fn scatter_subgroup(lane: Lane, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = group_index(wid, nwg);
    if tile >= params.tiles {
        return;
    }
    let c = count_own(tile, lane.sg_id);
    var p0 = starts(0u, tile, subgroupExclusiveAdd(c.c0));
    var p1 = starts(1u, tile, subgroupExclusiveAdd(c.c1));
    var p2 = starts(2u, tile, subgroupExclusiveAdd(c.c2));
    var p3 = starts(3u, tile, subgroupExclusiveAdd(c.c3));
    let start = (tile * WG + lane.sg_id) * PER;
    let end = min(start + PER, params.n);
    for (var i = start; i < end; i++) {
        let key = key_in(i);
        let d = digit(key);
        let h0 = one_hot(d, 0u);
        let h1 = one_hot(d, 1u);
        let h2 = one_hot(d, 2u);
        let h3 = one_hot(d, 3u);
        let at = dot(p0, h0) + dot(p1, h1) + dot(p2, h2) + dot(p3, h3);
        p0 += h0;
        p1 += h1;
        p2 += h2;
        p3 += h3;
        keys_out[at] = key_out(key);
        if with_values() {
            values_out[at] = values_in[i];
        }
    }
}
