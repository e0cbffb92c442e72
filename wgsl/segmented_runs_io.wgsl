// The `io` block of scan.wgsl for reduce-by-key (segmented.rs): segments start where keys
// change, and each run's key and result are stored at its index. Validated in the segmented
// family's variants.
const BY_KEYS = true;
const RUNS = true;
#import segmented::io
