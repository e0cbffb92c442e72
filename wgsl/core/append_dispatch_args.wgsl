// Turns an append buffer's count into indirect dispatch arguments on the GPU, so the dispatch
// that consumes what was appended sizes itself without a readback
// (`AppendBuffer::record_dispatch_args`).

// The append buffer's header: count (i32 bits), capacity, padding.
@group(0) @binding(0) var<storage, read> header: array<u32, 4>;
// x: items per work group, y: MAX_COMPUTE_WORK_GROUP_COUNT in x.
@group(0) @binding(1) var<uniform> params: vec4<u32>;

struct DispatchArgs { x: u32, y: u32, z: u32 }
@group(0) @binding(2) var<storage, read_write> args: DispatchArgs;

@compute @workgroup_size(1)
fn append_dispatch_args() {
    // An overflowed buffer holds `capacity` items; one drained past empty holds none.
    let count = min(u32(max(bitcast<i32>(header[0]), 0)), header[1]);
    let groups = (count + params.x - 1u) / params.x;
    // Folded over y beyond the per-dimension limit, as Dispatch::invocations folds; a count of
    // zero gives x = 0, a dispatch that does nothing.
    let x = min(groups, params.y);
    let y = select(1u, (groups + x - 1u) / max(x, 1u), x > 0u);
    args = DispatchArgs(x, y, 1u);
}
