// The `wide` block of scan.wgsl for a value with no four-at-a-time type (vectors, structs): no
// `input4` or `output4`, and four elements folded from `input`. Validated in the scan's variants
// that use it.
fn fold4(i: u32) -> T {
    let b = 4u * i;
    return combine(combine(element(b, NO_SLOT), element(b + 1u, NO_SLOT)), combine(element(b + 2u, NO_SLOT), element(b + 3u, NO_SLOT)));
}
