// Order-preserving maps of sort keys to u32 words and back (`#import radix_sort::key_map`),
// shared by the sort's count and scatter kernels (which map on the first pass's loads and map
// back on the last pass's stores) and by sort_keys.wgsl.
//
// A map is a key kind plus 4 when descending; map 0 (UINT, ascending) is the identity.

// Key kinds: how a word's bits order.
const UINT: u32 = 0u;
const INT: u32 = 1u;   // two's complement: flip the sign bit
const FLOAT: u32 = 2u; // IEEE 754: negative -> flip all bits, positive -> flip the sign bit
const SIGN: u32 = 0x80000000u;

// The word whose unsigned order is the key order (total order for FLOAT: -NaN < -inf < ... <
// -0 < +0 < ... < +inf < +NaN), complemented when descending. Without branches: the sort maps
// every key it loads, and a software adapter pays for a branch per key.
fn to_ordered(x: u32, map: u32) -> u32 {
    let kind = map & 3u;
    let float_flip = select(SIGN, 0xffffffffu, (x & SIGN) != 0u);
    let flip = select(0u, SIGN, kind == INT) | select(0u, float_flip, kind == FLOAT);
    return x ^ flip ^ select(0u, 0xffffffffu, (map & 4u) != 0u);
}

// The inverse of `to_ordered`.
fn from_ordered(y: u32, map: u32) -> u32 {
    let kind = map & 3u;
    let z = y ^ select(0u, 0xffffffffu, (map & 4u) != 0u);
    let float_flip = select(0xffffffffu, SIGN, (z & SIGN) != 0u);
    return z ^ (select(0u, SIGN, kind == INT) | select(0u, float_flip, kind == FLOAT));
}

// The same maps decoded into four masks for `remap`, which computes w = x ^ m.x, then w ^ m.y ^
// ((w's sign bit spread over the word ^ m.z) & m.w): for kernels that decode a pass's maps once
// and apply them to every key (the 8-bit sort's scatters, radix_sort_lanes.wgsl). The counting
// kernel keeps `to_ordered`, which measured faster there in Chromium. The sort's tests of every
// key type and order check that the two forms agree: its count ranks digits by one and its
// scatters by the other, so a disagreement misplaces keys (mutating either fails them).
fn remap(x: u32, m: vec4<u32>) -> u32 {
    let w = x ^ m.x;
    return w ^ m.y ^ ((bitcast<u32>(bitcast<i32>(w) >> 31u) ^ m.z) & m.w);
}

// `to_ordered` as masks: flip the sign bit (INT, FLOAT) and the other bits of negatives (FLOAT),
// then complement when descending.
fn to_masks(map: u32) -> vec4<u32> {
    let kind = map & 3u;
    let flip = select(0u, SIGN, kind != UINT) ^ select(0u, 0xffffffffu, (map & 4u) != 0u);
    return vec4(0u, flip, 0u, select(0u, ~SIGN, kind == FLOAT));
}

// `from_ordered` as masks: undo the complement first, then the flips, the other bits where the
// sign bit is clear (a negative FLOAT).
fn from_masks(map: u32) -> vec4<u32> {
    let kind = map & 3u;
    return vec4(select(0u, 0xffffffffu, (map & 4u) != 0u), select(0u, SIGN, kind != UINT),
                0xffffffffu, select(0u, ~SIGN, kind == FLOAT));
}
