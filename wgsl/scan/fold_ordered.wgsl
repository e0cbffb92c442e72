// The `fold` block of scan.wgsl for an operator that may not be commutative (a user's
// Operator): each invocation folds its own PER contiguous elements, and the work group combines
// them in order with its scan, whose total every invocation gets. One work-group scan per tile,
// where the commutative fold pays one reduction per SPAN tiles. Validated in the scan's variants
// that use it.
fn fold_tiles(first: u32, last: u32, lane: Lane) -> T {
    var acc = identity();
    for (var t = first; t < last; t++) {
        // #block mine_rolled
        // Above 64 elements per invocation (the `own` block in loops): the rolled `load_own`,
        // which keeps nothing and takes whole chunks several per loop iteration. One element
        // per iteration, each behind its own test, was slower on all three software adapters:
        // a branch costs every lane there.
        let mine = load_own(t, rank(lane));
        // #end mine_rolled
        // #block mine_unrolled
        // Up to 64 (the `own` block unrolled): the same loads one element at a time, without
        // touching `own`.
        let start = own_start(t, rank(lane));
        var mine = identity();
        for (var j = 0u; j < PER; j++) {
            if start + j < params.n {
                mine = combine(mine, element(start + j, NO_SLOT));
            }
        }
        // #end mine_unrolled
        group_scan(mine, lane);
        acc = combine(acc, group_total);
        group_sync();
    }
    return acc;
}
