// The high-word-first sort of 64-bit keys (RadixSort with 8-bit digits, radix_sort/high_first.rs):
// what it runs besides the digit passes of radix_sort_lanes.wgsl, and how it chooses between its
// two ways on the GPU, with indirect dispatches of zero groups, since the host cannot look at the
// keys without waiting.
//
//   choose    one work group: samples the keys' high words; if they spread widely enough that
//             runs of equal high words will be short, arms the fast way (4 passes by the high
//             word, then fix_runs), else nothing of it.
//   passes    by the high word's 4 digits: the keys end in the caller's buffer ordered by it.
//   fix_runs  sorts every run of equal high words (at most RUN_LIMIT long) by the low words, in
//             place, stably; a longer run's keys stay where they are, and the run is noted in
//             `state`.
//   settle    one invocation: arms the 8 LSD passes of the whole key (the fallback) unless the
//             fast way ran and found no long run.
//   passes    the fallback, over the caller's buffer: the input as it was, or sorted by the high
//             word with short runs sorted (either way every equal pair of keys in input order, so
//             the LSD sort is stable).
#import shoal::fold
#import radix_sort::key_map
#import dispatch::args

// Invocations per work group of choose and fix_runs; contiguous keys per invocation of fix_runs.
override WG: u32 = 64u;
const FIX_PER: u32 = 16u;
// MAX_COMPUTE_WORK_GROUP_COUNT.x of the device: indirect arguments fold over y beyond it.
override MAX_X: u32 = 65535u;
// An argsort (RadixSort::record_argsort, and pairs of 64-bit keys): fix_runs sorts `indices` by the
// low words `low_words[index]` within the runs of `high_words` (sorted, ordered), rather than the
// keys in `words`. The branches on it fold away when the pipeline is built.
override INDEXED: bool = false;
// Keys per work group of the fallback's gather (sort_keys.wgsl's WG × PER beside the 8-bit sort,
// which radix_sort/passes.rs sets here; an argsort's only).
override GATHER_GROUP_KEYS: u32 = 4096u;
// The longest run of equal high words fix_runs sorts; a longer one sends the sort to the fallback.
const RUN_LIMIT: u32 = 32u;
// Keys choose samples, and how far apart their high words must spread, per key, to take the
// fast way: a spread of 8 values per key keeps runs short for keys uniform in it (about one key
// in eight has a neighbour of its high word).
const SAMPLES: u32 = 1024u;
const SPREAD_PER_KEY: u32 = 8u;

struct Params {
    n: u32,
    // Tiles of the digit passes: their work groups.
    tiles: u32,
    // The key map of the high word (radix_sort::key_map), plus 4 when descending; the low
    // word's is the descending bit alone.
    map: u32,
    // Work groups of fix_runs.
    fix_groups: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// The caller's keys: as given (choose), and sorted by their high words (fix_runs, as words).
@group(0) @binding(1) var<storage, read> keys: array<vec2<u32>>;
@group(0) @binding(2) var<storage, read_write> words: array<u32>;
// [the fast way was taken, a run longer than RUN_LIMIT was found].
@group(0) @binding(3) var<storage, read_write> state: array<atomic<u32>, 2>;
// Work groups [x, y, z] of: the high word's passes, fix_runs, the fallback's passes, and the
// fallback's gather of an argsort's high words.
@group(0) @binding(4) var<storage, read_write> args: array<u32, 12>;
// An argsort's high words sorted, its low words in input order (both ordered), and the indices
// sorted with the high words (INDEXED; one-word stand-ins otherwise, and `words` one then).
@group(0) @binding(5) var<storage, read> high_words: array<u32>;
@group(0) @binding(6) var<storage, read> low_words: array<u32>;
@group(0) @binding(7) var<storage, read_write> indices: array<u32>;

var<workgroup> least: atomic<u32>;
var<workgroup> most: atomic<u32>;

// `groups` work groups, folded over y beyond MAX_X (the kernels rebuild their index).
fn folded(groups: u32) -> vec3<u32> {
    return dispatch_args(groups, NextKernel(1u, MAX_X, 0u, 0u));
}

fn put(at: u32, groups: vec3<u32>) {
    args[at] = groups.x;
    args[at + 1u] = groups.y;
    args[at + 2u] = groups.z;
}

@compute @workgroup_size(WG)
fn choose(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        atomicStore(&least, 0xffffffffu);
        atomicStore(&most, 0u);
    }
    workgroupBarrier();
    let n = params.n;
    let samples = min(n, SAMPLES);
    let stride = n / samples;
    for (var k = lid; k < samples; k += WG) {
        let high = to_ordered(keys[k * stride].y, params.map);
        atomicMin(&least, high);
        atomicMax(&most, high);
    }
    workgroupBarrier();
    if lid != 0u {
        return;
    }
    let spread = atomicLoad(&most) - atomicLoad(&least);
    let fast = spread / SPREAD_PER_KEY >= n;
    atomicStore(&state[0], select(0u, 1u, fast));
    atomicStore(&state[1], 0u);
    put(0u, select(vec3(0u), folded(params.tiles), fast));
    put(3u, select(vec3(0u), folded(params.fix_groups), fast));
    put(6u, vec3(0u));
    put(9u, vec3(0u));
}

