// The end of the `io` block of scan.wgsl for compaction by a predicate (compact.rs writes
// `fn keep(x: u32, i: u32) -> bool` from the user's expression before it): four elements tested
// at once from `values4`, then compaction's own io (compact.wgsl). Validated in the compaction's
// variants, not on its own.
fn keep4(q: u32) -> vec4<bool> {
    let x = values4[q];
    let i = 4u * q;
    return vec4(keep(x.x, i), keep(x.y, i + 1u), keep(x.z, i + 2u), keep(x.w, i + 3u));
}
#import compact::io
