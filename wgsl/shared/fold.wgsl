// Folding: when a 1D dispatch needs more work groups than MAX_COMPUTE_WORK_GROUP_COUNT allows in
// x, Shoal spreads them over y (and z). This rebuilds the linear invocation index from the
// work-group id, whatever the fold. Kernels still bound-check it: a fold may round up.
//
//   let i = shoal_linear_index(wid, nwg, lidx, WG_SIZE);
//   if i >= n { return; }

fn shoal_linear_index(wid: vec3<u32>, nwg: vec3<u32>, local_index: u32, group_invocations: u32) -> u32 {
    let group = (wid.z * nwg.y + wid.y) * nwg.x + wid.x;
    return group * group_invocations + local_index;
}