// The ordered high word of the key at `i` of the sorted order.
fn high_of(i: u32) -> u32 {
    if INDEXED {
        return high_words[i];
    }
    return to_ordered(words[2u * i + 1u], params.map);
}

// What moves when a run is sorted: the low word of the key at `i` (its high word is the run's,
// left as it is: other invocations read it to find their runs), or its index (INDEXED).
fn load(i: u32) -> u32 {
    if INDEXED {
        return indices[i];
    }
    return words[2u * i];
}

fn store(i: u32, moved: u32) {
    if INDEXED {
        indices[i] = moved;
    } else {
        words[2u * i] = moved;
    }
}

// The ordered low word of what `load` returned.
fn low_of(moved: u32) -> u32 {
    if INDEXED {
        return low_words[moved];
    }
    return to_ordered(moved, params.map & 4u);
}

// Sorts the run of equal high words starting at key `start` by the low words, in place and
// stably (an insertion sort: a key moves past greater keys only), or, if it is longer than
// RUN_LIMIT, leaves it and notes it in `state`. Runs are disjoint and each is sorted by the one
// invocation that owns its first key, so no two invocations write one key.
fn sort_run(start: u32, n: u32, high: u32) {
    var stop = start + 1u;
    while stop < n && stop - start <= RUN_LIMIT && high_of(stop) == high {
        stop++;
    }
    if stop - start > RUN_LIMIT {
        atomicStore(&state[1], 1u);
        return;
    }
    for (var i = start + 1u; i < stop; i++) {
        let key = load(i);
        let key_low = low_of(key);
        var j = i;
        while j > start && low_of(load(j - 1u)) > key_low {
            store(j, load(j - 1u));
            j--;
        }
        store(j, key);
    }
}

// The last pass by the high word left the keys in the caller's buffer, ordered by their high
// words. Each invocation looks at FIX_PER contiguous keys' high words (one load each, carrying
// the last) for the first key of a run of two or more; an invocation that owns none (almost every
// one, where the fast way is taken) stores nothing, and only one that owns some enters the loop
// that sorts them: a software adapter runs both sides of a branch that any lane of a vector takes.
@compute @workgroup_size(WG)
fn fix_runs(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let n = params.n;
    let first = shoal_linear_index(wid, nwg, lid, WG) * FIX_PER;
    if first >= n {
        return;
    }
    let end = min(n, first + FIX_PER);
    var high = high_of(first);
    var before = first > 0u && high_of(first - 1u) == high;
    var starts = false;
    for (var i = first; i < end; i++) {
        let next = high_of(min(i + 1u, n - 1u));
        let after = i + 1u < n && next == high;
        starts = starts || (after && !before);
        before = after;
        high = next;
    }
    if !starts {
        return;
    }
    high = high_of(first);
    before = first > 0u && high_of(first - 1u) == high;
    for (var i = first; i < end; i++) {
        let next = high_of(min(i + 1u, n - 1u));
        let after = i + 1u < n && next == high;
        if after && !before {
            sort_run(i, n, high);
        }
        before = after;
        high = next;
    }
}

@compute @workgroup_size(1)
fn settle() {
    let again = atomicLoad(&state[0]) == 0u || atomicLoad(&state[1]) != 0u;
    put(6u, select(vec3(0u), folded(params.tiles), again));
    let gather = params.n / GATHER_GROUP_KEYS + select(0u, 1u, params.n % GATHER_GROUP_KEYS != 0u);
    put(9u, select(vec3(0u), folded(gather), again));
}
