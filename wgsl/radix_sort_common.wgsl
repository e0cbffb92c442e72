// Stable LSD radix sort of u32 keys (optionally carrying u32 values), 4 bits per pass, 8 passes
// (other key types mapped to u32 words on the first pass's loads and back on the last's stores):
// what both tilings share (`#import radix_sort::common`).
//
// Each pass: count digits (a 16-bin histogram per tile, stored digit-major:
// counts[d * tiles + t]), an exclusive scan of those counts (the Scan family, recorded by
// radix_sort.rs) giving where digit d of tile t starts in the output, then scatter (each
// invocation owns PER contiguous keys, so ranks within a tile follow input order: the sort is
// stable). radix_sort.wgsl ranks through shared memory; radix_sort_subgroup.wgsl, for work
// groups of one subgroup, in registers.

const RADIX: u32 = 16u;

struct Params {
    n: u32,
    // The pass's digit: bits shift .. shift + 4.
    shift: u32,
    tiles: u32,
    // Bit 0: values travel with the keys. Bits 8-15: the key map applied to keys as they are
    // loaded (the first pass), bits 16-23: the one undone as they are stored (the last pass);
    // 0, the identity, otherwise (radix_sort::key_map).
    flags: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> keys_in: array<u32>;
@group(0) @binding(2) var<storage, read> values_in: array<u32>;
@group(0) @binding(3) var<storage, read_write> counts: array<u32>;
@group(0) @binding(4) var<storage, read> offsets: array<u32>;
@group(0) @binding(5) var<storage, read_write> keys_out: array<u32>;
@group(0) @binding(6) var<storage, read_write> values_out: array<u32>;

#import radix_sort::key_map

// Key `i` of the input, as the word the sort orders.
fn key_in(i: u32) -> u32 {
    return to_ordered(keys_in[i], (params.flags >> 8u) & 0xffu);
}

// `key` as it is stored: back to the caller's bits after the last pass.
fn key_out(key: u32) -> u32 {
    return from_ordered(key, (params.flags >> 16u) & 0xffu);
}

fn with_values() -> bool {
    return (params.flags & 1u) != 0u;
}

fn digit(key: u32) -> u32 {
    return (key >> params.shift) & (RADIX - 1u);
}

fn group_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return (wid.z * nwg.y + wid.y) * nwg.x + wid.x;
}
