// The `group_reduce` block of scan.wgsl for a work group that is one subgroup: one subgroup
// operation, no shared memory. Validated in the scan's variants that use it.
fn group_reduce(x: T, lane: Lane) -> T { return subgroup_combine(x); }
