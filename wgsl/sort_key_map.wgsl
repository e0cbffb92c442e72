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
// -0 < +0 < ... < +inf < +NaN), complemented when descending.
fn to_ordered(x: u32, map: u32) -> u32 {
    let kind = map & 3u;
    var y = x;
    if kind == INT {
        y = x ^ SIGN;
    } else if kind == FLOAT {
        y = x ^ select(SIGN, 0xffffffffu, (x & SIGN) != 0u);
    }
    return select(y, ~y, (map & 4u) != 0u);
}

// The inverse of `to_ordered`.
fn from_ordered(y: u32, map: u32) -> u32 {
    let kind = map & 3u;
    let z = select(y, ~y, (map & 4u) != 0u);
    if kind == INT {
        return z ^ SIGN;
    } else if kind == FLOAT {
        return z ^ select(0xffffffffu, SIGN, (z & SIGN) != 0u);
    }
    return z;
}
