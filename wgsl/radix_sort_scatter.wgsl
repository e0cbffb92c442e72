// The scatter kernels of radix_sort_lanes.wgsl, written once for its four, which differ only in
// what they read and store (`EACH_OWN`, an invocation's keys visited by radix_sort::each_own):
//
//     #import radix_sort::scatter(scatter, place_keys_own)
//
// An instantiation per kind of output rather than a branch per key, which software adapters pay
// for in every lane; rather than a `#block` filled from Rust, which would make one kernel per
// composition and give them all one entry-point name, every kernel stands in the composed file
// (and check-wgsl validates each).
//
// params: ENTRY_NAME EACH_OWN
// It relies on radix_sort_lanes.wgsl's definitions, so it is validated where imported.

@compute @workgroup_size(WG)
fn ENTRY_NAME(@builtin(local_invocation_index) id: u32, @builtin(workgroup_id) wid: vec3<u32>,
              @builtin(num_workgroups) nwg: vec3<u32>) {
    let tile = group_index(wid, nwg);
    if tile >= params.tiles {
        return;
    }
    decode_flags();
    first_places(tile, id);
    EACH_OWN(own_keys(tile, id), id);
}
