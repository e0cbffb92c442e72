// Stable LSD radix sort with 8-bit digits (4 passes per 32-bit word of radix_sort_common.wgsl),
// for software adapters: every invocation counts and ranks its keys with counters of its own (a
// column of shared memory, or a private array: PRIVATE_COUNTERS; a plain increment per key, no
// atomics, no conflicts), so a work group waits at one barrier per kernel whatever its size;
// the scatter takes the counts the counting kernel left in `lane_counts` rather than counting
// again.
//
// It moves either key words (keys_in -> keys_out) or items of two words (a key and its value,
// or a 64-bit key's low and high words) stored as one vec2: one store per item where two
// arrays would take two. A sort of pairs reads key and value words on its first pass, items
// from then on, and writes key and value words again on its last.

#import radix_sort::common

// 8-bit digits.
const RADIX: u32 = 256u;

// Invocations per work group (a power of two, planned from the device), keys per invocation
// (a multiple of 4: an invocation's keys start at a vec4).
override WG: u32 = 8u;
override PER: u32 = 1024u;
// The bits of a digit that count (radix_sort::common's `digit`).
override DIGIT_MASK: u32 = 0xffffffffu;

// Where each invocation keeps its counters while it counts and ranks its keys: in `sh_lanes`
// (false: SwiftShader), or in an array of its own (true: llvmpipe and lavapipe, which access
// shared memory one invocation at a time, a private array as one vector; SwiftShader measured
// slower with it, so not there). They pass through `sh_lanes` between invocations either way.
// (Declared before `sh_lanes`, whose size uses WG: naga 30 fails on overrides declared after
// such an array.)
override PRIVATE_COUNTERS: bool = false;

// The inputs four words at a time: four key words and four value words, or two items.
@group(0) @binding(7) var<storage, read> keys_in4: array<vec4<u32>>;
@group(0) @binding(8) var<storage, read> values_in4: array<vec4<u32>>;
// Every tile's counters as count_digits leaves them (RADIX * WG per tile), for scatter.
@group(0) @binding(9) var<storage, read_write> lane_counts: array<u32>;
@group(0) @binding(10) var<storage, read_write> items_out: array<vec2<u32>>;

// Per digit, per invocation (digit-major): keys of that digit among the invocation's own, then
// where the next of them goes.
var<workgroup> sh_lanes: array<u32, RADIX * WG>;

// An invocation's counters, where PRIVATE_COUNTERS keeps them.
var<private> own_counts: array<u32, RADIX>;

// Invocation `id`'s counter of digit `d`, which goes up by one.
fn bump(d: u32, id: u32) -> u32 {
    if PRIVATE_COUNTERS {
        let at = own_counts[d];
        own_counts[d] = at + 1u;
        return at;
    }
    let s = d * WG + id;
    let at = sh_lanes[s];
    sh_lanes[s] = at + 1u;
    return at;
}

fn flag(bit: u32) -> bool {
    return ((params.flags >> bit) & 1u) != 0u;
}

// The scatters' view of this pass's flags, decoded once per invocation (`decode_flags`), not per
// key: the maps of an item's words as loaded and as stored, as masks for `remap`, whether the
// digit is the second word's, and whether values are made (`values4`). SwiftShader pays for
// decoding them per key (pairs and 64-bit keys); llvmpipe does not mind. The counting kernel
// still decodes per key (`count_item`): masks there measured slower in Chromium.
var<private> load_x: vec4<u32>;
var<private> load_y: vec4<u32>;
var<private> store_x: vec4<u32>;
var<private> store_y: vec4<u32>;
var<private> digit_hi: bool;
var<private> make_indices: bool;

fn decode_flags() {
    let f = params.flags;
    load_x = to_masks((f >> 8u) & 0xfu);
    load_y = to_masks((f >> 12u) & 0xfu);
    store_x = from_masks((f >> 16u) & 0xfu);
    store_y = from_masks((f >> 20u) & 0xfu);
    digit_hi = flag(26u);
    make_indices = flag(27u);
}

// Counts an item (a key word with 0) by its ordered word, decoding the maps per key: what
// measured fastest in the counting kernel.
fn count_item(item: vec2<u32>, id: u32) {
    let o = vec2(to_ordered(item.x, (params.flags >> 8u) & 0xfu),
                 to_ordered(item.y, (params.flags >> 12u) & 0xfu));
    _ = bump(digit(select(o.x, o.y, flag(26u))), id);
}

