// The `io` block of scan.wgsl for a segmented scan (segmented.rs): segments start at head flags,
// and every element's result is stored. Validated in the segmented family's variants.
const BY_KEYS = false;
const RUNS = false;
#import segmented::io
