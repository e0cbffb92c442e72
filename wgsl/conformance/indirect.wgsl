// Indirect dispatch (ARB_compute_shader, DispatchComputeIndirect): one kernel writes the group
// counts, the next runs with them. `count_groups` counts the work groups that actually ran.

// The arguments are plain words, so they can sit at any 4-byte offset of the buffer.
@group(0) @binding(0) var<storage, read_write> args: array<u32>;
@group(0) @binding(1) var<uniform> wanted: vec4<u32>; // x, y, z, first word

@compute @workgroup_size(1)
fn write_args() {
    args[wanted.w] = wanted.x;
    args[wanted.w + 1u] = wanted.y;
    args[wanted.w + 2u] = wanted.z;
}

@group(0) @binding(2) var<storage, read_write> ran: array<atomic<u32>>;

@compute @workgroup_size(8)
fn count_groups(@builtin(local_invocation_index) lidx: u32) {
    if lidx == 0u {
        atomicAdd(&ran[0], 1u);
    }
    atomicAdd(&ran[1], 1u);
}
