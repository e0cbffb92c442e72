// The benchmarks' yardstick (crates/shoal-bench/src/copy.rs): every primitive's time is shown as a
// ratio to this kernel copying the same bytes, 16 per invocation. It is pinned by a test on this
// exact text, so it cannot be made slower to flatter the ratios.
#import shoal::fold

@group(0) @binding(0) var<storage, read> src: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4<u32>>;

@compute @workgroup_size(256)
fn copy(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let i = shoal_linear_index(wid, nwg, lid, 256u);
    if i < arrayLength(&src) { dst[i] = src[i]; }
}
