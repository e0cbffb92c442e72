// The splat kernels' entry point, written once for splat.wgsl (2 x u32) and splat_int64.wgsl
// (one 64-bit atomic add), which differ only in how they add a fragment's colour: each file
// defines `splat_add(f: Fragment)` and instantiates this one with its kernel's name,
// `#import splat::entry(splat_u32)` or `#import splat::entry(splat_u64)`.
//
// params: SPLAT_ENTRY
// It relies on its importer's `WG`, `splat_add`, `splat::common` and `shoal::fold`, so it is
// validated where imported.

@compute @workgroup_size(WG)
fn SPLAT_ENTRY(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lidx: u32,
) {
    let i = shoal_linear_index(wid, nwg, lidx, WG);
    if i >= arrayLength(&particles) {
        return;
    }
    let f = splat_fragment(i);
    if f.status >= SPLAT_HIDDEN {
        return;
    }
    splat_add(f);
}
