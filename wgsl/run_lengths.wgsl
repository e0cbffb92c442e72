// Run lengths from the index after each run (run_ends.wgsl): length r = after[r] - after[r - 1],
// and the run's key, its last; over the runs only (dispatched indirectly with the arguments the
// scan of run ends left).

#import shoal::fold

override WG: u32 = 256u;

// [runs, x, y, z].
@group(0) @binding(0) var<storage, read> run_args: array<u32>;
@group(0) @binding(1) var<storage, read> run_after: array<u32>;
@group(0) @binding(2) var<storage, read_write> lengths: array<u32>;
@group(0) @binding(3) var<storage, read> keys: array<u32>;
@group(0) @binding(4) var<storage, read_write> unique_keys: array<u32>;

@compute @workgroup_size(WG)
fn run_lengths(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let r = shoal_linear_index(wid, nwg, lid, WG);
    if r < run_args[0] {
        let after = run_after[r];
        lengths[r] = after - select(0u, run_after[max(r, 1u) - 1u], r > 0u);
        unique_keys[r] = keys[after - 1u];
    }
}
