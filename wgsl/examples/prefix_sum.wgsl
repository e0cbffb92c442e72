// The work-group prefix sum of the OpenGL compute-shader lesson: each work group of WG invocations scans
// 2 x WG values in shared memory, log2(2 x WG) steps with a barrier after each. Inclusive sums,
// one per tile of 2 x WG values.

const WG: u32 = 64u;

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;

var<workgroup> shared_data: array<u32, 128>;

@compute @workgroup_size(WG)
fn prefix_sum(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let id = lid.x;
    let base = wid.x * 2u * WG;
    let n = arrayLength(&input);
    shared_data[2u * id] = select(0u, input[min(base + 2u * id, n - 1u)], base + 2u * id < n);
    shared_data[2u * id + 1u] = select(0u, input[min(base + 2u * id + 1u, n - 1u)], base + 2u * id + 1u < n);
    workgroupBarrier();
    let steps = firstTrailingBit(WG) + 1u;
    for (var step = 0u; step < steps; step++) {
        let mask = (1u << step) - 1u;
        let rd_id = ((id >> step) << (step + 1u)) + mask;
        let wr_id = rd_id + 1u + (id & mask);
        shared_data[wr_id] += shared_data[rd_id];
        workgroupBarrier();
    }
    for (var k = 0u; k < 2u; k++) {
        if base + 2u * id + k < n {
            output[base + 2u * id + k] = shared_data[2u * id + k];
        }
    }
}
