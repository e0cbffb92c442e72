// The device side of the spread sort (crates/shoal-scale/src/sort.rs): the samples a member
// draws from its sorted part, and where the splitters fall in it.
//
// Keys are read as raw u32 words (WORDS per key, little-endian) and mapped to 64 bits (hi, lo)
// that compare, unsigned, in the sort's order: KIND 0 unsigned, 1 signed (sign bit flipped),
// 2 f32 (total order: negative values inverted, others with the sign bit set), and every bit
// inverted for a descending sort. `SortKey::ordered` is the same map on the CPU.

override KIND: u32 = 0u;
override WORDS: u32 = 1u;
override DESC: bool = false;

// [keys in the part, this member's rank, samples or splitters to process]
@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> keys: array<u32>;
// bounds: one splitter per element, (hi, lo, rank, position) of its sample.
// samples: one position per element in x.
@group(0) @binding(2) var<storage, read> targets: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;

fn normalized(i: u32) -> vec2<u32> {
    var lo = keys[i * WORDS];
    var hi = 0u;
    if WORDS == 2u {
        hi = keys[i * WORDS + 1u];
    }
    if KIND == 1u {
        if WORDS == 2u {
            hi = hi ^ 0x80000000u;
        } else {
            lo = lo ^ 0x80000000u;
        }
    }
    if KIND == 2u {
        lo = select(lo | 0x80000000u, ~lo, (lo >> 31u) == 1u);
    }
    if DESC {
        hi = ~hi;
        lo = ~lo;
    }
    return vec2<u32>(hi, lo);
}

// How many keys of the part come before each splitter in the order (key, rank, position):
// the part's keys are sorted by (key, position), so a binary search over keys finds it. Keys
// equal to the splitter's are before it on lower ranks and after it on higher ones; on the
// splitter's own rank its position is the answer.
@compute @workgroup_size(64)
fn bounds(@builtin(global_invocation_id) id: vec3<u32>) {
    let s = id.x;
    if s >= params[2] {
        return;
    }
    let splitter = targets[s];
    let rank = params[1];
    if rank == splitter.z {
        out[s] = splitter.w;
        return;
    }
    let equal_below = rank < splitter.z;
    var lo = 0u;
    var hi = params[0];
    while lo < hi {
        let mid = lo + (hi - lo) / 2u;
        let k = normalized(mid);
        let less = k.x < splitter.x || (k.x == splitter.x && k.y < splitter.y);
        let equal = k.x == splitter.x && k.y == splitter.y;
        if less || (equal && equal_below) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    out[s] = lo;
}

// The keys at the sample positions, word by word.
@compute @workgroup_size(64)
fn samples(@builtin(global_invocation_id) id: vec3<u32>) {
    let j = id.x;
    if j >= params[2] {
        return;
    }
    let at = targets[j].x;
    for (var w = 0u; w < WORDS; w++) {
        out[j * WORDS + w] = keys[at * WORDS + w];
    }
}
