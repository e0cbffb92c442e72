// Scans and reductions. The Rust side (crates/shoal-kernels/src/scan.rs) swaps the blocks marked
// `#block` for the element type, the operation and the adapter's subgroup support; as written the
// file is the u32 sum with subgroups, so `cargo xtask check-wgsl` validates it as it stands.
//
// Three building blocks, all on `shared_data`:
//   scan_shared   the document's work-group scan (000): 2 x WG elements, log2(2 x WG) steps,
//                 a barrier after each step;
//   group_reduce  one value per invocation down to one per work group (subgroup ops first where
//                 the adapter has them, then shared memory);
//   scan_tile / reduce_tile  coarsened: each invocation owns PER elements, so the barriers above
//                 are paid once per WG x PER elements, which is what a software adapter needs.

// #block op
alias T = u32;
fn identity() -> T { return 0u; }
fn combine(a: T, b: T) -> T { return a + b; }
fn subgroup_combine(x: T) -> T { return subgroupAdd(x); }
// #end op

// Invocations per work group: a power of two planned from the device's limits.
override WG: u32 = 256u;
// Elements per invocation in the coarsened kernels (even: two halves feed the document's two slots).
override PER: u32 = 16u;
// Polls of a predecessor's tile state before the waiting work group computes it itself.
override SPIN: u32 = 64u;

