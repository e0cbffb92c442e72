// Stream compaction: keep the elements whose flag (or predicate) holds, in order, and leave the
// count on the GPU, together with indirect-dispatch arguments for the next kernel.
//
// Three passes: count_tiles (kept per tile of WG x PER), an exclusive scan of the tile counts
// (the Scan family, recorded by compact.rs), then scatter_tiles (each tile writes its kept
// elements from its offset; the last tile writes the count and the arguments).

// #block keep
// The default: keep where the flag is non-zero. compact.rs swaps in a user predicate over `x`.
fn keep(x: u32, i: u32) -> bool {
    return flags[i] != 0u;
}
// #end keep

#import scan::document

alias T = u32;
fn combine(a: T, b: T) -> T { return a + b; }

override WG: u32 = 256u;
override PER: u32 = 16u;

struct Params {
    // Elements in `values`.
    n: u32,
    // Tiles of WG x PER elements.
    tiles: u32,
    // Work-group size of the kernel the arguments are for (0: write none).
    args_workgroup: u32,
    // MAX_COMPUTE_WORK_GROUP_COUNT.x: arguments fold over y beyond it.
    max_groups_x: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> values: array<u32>;
@group(0) @binding(2) var<storage, read> flags: array<u32>;
@group(0) @binding(3) var<storage, read_write> tile_counts: array<u32>;
@group(0) @binding(4) var<storage, read> tile_offsets: array<u32>;
@group(0) @binding(5) var<storage, read_write> output: array<u32>;
// [count, groups.x, groups.y, groups.z]: the count, then DispatchArgs for the next kernel.
@group(0) @binding(6) var<storage, read_write> count_args: array<u32>;

var<workgroup> shared_data: array<u32, 2u * WG>;
var<workgroup> sh_kept: atomic<u32>;

fn group_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return (wid.z * nwg.y + wid.y) * nwg.x + wid.x;
}

fn kept(i: u32) -> u32 {
    if i < params.n && keep(values[i], i) {
        return 1u;
    }
    return 0u;
}

@compute @workgroup_size(WG)
fn count_tiles(@builtin(local_invocation_index) id: u32, @builtin(workgroup_id) wid: vec3<u32>,
               @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = group_index(wid, nwg);
    if tile >= params.tiles {
        return;
    }
    var c = 0u;
    for (var j = 0u; j < PER; j++) {
        c += kept(tile * WG * PER + j * WG + id);
    }
    // Workgroup memory starts zeroed (WGSL); one atomic per invocation is cheaper than a tree.
    atomicAdd(&sh_kept, c);
    workgroupBarrier();
    if id == 0u {
        tile_counts[tile] = atomicLoad(&sh_kept);
    }
}

// #block marks
// How an invocation counts its PER contiguous elements and writes the kept ones. Here, for up to
// 64 (compact.rs swaps in `ROLLED_MARKS` above): one bit per element, so the writing loop neither
// reads nor tests the elements it drops.
var<private> bits: vec2<u32>;

// Bit `j` (below 64) of `bits` set to `k` (0 or 1, the bit clear before).
fn set_bit(b: vec2<u32>, j: u32, k: u32) -> vec2<u32> {
    if j < 32u {
        return vec2(b.x | (k << j), b.y);
    }
    return vec2(b.x, b.y | (k << (j - 32u)));
}

// Bit `j` (below 64) of `bits`.
fn bit(j: u32) -> u32 {
    if j < 32u {
        return (bits.x >> j) & 1u;
    }
    return (bits.y >> (j - 32u)) & 1u;
}

// The kept elements of the invocation's first and second halves (from `start`).
fn count_own(start: u32) -> vec2<u32> {
    let half = PER / 2u;
    var a = 0u;
    var b = 0u;
    for (var j = 0u; j < half; j++) {
        let ka = kept(start + j);
        let kb = kept(start + half + j);
        a += ka;
        b += kb;
        bits = set_bit(set_bit(bits, j, ka), half + j, kb);
    }
    return vec2(a, b);
}

// The kept elements from `start` written in order from `at`.
fn write_own(start: u32, at: u32) {
    var to = at;
    for (var j = 0u; j < PER; j++) {
        if bit(j) != 0u {
            output[to] = values[start + j];
            to += 1u;
        }
    }
}
// #end marks

@compute @workgroup_size(WG)
fn scatter_tiles(@builtin(local_invocation_index) id: u32, @builtin(workgroup_id) wid: vec3<u32>,
                 @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = group_index(wid, nwg);
    if tile >= params.tiles {
        return;
    }
    // Contiguous elements per invocation keep the output in input order.
    let start = tile * WG * PER + id * PER;
    let c = count_own(start);
    write_own(start, offset_of(tile, id, c.x, c.y));
    write_count(tile, id);
}

// Where this invocation's kept elements go (`a` and `b` of them, in halves): the tile's offset
// plus those of the invocations before it, by the document's scan over the work group.
fn offset_of(tile: u32, id: u32, a: u32, b: u32) -> u32 {
    shared_data[2u * id] = a;
    shared_data[2u * id + 1u] = b;
    scan_shared(id);
    return tile_offsets[tile] + shared_data[2u * id] - a;
}

// The last invocation of the last tile writes the count and the next kernel's arguments (after
// scan_shared, so shared_data holds the tile's scanned counts).
fn write_count(tile: u32, id: u32) {
    if tile == params.tiles - 1u && id == WG - 1u {
        let total = tile_offsets[tile] + shared_data[2u * WG - 1u];
        count_args[0] = total;
        if params.args_workgroup != 0u {
            let groups = (total + params.args_workgroup - 1u) / params.args_workgroup;
            let x = min(groups, params.max_groups_x);
            count_args[1] = x;
            count_args[2] = select(1u, (groups + x - 1u) / x, x > 0u);
            count_args[3] = 1u;
        }
    }
}
