// `infinity()`, the identity of an f32 minimum: WGSL has no literal for infinity, and browsers
// reject one made by constant evaluation (`bitcast<f32>(0x7f800000u)`), so its bits are read
// from a private variable. Put before the value type of f32 scans (value.rs) and in the
// segmented f32 operators (segmented.rs).
var<private> infinity_bits: u32 = 0x7f800000u;
fn infinity() -> f32 { return bitcast<f32>(infinity_bits); }
