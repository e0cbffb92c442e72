// The `group` block of scan.wgsl for a work group that is one subgroup (WG = the subgroup size),
// which the scan's tiling chooses where the adapter has subgroups (scan/kernels.rs): elements
// are ordered by subgroup lane, the work-group scan is Hillis-Steele over subgroup shuffles, and
// nothing waits at a barrier. Validated in the scan's variants that use it, not on its own.
fn rank(lane: Lane) -> u32 { return lane.sg_id; }
fn group_scan(x: T, lane: Lane) -> T {
    var inclusive = x;
    for (var d = 1u; d < WG; d <<= 1u) {
        let below = subgroupShuffleUp(inclusive, d);
        if lane.sg_id >= d {
            inclusive = combine(below, inclusive);
        }
    }
    group_total = subgroupShuffle(inclusive, WG - 1u);
    let before = subgroupShuffleUp(inclusive, 1u);
    return select(before, identity(), lane.sg_id == 0u);
}
fn first_u32(x: u32, lane: Lane) -> u32 { return subgroupBroadcast(x, 0u); }
fn first_t(x: T, lane: Lane) -> T { return subgroupBroadcast(x, 0u); }
fn group_sync() {}
