// The `bins` block of histogram.wgsl for adapters whose shared atomics are slow (histogram.rs
// chooses it for SwiftShader): a counter per bin and invocation, bin-major so the merge reads
// each bin's counters in a row (histogram_lane_total.wgsl, the `total` block). Software adapters
// run a shared atomic lane by lane, a loop that costs more than the plain increment. Validated in
// the histogram's variants that use it, not on its own.
var<workgroup> sh_bins: array<u32, BINS * WG>;

fn count(bin: u32, id: u32) {
    sh_bins[bin * WG + id] += 1u;
}

fn publish(id: u32) {}
