// Indirect dispatch sized by the GPU: `plan` counts the positive values and writes that many
// invocations' worth of work groups of 64 into `args`; `work`, dispatched from `args`, counts the
// invocations that ran.

@group(0) @binding(0) var<storage, read> values: array<i32>;
@group(0) @binding(1) var<storage, read_write> args: array<u32, 3>;
@group(0) @binding(2) var<storage, read_write> ran: atomic<u32>;

@compute @workgroup_size(1)
fn plan() {
    var positive = 0u;
    for (var i = 0u; i < arrayLength(&values); i++) {
        positive += select(0u, 1u, values[i] > 0);
    }
    args = array<u32, 3>((positive + 63u) / 64u, 1u, 1u);
}

@compute @workgroup_size(64)
fn work() {
    atomicAdd(&ran, 1u);
}
