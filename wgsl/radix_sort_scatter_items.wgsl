// The scatter of items of radix_sort_lanes.wgsl, written once for its two kernels, which differ
// only in their store (`STORE_VEC4` for two items of a vec4, `STORE_ITEM` for one):
//
//     #import radix_sort::scatter_items(scatter_items, place_items4, place_item)
//     #import radix_sort::scatter_items(scatter_unzip, place_pairs4, place_pair)
//
// items to items, and items to key and value words (the last pass of pairs). An instantiation
// per store rather than a branch per key, which software adapters pay for in every lane; rather
// than a `#block` filled from Rust, which would make one kernel per composition and give both
// the same entry-point name, both kernels stand in the file as written (and check-wgsl validates
// both).
//
// params: ENTRY_NAME STORE_VEC4 STORE_ITEM
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
    let own = own_keys(tile, id);
    var q = own.x / 2u;
    for (; q + 2u <= own.y / 2u; q += 2u) {
        STORE_VEC4(q, id);
        STORE_VEC4(q + 1u, id);
    }
    if q < own.y / 2u {
        STORE_VEC4(q, id);
    }
    if odd_item(own) {
        STORE_ITEM(last_item(own), id);
    }
}
