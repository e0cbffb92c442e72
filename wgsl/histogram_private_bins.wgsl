// The `bins` block of histogram.wgsl for llvmpipe (lavapipe, and GL): each invocation counts in
// an array of its own (of MAX_PRIVATE_BINS in histogram.rs, the most bins it takes: WGSL wants
// the size constant), then `publish` copies it into the layout of histogram_lane_bins.wgsl for
// the merge (histogram_lane_total.wgsl). llvmpipe reads and writes shared memory one invocation
// at a time, and an invocation's own array for all of a vector's invocations at once.
// Validated in the histogram's variants that use it, not on its own.
var<workgroup> sh_bins: array<u32, BINS * WG>;
var<private> own_bins: array<u32, 256>;

fn count(bin: u32, id: u32) {
    own_bins[bin] += 1u;
}

fn publish(id: u32) {
    for (var b = 0u; b < BINS; b++) {
        sh_bins[b * WG + id] = own_bins[b];
    }
}
