// Run lengths from the index after each run (run_ends.wgsl): length r = after[r] - after[r - 1],
// and the run's key, its last; over the runs only. `run_lengths`, dispatched indirectly with the
// arguments the scan of run ends left, takes the runs four at a time: their ends load as one
// vec4 and their lengths and keys store as vec4s, since a software adapter pays for every load
// and store lane by lane (faster than one run per invocation on SwiftShader). `run_tail`, one
// invocation, takes the last runs' remainder of four one by one, through scalar views of the outputs: a dispatch may not write a buffer through two
// bindings, and an output's length need not be a multiple of four.

#import shoal::fold

override WG: u32 = 256u;

// [runs, x, y, z].
@group(0) @binding(0) var<storage, read> run_args: array<u32>;
@group(0) @binding(1) var<storage, read> run_after: array<u32>;
@group(0) @binding(2) var<storage, read> keys: array<u32>;
// `run_after` as vec4s.
@group(0) @binding(3) var<storage, read> run_after4: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> lengths4: array<vec4<u32>>;
@group(0) @binding(5) var<storage, read_write> unique_keys4: array<vec4<u32>>;
@group(0) @binding(6) var<storage, read_write> lengths: array<u32>;
@group(0) @binding(7) var<storage, read_write> unique_keys: array<u32>;

// The index after run r - 1: where run r starts.
fn run_start(r: u32) -> u32 {
    return select(0u, run_after[max(r, 1u) - 1u], r > 0u);
}

// Runs 4q .. 4q + 3, for every q < runs / 4.
@compute @workgroup_size(WG)
fn run_lengths(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let q = shoal_linear_index(wid, nwg, lid, WG);
    if q < run_args[0] / 4u {
        let after = run_after4[q];
        lengths4[q] = after - vec4(run_start(4u * q), after.xyz);
        unique_keys4[q] = vec4(keys[after.x - 1u], keys[after.y - 1u], keys[after.z - 1u],
                               keys[after.w - 1u]);
    }
}

// The runs past the last whole four, one by one.
@compute @workgroup_size(1)
fn run_tail() {
    let runs = run_args[0];
    for (var r = runs & ~3u; r < runs; r++) {
        let after = run_after[r];
        lengths[r] = after - run_start(r);
        unique_keys[r] = keys[after - 1u];
    }
}
