// The `group_reduce` block of scan.wgsl where the adapter has no subgroup operations: a tree in
// shared memory, log2(WG) barriers. Validated in the scan's variants that use it.
fn group_reduce(x: T, lane: Lane) -> T {
    shared_data[lane.id] = x;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s >>= 1u) {
        if lane.id < s {
            shared_data[lane.id] = combine(shared_data[lane.id], shared_data[lane.id + s]);
        }
        workgroupBarrier();
    }
    let total = shared_data[0];
    workgroupBarrier();
    return total;
}