struct Params {
    // Elements in `input`.
    n: u32,
    // 1 for an inclusive scan, 0 for exclusive.
    inclusive: u32,
    // 1 when `carries` holds one offset per tile (the lower level of a multi-level scan).
    carry: u32,
    // Tiles of WG x PER elements (the look-back scan's work groups).
    tiles: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<T>;
@group(0) @binding(2) var<storage, read_write> output: array<T>;
@group(0) @binding(3) var<storage, read> carries: array<T>;
@group(0) @binding(4) var<storage, read_write> partials: array<T>;
// Look-back: word 0 counts tiles as work groups start; tile t owns words 1 + 4t .. 4 + 4t, its
// aggregate then its inclusive prefix, each as two 16-bit halves carrying their own ready flag.
@group(0) @binding(5) var<storage, read_write> tile_state: array<atomic<u32>>;

var<workgroup> shared_data: array<T, 2u * WG>;
var<workgroup> sh_tile: u32;
var<workgroup> sh_status: u32;
var<workgroup> sh_value: T;

// #block lane
struct Lane {
    @builtin(local_invocation_index) id: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(subgroup_invocation_id) sg_id: u32,
    @builtin(subgroup_size) sg_size: u32,
}
// #end lane

// #block group_reduce
// Subgroup operations first, then one value per subgroup through shared memory.
fn group_reduce(x: T, lane: Lane) -> T {
    let r = subgroup_combine(x);
    if lane.sg_id == 0u {
        shared_data[lane.id / lane.sg_size] = r;
    }
    workgroupBarrier();
    var total = identity();
    let subgroups = (WG + lane.sg_size - 1u) / lane.sg_size;
    for (var k = 0u; k < subgroups; k++) {
        total = combine(total, shared_data[k]);
    }
    // Nobody may overwrite shared_data before everyone has read it.
    workgroupBarrier();
    return total;
}
// #end group_reduce

// The work group's index in a grid Shoal may have folded over y and z.
fn group_index(lane: Lane) -> u32 {
    return (lane.wid.z * lane.nwg.y + lane.wid.y) * lane.nwg.x + lane.wid.x;
}

// The document's parallel prefix sum (000), generic over `combine`: each invocation has stored
// shared_data[2 id] and shared_data[2 id + 1]; afterwards shared_data holds the inclusive scan.
fn scan_shared(id: u32) {
    workgroupBarrier();
    // log2(2 x WG) steps; WG is a power of two.
    let steps = firstTrailingBit(WG) + 1u;
    for (var step = 0u; step < steps; step++) {
        let mask = (1u << step) - 1u;
        let rd_id = ((id >> step) << (step + 1u)) + mask;
        let wr_id = rd_id + 1u + (id & mask);
        shared_data[wr_id] = combine(shared_data[rd_id], shared_data[wr_id]);
        workgroupBarrier();
    }
}

fn load(i: u32) -> T {
    if i < params.n {
        return input[i];
    }
    return identity();
}

// The document's kernel as it stands: each work group scans its own 2 x WG elements.
@compute @workgroup_size(WG)
fn scan_workgroup(lane: Lane) {
    let id = lane.id;
    let base = group_index(lane) * 2u * WG;
    shared_data[id * 2u] = load(base + id * 2u);
    shared_data[id * 2u + 1u] = load(base + id * 2u + 1u);
    scan_shared(id);
    for (var k = 0u; k < 2u; k++) {
        let local = id * 2u + k;
        let i = base + local;
        if i < params.n {
            if params.inclusive != 0u {
                output[i] = shared_data[local];
            } else if local == 0u {
                output[i] = identity();
            } else {
                output[i] = shared_data[local - 1u];
            }
        }
    }
}

// The reduction of tile `tile` (WG x PER elements), in every invocation. Loads are strided by WG
// so that neighbouring invocations read neighbouring elements.
fn reduce_tile(tile: u32, lane: Lane) -> T {
    let base = tile * WG * PER;
    var acc = identity();
    for (var j = 0u; j < PER; j++) {
        let i = base + j * WG + lane.id;
        if i < params.n {
            acc = combine(acc, input[i]);
        }
    }
    return group_reduce(acc, lane);
}

// Up-sweep of the multi-level scan, and the reduction: partials[tile] = reduce(tile).
@compute @workgroup_size(WG)
fn reduce_tiles(lane: Lane) {
    let tile = group_index(lane);
    if tile > 0u && tile * WG * PER >= params.n {
        return;
    }
    let total = reduce_tile(tile, lane);
    if lane.id == 0u {
        partials[tile] = total;
    }
}

// Scans tile `tile` into `output`, starting from `carry` (everything before the tile). Each
// invocation owns PER contiguous elements: their two half sums go through the document's scan.
fn scan_tile(tile: u32, lane: Lane, carry: T) {
    let id = lane.id;
    let n = params.n;
    let start = tile * WG * PER + id * PER;
    let half = PER / 2u;
    var a = identity();
    var b = identity();
    for (var j = 0u; j < half; j++) {
        a = combine(a, load(start + j));
        b = combine(b, load(start + half + j));
    }
    shared_data[2u * id] = a;
    shared_data[2u * id + 1u] = b;
    scan_shared(id);
    var acc = carry;
    if id > 0u {
        acc = combine(carry, shared_data[2u * id - 1u]);
    }
    let end = min(start + PER, n);
    if params.inclusive != 0u {
        for (var i = start; i < end; i++) {
            acc = combine(acc, input[i]);
            output[i] = acc;
        }
    } else {
        for (var i = start; i < end; i++) {
            let x = input[i];
            output[i] = acc;
            acc = combine(acc, x);
        }
    }
    // shared_data is reused by whatever the work group does next.
    workgroupBarrier();
}

// Down-sweep of the multi-level scan: each tile starts from its carry (the exclusive scan of the
// level above), or from nothing at the top level.
@compute @workgroup_size(WG)
fn scan_tiles(lane: Lane) {
    let tile = group_index(lane);
    if tile > 0u && tile * WG * PER >= params.n {
        return;
    }
    var carry = identity();
    if params.carry != 0u {
        carry = carries[tile];
    }
    scan_tile(tile, lane, carry);
}

const READY: u32 = 0x10000u;

// A value travels as two words, each a 16-bit half with its own ready flag: WGSL atomics are
// relaxed, so a flag may only vouch for bits stored in the same word.
fn publish(word: u32, v: T) {
    let bits = bitcast<u32>(v);
    atomicStore(&tile_state[word], READY | (bits & 0xffffu));
    atomicStore(&tile_state[word + 1u], READY | (bits >> 16u));
}

// 0 when either half is missing, else 1 with the value in sh_value.
fn try_read(word: u32) -> u32 {
    let lo = atomicLoad(&tile_state[word]);
    let hi = atomicLoad(&tile_state[word + 1u]);
    if (lo & READY) == 0u || (hi & READY) == 0u {
        return 0u;
    }
    sh_value = bitcast<T>((lo & 0xffffu) | ((hi & 0xffffu) << 16u));
    return 1u;
}

fn aggregate_word(tile: u32) -> u32 { return 1u + 4u * tile; }
fn inclusive_word(tile: u32) -> u32 { return 3u + 4u * tile; }

// Single-pass scan with decoupled look-back. Tiles are numbered in the order work groups start
// (an atomic counter), so a predecessor has always started. A work group never waits without
// bound: after SPIN polls of a predecessor that has published nothing, it reduces that tile from
// the input itself and looks further back. No forward-progress guarantee is needed.
@compute @workgroup_size(WG)
fn scan_lookback(lane: Lane) {
    if lane.id == 0u {
        sh_tile = atomicAdd(&tile_state[0], 1u);
    }
    let tile = workgroupUniformLoad(&sh_tile);
    if tile >= params.tiles {
        return;
    }
    let aggregate = reduce_tile(tile, lane);
    if lane.id == 0u {
        if tile == 0u {
            publish(inclusive_word(0u), aggregate);
        } else {
            publish(aggregate_word(tile), aggregate);
        }
    }
    var prefix = identity();
    var look = tile;
    loop {
        if look == 0u {
            break;
        }
        let pred = look - 1u;
        if lane.id == 0u {
            var status = 0u;
            for (var spin = 0u; spin < SPIN; spin++) {
                if try_read(inclusive_word(pred)) != 0u {
                    status = 2u;
                    break;
                }
                if try_read(aggregate_word(pred)) != 0u {
                    status = 1u;
                    break;
                }
            }
            sh_status = status;
        }
        let status = workgroupUniformLoad(&sh_status);
        var value = identity();
        if status == 0u {
            value = reduce_tile(pred, lane);
        } else {
            value = sh_value;
        }
        prefix = combine(value, prefix);
        // Everyone has read sh_value before invocation 0 polls again.
        workgroupBarrier();
        if status == 2u {
            break;
        }
        look = pred;
    }
    if lane.id == 0u && tile > 0u {
        publish(inclusive_word(tile), combine(prefix, aggregate));
    }
    scan_tile(tile, lane, prefix);
}
