// The addendum's variant of the particle splat: R21G22B21 in one 64-bit atomic add, where the
// adapter has 64-bit atomics (SHADER_INT64_ATOMIC_ALL_OPS). A file of its own because a module
// that mentions atomic<u64> at all cannot be created on an adapter without them.
//
// The 8 bytes per pixel are the 2 x u32 path's [lo, hi] words (little-endian: low word = lo), so
// the composite and the CPU twin unpack both the same way.

#import splat::common
#import shoal::fold

@group(0) @binding(4) var<storage, read_write> accum: array<atomic<u64>>;

override WG: u32 = 256;

// The 64-bit splat: the entry point of splat_entry.wgsl, adding with `splat_add` below.
#import splat::entry(splat_u64)

// Adds fragment `f`'s colour to its pixel in one 64-bit atomic add.
fn splat_add(f: Fragment) {
    let value = (u64(f.color.r) << 43u) | (u64(f.color.g) << 21u) | u64(f.color.b);
    atomicAdd(&accum[f.status], value);
}
