// The OpenGL compute-shader lesson's parallel prefix sum over shared memory, as one function every family
// imports (`#import scan::document`). The importing module provides:
//   T                  the element type (`alias T = u32;`),
//   combine(a, b)      the associative operation,
//   WG                 the invocations per work group (a power of two),
//   shared_data        `var<workgroup> shared_data: array<T, 2u * WG>;`.
// Each invocation has stored shared_data[2 id] and shared_data[2 id + 1]; afterwards
// shared_data holds their inclusive scan, after log2(2 x WG) steps with a barrier after each.

fn scan_shared(id: u32) {
    workgroupBarrier();
    // log2(2 x WG) steps; WG is a power of two.
    let steps = firstTrailingBit(WG) + 1u;
    for (var step = 0u; step < steps; step++) {
        let mask = (1u << step) - 1u;
        let rd_id = ((id >> step) << (step + 1u)) + mask;
        let wr_id = rd_id + 1u + (id & mask);
        shared_data[wr_id] = combine(shared_data[rd_id], shared_data[wr_id]);
        workgroupBarrier();
    }
}