// The four key words, or two items, of vec4 `q` counted.
fn count_keys4(q: u32, id: u32) {
    let k = keys_in4[q];
    count_item(vec2(k.x, 0u), id);
    count_item(vec2(k.y, 0u), id);
    count_item(vec2(k.z, 0u), id);
    count_item(vec2(k.w, 0u), id);
}

fn count_items4(q: u32, id: u32) {
    let k = keys_in4[q];
    count_item(k.xy, id);
    count_item(k.zw, id);
}

// The last item of an invocation whose range ends at an odd item: the one its vec4s miss.
fn odd_item(own: vec2<u32>) -> bool {
    return own.y > own.x && (own.y & 1u) != 0u;
}

fn last_item(own: vec2<u32>) -> vec2<u32> {
    return vec2(keys_in[2u * own.y - 2u], keys_in[2u * own.y - 1u]);
}

// The counting kernel's counts of an invocation's keys or items after its last whole vec4.
fn count_keys_tail(own: vec2<u32>, id: u32) {
    for (var i = max(own.x, own.y & ~3u); i < own.y; i++) {
        count_item(vec2(keys_in[i], 0u), id);
    }
}

fn count_items_tail(own: vec2<u32>, id: u32) {
    if odd_item(own) {
        count_item(last_item(own), id);
    }
}

#import radix_sort::each_own(count_keys_own, 4u, count_keys4, count_keys_tail)
#import radix_sort::each_own(count_items_own, 2u, count_items4, count_items_tail)

// Counts this invocation's keys of tile `tile` (PER contiguous ones, key words or items) into
// its counters.
fn count_own(tile: u32, id: u32) {
    let own = own_keys(tile, id);
    if flag(24u) {
        count_items_own(own, id);
        return;
    }
    count_keys_own(own, id);
}

// An item's words as the sort orders them (mapped on the first pass), and as they are stored
// (mapped back on the last).
fn ordered(item: vec2<u32>) -> vec2<u32> {
    return vec2(remap(item.x, load_x), remap(item.y, load_y));
}

fn unmapped(o: vec2<u32>) -> vec2<u32> {
    return vec2(remap(o.x, store_x), remap(o.y, store_y));
}

// Where ordered item `o` goes: the next place of its digit among invocation `id`'s keys.
fn rank(o: vec2<u32>, id: u32) -> u32 {
    return bump(digit(select(o.x, o.y, digit_hi)), id);
}

// The stores of the scatter kernels below, one per kind of output: a key word alone, an item,
// or an item's two words to two arrays.
fn place_key(word: u32, id: u32) {
    let o = remap(word, load_x);
    keys_out[bump(digit(o), id)] = remap(o, store_x);
}

fn place_item(item: vec2<u32>, id: u32) {
    let o = ordered(item);
    items_out[rank(o, id)] = unmapped(o);
}

fn place_pair(item: vec2<u32>, id: u32) {
    let o = ordered(item);
    let at = rank(o, id);
    let u = unmapped(o);
    keys_out[at] = u.x;
    values_out[at] = u.y;
}

// The scatter kernels' stores of vec4 `q`: four key words, four key words and four value words,
// two items, two items to key and value words.
fn place_keys4(q: u32, id: u32) {
    let k = keys_in4[q];
    place_key(k.x, id);
    place_key(k.y, id);
    place_key(k.z, id);
    place_key(k.w, id);
}

// The values of vec4 `q` of key words: loaded, or (an argsort, flag 27) the keys' indices, made
// here rather than by a pass of their own before the sort.
fn values4(q: u32) -> vec4<u32> {
    let i = 4u * q;
    return select(values_in4[q], vec4(i, i + 1u, i + 2u, i + 3u), make_indices);
}

fn place_zip4(q: u32, id: u32) {
    let k = keys_in4[q];
    let v = values4(q);
    place_item(vec2(k.x, v.x), id);
    place_item(vec2(k.y, v.y), id);
    place_item(vec2(k.z, v.z), id);
    place_item(vec2(k.w, v.w), id);
}

