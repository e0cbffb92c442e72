// Scans and reductions. The Rust side (crates/shoal-kernels/src/scan/kernels.rs) swaps the blocks
// marked `#block` for the value type (a scalar, a vector or a user's struct), the operation (a
// built-in one or a user's Operator, which is never assumed commutative) and the adapter's
// subgroup support: with the files under wgsl/scan/ where the text is fixed, with text written
// by scan/blocks.rs where it varies (the value type, the operation, the loads and stores
// unrolled for the elements per invocation). As written the file is the u32 sum with subgroups,
// 4 elements per invocation, so `cargo xtask check-wgsl` validates it as it stands.
//
// Building blocks, all on `shared_data`:
//   scan_shared   the OpenGL compute-shader lesson's work-group scan: 2 x WG elements, log2(2 x WG) steps,
//                 a barrier after each step (the `scan_workgroup` kernel, as the document has it);
//   group_scan    the coarsened kernels' work-group scan of one value per invocation, by raking
//                 (three barriers);
//   group_reduce  one value per invocation down to one per work group (subgroup ops first where
//                 the adapter has them, then shared memory);
//   scan_tile / fold_tiles  coarsened: each invocation owns PER elements (in registers for the
//                 scan, so the input is read once), so the barriers above are paid once per
//                 WG x PER elements, which is what a software adapter needs.

// #block value
alias T = u32;
// #end value
// #block op
fn identity() -> T { return 0u; }
fn combine(a: T, b: T) -> T { return a + b; }
fn subgroup_combine(x: T) -> T { return subgroupAdd(x); }
// #end op

#import scan::document

// Invocations per work group: a power of two planned from the device's limits.
override WG: u32 = 256u;
// Elements per invocation in the coarsened kernels (PER, in the `own` block below).
// Invocations per rake of `group_scan` (fewer where the work group is smaller).
const SEG: u32 = 16u;
// Polls of a predecessor's tile state before the waiting work group computes it itself.
override SPIN: u32 = 64u;
// Tiles each work group of `reduce_tiles` folds before its one work-group reduction: 1 for the
// multi-level scan's up-sweep (its levels are tiles), more for a reduction on its own, which
// pays the reduction's barriers once per SPAN tiles (reduce.rs).
override SPAN: u32 = 1u;

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
// Look-back: word 0 counts tiles as work groups start; then each tile's aggregate and inclusive
// prefix, each 32-bit word of them as two 16-bit halves carrying their own ready flag.
@group(0) @binding(5) var<storage, read_write> tile_state: array<atomic<u32>>;
// The same memory as `input` and `output`, four elements at a time: a software adapter loads and
// stores a vec4 in about the time of one scalar. Elements past the last whole vec4 are read and
// written through the scalar bindings.
// #block wide
// #block wide_input
@group(0) @binding(6) var<storage, read> input4: array<vec4<T>>;
@group(0) @binding(7) var<storage, read_write> output4: array<vec4<T>>;
// Elements 4q .. 4q + 3, all of them in the input. A family whose `io` block makes scalar
// elements defines its own `element4` there, and this region is dropped.
fn element4(q: u32) -> vec4<T> { return input4[q]; }
// #end wide_input
// The four elements from 4 x i folded.
fn fold4(i: u32) -> T {
    let v = element4(i);
    return combine(combine(v.x, v.y), combine(v.z, v.w));
}
// #end wide

// #block io
// How the coarsened kernels read element i and store result i: from `input` and to `output`.
// A family can read its elements from other bindings and store results elsewhere (the segmented
// family packs (head, value) pairs as it loads and stores only where runs end). `slot` is the
// element's place among the PER an invocation owns (a constant once the `own` block is
// unrolled), or NO_SLOT where a fold reads it: a family may keep what it loaded in a slot for
// the store of the same or the previous slot, rather than load it again. A family of scalar
// elements also defines `element4(q)`, elements 4q .. 4q + 3 (the `wide_input` region above is
// then dropped), and may use `finish`. `emit` gets the result `v` and the element `x` itself,
// and is called for an element right after `element` or `element4` loaded it (no other element
// is loaded in between), so a family may keep what it loaded for the store (compaction's values,
// reduce-by-key's keys). A family of other elements whose `element4(q)` returns `array<T, 4>`
// (the segmented family) also defines `element4_first(q)`: the rolled tiles call it before each
// loop over an invocation's whole chunks with the loop's first, and then call `element4` for
// the chunks in order, so it may carry from one chunk to the next what it would otherwise load
// (the key before the chunk).
fn element(i: u32, slot: u32) -> T { return input[i]; }
fn emit(i: u32, slot: u32, v: T, x: T) { output[i] = v; }
// Called once, after the last element's `emit`, with the combination of all n elements.
fn finish(total: T) {}
// #end io

