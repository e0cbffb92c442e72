// Stable LSD radix sort of u32 keys (optionally carrying u32 values), RADIX digits per pass (16 or
// 256: each importing kernel declares `const RADIX` and `override DIGIT_MASK`; 8 or 4 passes per
// word, fewer for some of the key's bits), other key types mapped to u32 words on the first pass's
// loads and back on the last's stores: what every ranking shares (`#import radix_sort::common`).
//
// Each pass: count digits (a RADIX-bin histogram per tile, stored digit-major:
// counts[d * tiles + t]), an exclusive scan of those counts (the Scan family, recorded by
// radix_sort.rs) giving where digit d of tile t starts in the output, then scatter (each
// invocation owns PER contiguous keys, so ranks within a tile follow input order: the sort is
// stable). radix_sort.wgsl ranks 4-bit digits through shared memory; radix_sort_subgroup.wgsl,
// for work groups of one subgroup, in registers; radix_sort_lanes.wgsl ranks 8-bit digits with
// counters of its own per invocation.

struct Params {
    n: u32,
    // The pass's digit: bits shift .. shift + log2(RADIX).
    shift: u32,
    tiles: u32,
    // Bit 0: values travel with the keys. Bits 8-11: the key map applied to keys as they are
    // loaded (the first pass), bits 16-19: the one undone as they are stored (the last pass);
    // 0, the identity, otherwise (radix_sort::key_map). Only radix_sort_lanes.wgsl reads the
    // rest (items of two words): bits 12-15 and 20-23, the same maps of an item's second word;
    // bit 24, the input is items; bit 26, the digit is the second word's; bit 27, the first
    // pass makes the values (the keys' indices, for an argsort) rather than loading them.
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
    return to_ordered(keys_in[i], (params.flags >> 8u) & 0xfu);
}

// `key` as it is stored: back to the caller's bits after the last pass.
fn key_out(key: u32) -> u32 {
    return from_ordered(key, (params.flags >> 16u) & 0xfu);
}

fn with_values() -> bool {
    return (params.flags & 1u) != 0u;
}

// DIGIT_MASK: the digit's bits where the sort orders by fewer than a whole digit of a word
// (RadixSort::with_key_bits: pipelines of their own), all of them otherwise. Each importing kernel
// declares it before its workgroup arrays: this file is appended after the kernel, and naga 30
// fails on overrides declared after an array whose size uses an override.
fn digit(key: u32) -> u32 {
    return (key >> params.shift) & (RADIX - 1u) & DIGIT_MASK;
}

fn group_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return (wid.z * nwg.y + wid.y) * nwg.x + wid.x;
}