fn place_items4(q: u32, id: u32) {
    let k = keys_in4[q];
    place_item(k.xy, id);
    place_item(k.zw, id);
}

fn place_pairs4(q: u32, id: u32) {
    let k = keys_in4[q];
    place_pair(k.xy, id);
    place_pair(k.zw, id);
}

// The scatter kernels' stores of an invocation's keys or items after its last whole vec4: the
// key words one by one, or the odd last item.
fn place_keys_tail(own: vec2<u32>, id: u32) {
    for (var i = max(own.x, own.y & ~3u); i < own.y; i++) {
        place_key(keys_in[i], id);
    }
}

fn place_zip_tail(own: vec2<u32>, id: u32) {
    for (var i = max(own.x, own.y & ~3u); i < own.y; i++) {
        place_item(vec2(keys_in[i], select(values_in[i], i, make_indices)), id);
    }
}

fn place_items_tail(own: vec2<u32>, id: u32) {
    if odd_item(own) {
        place_item(last_item(own), id);
    }
}

fn place_pairs_tail(own: vec2<u32>, id: u32) {
    if odd_item(own) {
        place_pair(last_item(own), id);
    }
}

@compute @workgroup_size(WG)
fn count_digits(@builtin(local_invocation_index) id: u32, @builtin(workgroup_id) wid: vec3<u32>,
                @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = group_index(wid, nwg);
    if tile >= params.tiles {
        return;
    }
    // Workgroup and private memory start zeroed (WGSL).
    count_own(tile, id);
    if PRIVATE_COUNTERS {
        for (var d = 0u; d < RADIX; d++) {
            sh_lanes[d * WG + id] = own_counts[d];
        }
    }
    workgroupBarrier();
    let base = tile * RADIX * WG;
    for (var d = id; d < RADIX; d += WG) {
        var total = 0u;
        for (var lane = 0u; lane < WG; lane++) {
            let c = sh_lanes[d * WG + lane];
            lane_counts[base + d * WG + lane] = c;
            total += c;
        }
        counts[d * params.tiles + tile] = total;
    }
}

// Turns this tile's counters into where each invocation's first key of each digit goes: the
// digit's start for the tile plus its keys in earlier invocations.
fn first_places(tile: u32, id: u32) {
    let base = tile * RADIX * WG;
    for (var d = id; d < RADIX; d += WG) {
        var at = offsets[d * params.tiles + tile];
        for (var lane = 0u; lane < WG; lane++) {
            let c = lane_counts[base + d * WG + lane];
            sh_lanes[d * WG + lane] = at;
            at += c;
        }
    }
    workgroupBarrier();
    if PRIVATE_COUNTERS {
        for (var d = 0u; d < RADIX; d++) {
            own_counts[d] = sh_lanes[d * WG + id];
        }
    }
}

// The keys (or items) of invocation `id` in tile `tile`: PER contiguous ones, start and end.
fn own_keys(tile: u32, id: u32) -> vec2<u32> {
    let start = (tile * WG + id) * PER;
    return vec2(start, min(start + PER, params.n));
}

// Four scatter kernels, by what they read and write: key words to key words (keys alone), key
// and value words to items (the first pass of pairs), items to items, items to key and value
// words (the last pass of pairs). Separate kernels: each binds only what it uses (at most 7
// storage buffers), and no branch runs per key. (Two kernels, by what they read, each choosing
// its store with a branch per key, measured slower on lavapipe, for keys and for 64-bit keys.)
// One entry point and one loop, written once (radix_sort_scatter.wgsl, radix_sort_each_own.wgsl),
// instantiated for each.
#import radix_sort::each_own(place_keys_own, 4u, place_keys4, place_keys_tail)
#import radix_sort::each_own(place_zip_own, 4u, place_zip4, place_zip_tail)
#import radix_sort::each_own(place_items_own, 2u, place_items4, place_items_tail)
#import radix_sort::each_own(place_pairs_own, 2u, place_pairs4, place_pairs_tail)
#import radix_sort::scatter(scatter, place_keys_own)
#import radix_sort::scatter(scatter_zip, place_zip_own)
#import radix_sort::scatter(scatter_items, place_items_own)
#import radix_sort::scatter(scatter_unzip, place_pairs_own)
