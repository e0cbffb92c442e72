// Coverage of a folded 1D dispatch: every index below n is visited exactly once, whatever the
// fold of the work groups over x, y and z. Uses the shared helper that rebuilds the index.

#import shoal::fold

const WG: u32 = 64u;

@group(0) @binding(0) var<storage, read_write> visits: array<atomic<u32>>;
@group(0) @binding(1) var<uniform> n: u32;

@compute @workgroup_size(WG)
fn visit(
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) nwg: vec3<u32>,
    @builtin(local_invocation_index) lidx: u32,
) {
    let i = shoal_linear_index(wid, nwg, lidx, WG);
    if i >= n {
        return;
    }
    atomicAdd(&visits[i], 1u);
}