// The slot of an element read outside `load_own` (a fold, the look-back's fallback).
const NO_SLOT: u32 = 0xffffffffu;

// Component `c` (0 to 3) of `v`, for an `io` block that keeps what `element4` loaded for `emit`:
// three selects, where `v[c]` with `c` not a constant makes SwiftShader spill the vector and load
// it back (faster compaction and reduce-by-key on SwiftShader). Prefixed: a
// user's operator is compiled into this module and may name its own helpers.
fn shoal_component(v: vec4<u32>, c: u32) -> u32 {
    return select(select(v.x, v.y, c == 1u), select(v.z, v.w, c == 3u), c >= 2u);
}

var<workgroup> shared_data: array<T, 2u * WG>;
var<workgroup> sh_tile: u32;
var<workgroup> sh_value: T;
var<workgroup> sh_total: T;
// The work group's total, left by `group_scan` in every invocation.
var<private> group_total: T;

// #block lane
struct Lane {
    @builtin(local_invocation_index) id: u32,
    @builtin(subgroup_invocation_id) sg_id: u32,
    @builtin(subgroup_size) sg_size: u32,
}
// #end lane

// #block group_reduce
// Subgroup operations first, then one value per subgroup through shared memory, summed by one
// invocation and handed to all.
fn group_reduce(x: T, lane: Lane) -> T {
    let r = subgroup_combine(x);
    if lane.sg_id == 0u {
        shared_data[lane.id / lane.sg_size] = r;
    }
    workgroupBarrier();
    if lane.id == 0u {
        var total = identity();
        let subgroups = (WG + lane.sg_size - 1u) / lane.sg_size;
        for (var k = 0u; k < subgroups; k++) {
            total = combine(total, shared_data[k]);
        }
        sh_total = total;
    }
    // The barrier inside also keeps shared_data from being overwritten before it has been read.
    return workgroupUniformLoad(&sh_total);
}
// #end group_reduce

// #block group
// How a work group of several subgroups shares values: through shared memory, with barriers.
// (A work group of exactly one subgroup does it with subgroup operations instead:
// wgsl/scan/group_one_subgroup.wgsl.)

// This invocation's place in the work group's order of elements.
fn rank(lane: Lane) -> u32 { return lane.id; }
// The exclusive scan of `x` over the work group in `rank` order; the total in group_total.
fn group_scan(x: T, lane: Lane) -> T { return rake_scan(x, lane.id); }
// The value invocation 0 holds, in every invocation.
fn first_u32(x: u32, lane: Lane) -> u32 {
    if lane.id == 0u { sh_tile = x; }
    return workgroupUniformLoad(&sh_tile);
}
fn first_t(x: T, lane: Lane) -> T {
    if lane.id == 0u { sh_value = x; }
    return workgroupUniformLoad(&sh_value);
}
// Orders shared-memory reads before later writes.
fn group_sync() { workgroupBarrier(); }
// #end group

// The work group's index in a grid Shoal may have folded over y and z.
fn group_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return (wid.z * nwg.y + wid.y) * nwg.x + wid.x;
}

fn load(i: u32) -> T {
    if i < params.n {
        return input[i];
    }
    return identity();
}

