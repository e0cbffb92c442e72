// Indirect-dispatch arguments for a next kernel, written on the GPU by the kernel that knows how
// many invocations it needs (compaction's count, run-length encoding's runs).

// [x, y, z] work groups for `total` invocations in work groups of `workgroup`, x folded over y
// beyond `max_groups_x` (the next kernel rebuilds its index with `shoal_linear_index` and checks
// it against `total`). No sum can overflow, whatever `total`.
fn dispatch_args(total: u32, workgroup: u32, max_groups_x: u32) -> vec3<u32> {
    let groups = total / workgroup + select(0u, 1u, total % workgroup != 0u);
    let x = min(groups, max_groups_x);
    return vec3(x, select(1u, (groups + x - 1u) / x, x > 0u), 1u);
}
