// The `total` block of histogram.wgsl with either counter per bin and invocation
// (histogram_lane_bins.wgsl, histogram_private_bins.wgsl): a bin's counters of every invocation.
// Validated in the histogram's variants that use it, not on its own.
fn total(bin: u32) -> u32 {
    var c = 0u;
    for (var l = 0u; l < WG; l++) {
        c += sh_bins[bin * WG + l];
    }
    return c;
}
