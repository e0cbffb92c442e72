// Indirect-dispatch arguments for a next kernel, written on the GPU by the kernel that knows how
// many invocations it needs (compaction's count, run-length encoding's runs).

// The kernel the arguments are for, as a uniform.
struct NextKernel {
    // Its work-group size (compaction: 0 for no arguments).
    workgroup: u32,
    // MAX_COMPUTE_WORK_GROUP_COUNT.x: arguments fold over y beyond it.
    max_groups_x: u32,
    unused0: u32,
    unused1: u32,
}

// [x, y, z] work groups for `total` invocations of `next`, x folded over y beyond
// `max_groups_x` (the next kernel rebuilds its index with `shoal_linear_index` and checks it
// against `total`). No sum can overflow, whatever `total`.
fn dispatch_args(total: u32, next: NextKernel) -> vec3<u32> {
    let groups = total / next.workgroup + select(0u, 1u, total % next.workgroup != 0u);
    let x = min(groups, next.max_groups_x);
    let y = select(1u, groups / max(x, 1u) + select(0u, 1u, groups % max(x, 1u) != 0u), x > 0u);
    return vec3(x, y, 1u);
}