// The document's kernel as it stands: each work group scans its own 2 x WG elements.
@compute @workgroup_size(WG)
fn scan_workgroup(lane: Lane, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let id = lane.id;
    let base = group_index(wid, nwg) * 2u * WG;
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

// #block fold
// A commutative operation (the built-in ones) folds a tile in any order: each invocation folds
// elements strided by WG, so neighbouring invocations read neighbouring elements (vec4s when PER
// allows), then the work group reduces (subgroup operations where the adapter has them).

// This invocation's share of tile `tile` (WG x PER elements) folded into one value.
fn fold_tile(tile: u32, lane: Lane) -> T {
    let base = tile * WG * PER;
    var acc = identity();
    if PER % 4u == 0u {
        let n4 = params.n / 4u;
        // This invocation's whole vec4s: first, first + WG, ... below n4, `count` of them, four
        // per loop iteration and with no test each (a software adapter pays for every iteration
        // and every branch).
        let first = base / 4u + lane.id;
        let count = min(PER / 4u, (max(n4, first) - first + WG - 1u) / WG);
        var j = 0u;
        for (; j + 4u <= count; j += 4u) {
            acc = combine(acc, fold4(first + j * WG));
            acc = combine(acc, fold4(first + (j + 1u) * WG));
            acc = combine(acc, fold4(first + (j + 2u) * WG));
            acc = combine(acc, fold4(first + (j + 3u) * WG));
        }
        for (; j < count; j++) {
            acc = combine(acc, fold4(first + j * WG));
        }
        // The last n % 4 elements, when they fall in this tile.
        let tail = n4 * 4u;
        if lane.id == 0u && tail >= base && tail < base + WG * PER {
            for (var i = tail; i < params.n; i++) {
                acc = combine(acc, element(i, NO_SLOT));
            }
        }
    } else {
        for (var j = 0u; j < PER; j++) {
            let i = base + j * WG + lane.id;
            if i < params.n {
                acc = combine(acc, element(i, NO_SLOT));
            }
        }
    }
    return acc;
}

// Tiles first .. last reduced, in every invocation.
fn fold_tiles(first: u32, last: u32, lane: Lane) -> T {
    var acc = identity();
    for (var t = first; t < last; t++) {
        acc = combine(acc, fold_tile(t, lane));
    }
    return group_reduce(acc, lane);
}
// #end fold

// Up-sweep of the multi-level scan, and the reduction: partials[g] = reduce(tiles g x SPAN ..).
@compute @workgroup_size(WG)
fn reduce_tiles(lane: Lane, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let group = group_index(wid, nwg);
    if group > 0u && group * SPAN * WG * PER >= params.n {
        return;
    }
    // Up to the last tile holding elements: a bound the compiler cannot unroll, which keeps
    // llvmpipe's compile time that of one tile.
    let first = group * SPAN;
    let last = min(first + SPAN, max((params.n + WG * PER - 1u) / (WG * PER), 1u));
    let total = fold_tiles(first, last, lane);
    if lane.id == 0u {
        partials[group] = total;
    }
}

// The exclusive scan of one value per invocation across the work group, by raking: every
// invocation stores its value, WG / SEG invocations scan a segment of SEG values each, one
// invocation scans the segment totals, and each invocation adds its segment's offset. Three
// barriers and about 5 x WG shared-memory accesses, where the document's tree needs
// log2(2 x WG) barriers and 3 x WG accesses per step. The work group's total is left in sh_total.
// The caller must pass a barrier before it writes shared_data again.
fn rake_scan(x: T, id: u32) -> T {
    let seg = min(SEG, WG);
    let rakes = WG / seg;
    shared_data[id] = x;
    workgroupBarrier();
    if id < rakes {
        var acc = identity();
        for (var k = id * seg; k < id * seg + seg; k++) {
            let v = shared_data[k];
            shared_data[k] = acc;
            acc = combine(acc, v);
        }
        shared_data[WG + id] = acc;
    }
    workgroupBarrier();
    if id == 0u {
        var acc = identity();
        for (var r = 0u; r < rakes; r++) {
            let v = shared_data[WG + r];
            shared_data[WG + r] = acc;
            acc = combine(acc, v);
        }
        sh_total = acc;
    }
    workgroupBarrier();
    group_total = sh_total;
    return combine(shared_data[WG + id / seg], shared_data[id]);
}

// The coarsened kernels' own elements: each invocation loads PER contiguous elements, scans them
// (`load_own`), and stores them offset by everything before them (`store_own`). The blocks below
// are the Rust side's (scan/blocks.rs): as written they are the u32 scan of 4 elements per
// invocation, unrolled. Up to 64 elements per invocation the loops are unrolled, so that every
// index into `own` is a constant and the array lives in registers (a software adapter's compiler
// turns a dynamically indexed array into per-lane memory accesses); above it they loop, `own`
// and the vec4 helpers go, and `store_own` loads the elements again (see `rolled_loads`).

// #block pick
// `select` for a struct, which WGSL's `select` does not take (kept for struct values only).
fn pick(f: T, t: T, c: bool) -> T { if c { return t; } return f; }
// #end pick
// #block per
// Elements per invocation: a constant, as private arrays need one (`per_block`).
const PER: u32 = 4u;
// #end per
// #block own_array
// This invocation's PER elements, scanned in place by `load_own` (the unrolled form only).
var<private> own: array<T, PER>;
// #end own_array

// The first element of this invocation's PER contiguous ones in tile `tile`.
fn own_start(tile: u32, id: u32) -> u32 { return (tile * WG + id) * PER; }

// #block chunk
// Vec4 `q` of the input (through `element4`, which an `io` block may define), `tail` where the
// end cuts it and the identity past it: the unrolled form's loads of scalars when PER is a
// multiple of 4, one path with no branch for a chunk cut by the end of the input (SwiftShader
// runs every instruction of a kernel whether its lanes take a branch or not).
fn chunk(q: u32, n4: u32, tail: vec4<T>) -> vec4<T> {
    let whole = element4(min(q, max(n4, 1u) - 1u));
    return select(select(whole, tail, q == n4), vec4<T>(identity()), q > n4);
}
// #end chunk

// Loads this invocation's PER contiguous elements of tile `tile` (the identity past the end),
// each read once, and leaves their inclusive scan in `own`; returns their total.
fn load_own(tile: u32, id: u32) -> T {
    let start = own_start(tile, id);
    var acc = identity();
    // #block wide_prelude
    // For `chunk`: the input's last n % 4 elements as one vec4 padded with the identity.
    let n4 = params.n / 4u;
    var tail = vec4<T>(identity());
    if params.n % 4u > 0u { tail.x = element(n4 * 4u, NO_SLOT); }
    if params.n % 4u > 1u { tail.y = element(n4 * 4u + 1u, NO_SLOT); }
    if params.n % 4u > 2u { tail.z = element(n4 * 4u + 2u, NO_SLOT); }
    // #end wide_prelude
    // #block load_own
    // The loads, written by the Rust side for PER (`unrolled_loads`, `rolled_loads`).
    let v0 = chunk(start / 4u + 0u, n4, tail);
    acc = combine(acc, v0.x); own[0] = acc;
    acc = combine(acc, v0.y); own[1] = acc;
    acc = combine(acc, v0.z); own[2] = acc;
    acc = combine(acc, v0.w); own[3] = acc;
    // #end load_own
    return acc;
}

// Stores this invocation's elements of tile `tile`, each offset by `prefix` (everything before
// them), inclusive or exclusive as `params` says; the invocation holding the last element ends
// with the `io` block's `finish`.
fn store_own(tile: u32, id: u32, prefix: T) {
    let start = own_start(tile, id);
    let inclusive = params.inclusive != 0u;
    // #block store_own
    // The stores, written by the Rust side for PER (`unrolled_stores`, `rolled_stores`).
    if start + 0u < params.n { emit(start + 0u, 0u, select(prefix, combine(prefix, own[0]), inclusive), element(start + 0u, 0u)); }
    if start + 1u < params.n { emit(start + 1u, 1u, select(combine(prefix, own[0]), combine(prefix, own[1]), inclusive), element(start + 1u, 1u)); }
    if start + 2u < params.n { emit(start + 2u, 2u, select(combine(prefix, own[1]), combine(prefix, own[2]), inclusive), element(start + 2u, 2u)); }
    if start + 3u < params.n { emit(start + 3u, 3u, select(combine(prefix, own[2]), combine(prefix, own[3]), inclusive), element(start + 3u, 3u)); }
    if start < params.n && params.n - start <= PER { finish(combine(prefix, own[PER - 1u])); }
    // #end store_own
}

// Scans tile `tile` into `output`, starting from `carry` (everything before the tile): the input
// is read once, into registers.
fn scan_tile(tile: u32, lane: Lane, carry: T) {
    let total = load_own(tile, rank(lane));
    let before = group_scan(total, lane);
    store_own(tile, rank(lane), combine(carry, before));
}

// Down-sweep of the multi-level scan: each tile starts from its carry (the exclusive scan of the
// level above), or from nothing at the top level.
@compute @workgroup_size(WG)
fn scan_tiles(lane: Lane, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = group_index(wid, nwg);
    if tile > 0u && tile * WG * PER >= params.n {
        return;
    }
    var carry = identity();
    if params.carry != 0u {
        carry = carries[tile];
    }
    scan_tile(tile, lane, carry);
}

// #block words
// The 32-bit words a value travels in through the look-back's atomics (a vector's components:
// the Rust side writes this block for a vector, `vector_words_block`).
const WORDS: u32 = 1u;
fn word_of(v: T, c: u32) -> u32 { return bitcast<u32>(v); }
fn from_words(w: array<u32, 4>) -> T { return bitcast<T>(w[0]); }
// #end words

// #block lookback
const READY: u32 = 0x10000u;

// Each word of a value travels as two atomic words, each a 16-bit half with its own ready flag:
// WGSL atomics are relaxed, so a flag may only vouch for bits stored in the same word.
fn publish(word: u32, v: T) {
    for (var c = 0u; c < WORDS; c++) {
        let bits = word_of(v, c);
        atomicStore(&tile_state[word + 2u * c], READY | (bits & 0xffffu));
        atomicStore(&tile_state[word + 2u * c + 1u], READY | (bits >> 16u));
    }
}

var<private> polled: T;

// 0 when any half is missing, else 1 with the value in `polled`.
fn try_read(word: u32) -> u32 {
    var w: array<u32, 4>;
    for (var c = 0u; c < WORDS; c++) {
        let lo = atomicLoad(&tile_state[word + 2u * c]);
        let hi = atomicLoad(&tile_state[word + 2u * c + 1u]);
        if (lo & READY) == 0u || (hi & READY) == 0u {
            return 0u;
        }
        w[c] = (lo & 0xffffu) | ((hi & 0xffffu) << 16u);
    }
    polled = from_words(w);
    return 1u;
}

// Tile t owns 4 x WORDS atomic words after the counter: its aggregate, then its inclusive prefix.
fn aggregate_word(tile: u32) -> u32 { return 1u + 4u * WORDS * tile; }
fn inclusive_word(tile: u32) -> u32 { return aggregate_word(tile) + 2u * WORDS; }

// Single-pass scan with decoupled look-back. Tiles are numbered in the order work groups start
// (an atomic counter), so a predecessor has always started. A work group never waits without
// bound: after SPIN polls of a predecessor that has published nothing, it reduces that tile from
// the input itself and looks further back. No forward-progress guarantee is needed.
@compute @workgroup_size(WG)
fn scan_lookback(lane: Lane) {
    let leader = rank(lane) == 0u;
    var ticket = 0u;
    if leader {
        ticket = atomicAdd(&tile_state[0], 1u);
    }
    let tile = first_u32(ticket, lane);
    if tile >= params.tiles {
        return;
    }
    // The tile is read once, into registers; its total comes out of the work-group scan.
    let before = group_scan(load_own(tile, rank(lane)), lane);
    let aggregate = group_total;
    if leader {
        if tile == 0u {
            publish(inclusive_word(0u), aggregate);
        } else {
            publish(aggregate_word(tile), aggregate);
        }
    }
    // Nobody may overwrite shared_data (a fallback reduction below) before all have read it.
    group_sync();
    var prefix = identity();
    var look = tile;
    loop {
        if look == 0u {
            break;
        }
        let pred = look - 1u;
        var found = 0u;
        if leader {
            for (var spin = 0u; spin < SPIN; spin++) {
                if try_read(inclusive_word(pred)) != 0u {
                    found = 2u;
                    break;
                }
                if try_read(aggregate_word(pred)) != 0u {
                    found = 1u;
                    break;
                }
            }
        }
        let status = first_u32(found, lane);
        var value = first_t(polled, lane);
        if status == 0u {
            value = fold_tiles(pred, pred + 1u, lane);
        }
        prefix = combine(value, prefix);
        if status == 2u {
            break;
        }
        look = pred;
    }
    if leader && tile > 0u {
        publish(inclusive_word(tile), combine(prefix, aggregate));
    }
    store_own(tile, rank(lane), combine(prefix, before));
}
// #end lookback
