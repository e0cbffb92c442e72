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
