// The `io` block of scan.wgsl for compaction by flags (compact.rs): an element is kept where its
// flag is not 0, then compaction's own io (compact.wgsl). Validated in the compaction's
// variants, not on its own.
fn keep(x: u32, i: u32) -> bool {
    return flags[i] != 0u;
}
fn keep4(q: u32) -> vec4<bool> {
    return flags4[q] != vec4(0u);
}
#import compact::io
