// The passes RadixSort records around its sort of u32 words (radix_sort_common.wgsl, which maps
// 32-bit keys itself) for 64-bit keys, wide values and argsort: 64-bit keys split into and joined
// from their two ordered words, the identity permutation (where the sort's first pass does not
// make it), and gathers by a permutation.
//
// One entry point, the operation chosen by a uniform, not an override: one pipeline serves every
// key type and order (each distinct pipeline costs llvmpipe a cold compile in CI).
#import shoal::fold

// Operations (`params.op`).
const SPLIT: u32 = 1u;    // 64-bit keys a[2i], a[2i + 1] -> ordered words out4 (low), out_b4 (high)
const JOIN: u32 = 2u;     // ordered words a[i] (low), b[i] (high) -> 64-bit keys out[2i], out[2i + 1]
const IOTA: u32 = 3u;     // out[i] = i
const GATHER: u32 = 4u;   // element i of out = element b[i] of a, elements of params.words words

// Key maps (`params.map`): radix_sort::key_map.
#import radix_sort::key_map

// Invocations per work group, and elements per invocation (strided by the work group; a
// gather's units, below): 64 beside the 8-bit sort of software adapters, 8 beside the 4-bit
// sorts of GPUs (radix_sort/passes.rs), since SwiftShader pays for every invocation a fixed
// cost that 8 did not spread: 64 was faster on SwiftShader and llvmpipe's GL, for the gather of
// wide values and the U64 argsort's split, and no slower on lavapipe.
const WG: u32 = 64u;
override PER: u32 = 8u;

struct Params {
    n: u32,
    op: u32,
    // The key kind of the (most significant) word, plus 4 when descending. The low word of a
    // 64-bit key is always UINT.
    map: u32,
    // Words per element of a gather.
    words: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> a: array<u32>;
@group(0) @binding(2) var<storage, read> b: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
// `a` and `out` as vec4s, for gathers of whole vec4s and splits, and the split's second output
// (RadixSort binds stand-ins where a pass does not use them).
@group(0) @binding(4) var<storage, read_write> out_b4: array<vec4<u32>>;
@group(0) @binding(5) var<storage, read> a4: array<vec4<u32>>;
@group(0) @binding(6) var<storage, read_write> out4: array<vec4<u32>>;
// `b` as vec4s: a gather's indices, four at a time.
@group(0) @binding(7) var<storage, read> b4: array<vec4<u32>>;

// The map of a 64-bit key's low word: unsigned, in the key's order.
fn low_map() -> u32 {
    return params.map & 4u;
}

@compute @workgroup_size(WG)
fn sort_keys(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let base = shoal_linear_index(wid, nwg, 0u, WG) * PER + lid;
    let n = params.n;
    let map = params.map;
    // This invocation's elements: base, base + WG, ... below n. The operation is chosen once,
    // outside the loops, and no element is tested but against the loop's end: a software
    // adapter pays for every branch in every lane.
    let end = min(n, base + PER * WG);
    switch params.op {
        case SPLIT: {
            split(base - lid, lid);
        }
        case JOIN: {
            for (var i = base; i < end; i += WG) {
                out[2u * i] = from_ordered(a[i], low_map());
                out[2u * i + 1u] = from_ordered(b[i], map);
            }
        }
        case IOTA: {
            for (var i = base; i < end; i += WG) {
                out[i] = i;
            }
        }
        case GATHER: {
            gather(base, lid);
        }
        default: {}
    }
}

// SPLIT of the work group's block of PER * WG keys from `block`: four keys at a time, read as two
// vec4s and written as a vec4 of low words to `out4` and one of high words to `out_b4`, whose
// buffers RadixSort rounds up to whole vec4s (the keys' words one at a time, two loads and two
// stores per key, were slower on lavapipe and GL). The last group of a count not a multiple of
// four reads its keys one by one, and pads with zeros.
fn split(block: u32, lid: u32) {
    let n = params.n;
    let lo = low_map();
    let hi = params.map;
    let whole = n / 4u;
    let end = min(whole, (block + PER * WG) / 4u);
    for (var g = block / 4u + lid; g < end; g += WG) {
        let k = a4[2u * g];
        let l = a4[2u * g + 1u];
        out4[g] = vec4(to_ordered(k.x, lo), to_ordered(k.z, lo), to_ordered(l.x, lo), to_ordered(l.z, lo));
        out_b4[g] = vec4(to_ordered(k.y, hi), to_ordered(k.w, hi), to_ordered(l.y, hi), to_ordered(l.w, hi));
    }
    // The ragged group, by the first invocation of the block that holds it.
    let g = whole;
    if lid == 0u && 4u * g < n && 4u * g >= block && 4u * g < block + PER * WG {
        var low = vec4(0u);
        var high = vec4(0u);
        for (var c = 0u; 4u * g + c < n; c++) {
            low[c] = to_ordered(a[2u * (4u * g + c)], lo);
            high[c] = to_ordered(a[2u * (4u * g + c) + 1u], hi);
        }
        out4[g] = low;
        out_b4[g] = high;
    }
}

// GATHER of the units `base`, `base + WG`, ... of the group's block: a unit is a vec4 where an
// element's words are a multiple of 4 (`a4`, `out4`), a word otherwise (`a`, `out`); unit u of
// the output is unit u % per of element u / per. Units, not elements, are what an invocation
// takes, so its loop trips are PER whatever the width (llvmpipe ends an invocation's loops past
// 65,535 trips) and wide values spread over as many invocations as their units need. (Units, and
// the group's first unit times its work group, stay below 2^32: RadixSort refuses values whose
// words pass u32 indexing, and a vec4 unit is four words.)
fn gather(base: u32, lid: u32) {
    let w = params.words;
    let wide = w % 4u == 0u;
    let per = select(w, w / 4u, wide);
    let end = min(params.n * per, base + PER * WG);
    if per == 1u && wide {
        // Four consecutive elements per trip, their indices loaded as one vec4 and their four
        // loads before their stores, so their misses overlap: the gather of 16-byte values by a
        // random permutation was faster on llvmpipe's GL with four loads before their stores
        // (eight at a time no faster); a scalar index per element cost SwiftShader more than
        // its vec4 (docs/bench/README.md).
        // (PER is a multiple of 4, radix_sort/passes.rs: a block holds whole fours.)
        let block = base - lid;
        let whole = params.n / 4u;
        let last = min(whole, (block + PER * WG) / 4u);
        for (var q = block / 4u + lid; q < last; q += WG) {
            let at = b4[q];
            let x0 = a4[at.x];
            let x1 = a4[at.y];
            let x2 = a4[at.z];
            let x3 = a4[at.w];
            out4[4u * q] = x0;
            out4[4u * q + 1u] = x1;
            out4[4u * q + 2u] = x2;
            out4[4u * q + 3u] = x3;
        }
        // The last n % 4 elements, by the first invocation of the block that holds them.
        let ragged = 4u * whole;
        if lid == 0u && ragged < params.n && ragged >= block && ragged < block + PER * WG {
            for (var i = ragged; i < params.n; i++) {
                out4[i] = a4[b[i]];
            }
        }
    } else if per == 1u {
        for (var i = base; i < end; i += WG) {
            out[i] = a[b[i]];
        }
    } else if wide {
        for (var u = base; u < end; u += WG) {
            out4[u] = a4[b[u / per] * per + u % per];
        }
    } else {
        for (var u = base; u < end; u += WG) {
            out[u] = a[b[u / per] * per + u % per];
        }
    }
}
