// The `io` block of scan.wgsl for the segmented family (segmented.rs): the scan's elements are
// (heads so far, value) pairs, T = vec2<u32>, made from the values and the head flags (or keys)
// as they are loaded, and scanned with the segmented form of the operation
//   (ca, a) . (cb, b) = (ca + cb, cb > 0 ? b : a op b),
// associative whenever op is: a head cuts the running value off from everything before it, and
// the first component counts the heads. Results are stored as values (a segmented scan), or
// where a run of equal keys ends, at the run's index (heads so far - 1), every other element
// behind the runs: reduce-by-key, in the scan's one pass (run lengths are run_ends.wgsl's).

// Two constants come before this file (segmented_scan_io.wgsl, segmented_runs_io.wgsl), one
// kernel per use: `BY_KEYS` (a segment starts where `seg_heads` changes, keys; or where
// `seg_heads[i]`, a flag, is set) and `RUNS` (each run's key and result at its index; or each
// element's result into `seg_out`). Read from a uniform, both sides of every test of them ran in
// every lane on SwiftShader, with their loads.

struct Segments {
    // The operation's identity, as bits: an exclusive scan's value at a head.
    identity: u32,
    unused0: u32,
    unused1: u32,
    unused2: u32,
}

@group(0) @binding(8) var<uniform> segments: Segments;
// Bits of the values (u32, i32 or f32).
@group(0) @binding(9) var<storage, read> seg_values: array<u32>;
@group(0) @binding(10) var<storage, read> seg_heads: array<u32>;
@group(0) @binding(11) var<storage, read_write> seg_out: array<u32>;
@group(0) @binding(12) var<storage, read_write> seg_keys: array<u32>;
// [count, x, y, z] as CompactCount lays it out: the number of runs (the arguments stay zero).
@group(0) @binding(13) var<storage, read_write> seg_count: array<u32>;
// `seg_values` and `seg_heads` as vec4s.
@group(0) @binding(14) var<storage, read> seg_values4: array<vec4<u32>>;
@group(0) @binding(15) var<storage, read> seg_heads4: array<vec4<u32>>;

// The flags (or keys) of this invocation's slots, as `element` loaded them: a key's predecessor
// and the key after it are in the neighbouring slots, so `element` and `emit` load each key once
// (where the slot is a constant, which it is once the `own` block is unrolled; the rolled block
// passes NO_SLOT, and the neighbours are read from memory).
var<private> slot_heads: array<u32, PER>;
// The rolled block's (NO_SLOT) keys: those of the chunk (or the element) the scan loaded last,
// and the key after each, so that `emit`, which the scan calls right after loading its element,
// loads no key again.
var<private> chunk_keys: vec4<u32>;
var<private> keys_after: vec4<u32>;
// The key before the chunk `element4` loads next: loaded for an invocation's first chunk of a
// loop (`element4_first`, which the scan calls before it), then the last key of each chunk.
// A scalar loaded per chunk at a computed index costs SwiftShader more than the chunk's vec4s,
// so reduce-by-key carries it.
var<private> key_before: u32;

fn element4_first(q: u32) {
    if BY_KEYS {
        key_before = seg_heads[min(max(4u * q, 1u) - 1u, params.n - 1u)];
    }
}

// Whether element i, of flag (or key) h, starts a segment: flags only need h; keys need the key
// before, from the previous slot where there is one.
fn starts(i: u32, h: u32, slot: u32) -> bool {
    if !BY_KEYS {
        return i == 0u || h != 0u;
    }
    var before: u32;
    if slot > 0u && slot < PER {
        before = slot_heads[slot - 1u];
    } else {
        before = seg_heads[max(i, 1u) - 1u];
    }
    return i == 0u || h != before;
}

fn element(i: u32, slot: u32) -> T {
    let h = seg_heads[i];
    let head = starts(i, h, slot);
    if slot < PER {
        slot_heads[slot] = h;
    } else if RUNS {
        chunk_keys[i & 3u] = h;
        keys_after[i & 3u] = seg_heads[min(i + 1u, params.n - 1u)];
    }
    return vec2<u32>(select(0u, 1u, head), seg_values[i]);
}

// `x` is element i, its head flag in `x.x`.
// Elements 4q .. 4q + 3, all of them in the input, from one vec4 of values and of flags (or keys)
// and, for keys, the key before.
fn element4(q: u32) -> array<T, 4> {
    let h = seg_heads4[q];
    let v = seg_values4[q];
    let i = 4u * q;
    var head: vec4<bool>;
    if !BY_KEYS {
        head = h != vec4(0u);
    } else {
        head = vec4(h.x != key_before, h.y != h.x, h.z != h.y, h.w != h.z);
        key_before = h.w;
    }
    head.x = head.x || i == 0u;
    if RUNS {
        chunk_keys = h;
        keys_after = vec4(h.yzw, seg_heads[min(i + 4u, params.n - 1u)]);
    }
    let f = select(vec4(0u), vec4(1u), head);
    return array<T, 4>(vec2(f.x, v.x), vec2(f.y, v.y), vec2(f.z, v.z), vec2(f.w, v.w));
}

fn emit(i: u32, slot: u32, v: T, x: T) {
    if !RUNS {
        // Exclusive: `v` is the result up to i - 1, which a head does not continue.
        seg_out[i] = select(v.y, segments.identity, params.inclusive == 0u && x.x != 0u);
        return;
    }
    var h: u32;
    var next: u32;
    if slot < PER {
        h = slot_heads[slot];
        // The next key: loaded into the next slot, unless this is the invocation's last.
        if slot < PER - 1u {
            next = slot_heads[slot + 1u];
        } else {
            next = seg_heads[min(i + 1u, params.n - 1u)];
        }
    } else {
        h = shoal_component(chunk_keys, i & 3u);
        next = shoal_component(keys_after, i & 3u);
    }
    let ends = i + 1u == params.n || next != h;
    // Every element is stored, with no branch (a software adapter pays for an `if` in every
    // lane, taken or not): where its run ends, the key and the result at the run's index; any
    // other element at the back, past the runs (n - 2 - i + runs so far, unique to it).
    let at = select(params.n - 2u - i + v.x, v.x - 1u, ends);
    seg_keys[at] = h;
    seg_out[at] = v.y;
}

// The number of runs, once.
fn finish(total: T) {
    if RUNS {
        seg_count[0] = total.x;
    }
}
