// The work-group prefix sum of the OpenGL compute-shader lesson ("Parallel prefix sum"), as GLSL.
// Repairs against the seed text:
// - the seed's text is cut in two by the extraction (the loop's body ends after `rd_id` and the
//   rest of it follows a stray brace): the loop is whole again, `wr_id`, the accumulation and the
//   second barrier inside it;
// - the input and output arrays are runtime-sized (`[]`): the seed sizes them gl_WorkGroupSize.x
//   but reads and writes 2 x gl_WorkGroupSize.x elements;
// - 1024 invocations are 256, WebGPU's default limit on invocations per work group;
// - each work group scans its own 512 elements (the seed has one work group), offset by
//   gl_WorkGroupID.x * 512;
// - `uint(log2(gl_WorkGroupSize.x)) + 1` is the constant 9 (log2(256) + 1), and `1 << step` is
//   `1u << step` (uint operands);
// - the blocks are `std430` (the seed leaves the layout to the default).
#version 450 core

layout (local_size_x = 256) in;

layout (std430, binding = 0) coherent buffer block1
{
    float input_data[];
};

layout (std430, binding = 1) coherent buffer block2
{
    float output_data[];
};

shared float shared_data[gl_WorkGroupSize.x * 2];

void main(void)
{
    uint id = gl_LocalInvocationID.x;
    uint base = gl_WorkGroupID.x * gl_WorkGroupSize.x * 2u;
    uint rd_id;
    uint wr_id;
    uint mask;

    // The number of steps is the log base 2 of the
    // work group size, which should be a power of 2
    const uint steps = 9u;
    uint step = 0u;

    // Each invocation is responsible for the content of
    // two elements of the output array
    shared_data[id * 2u] = input_data[base + id * 2u];
    shared_data[id * 2u + 1u] = input_data[base + id * 2u + 1u];

    // Synchronize to make sure that everyone has initialized
    // their elements of shared_data[] with data loaded from
    // the input arrays
    barrier();
    memoryBarrierShared();

    // For each step...
    for (step = 0u; step < steps; step++)
    {
        // Calculate the read and write index in the
        // shared array
        mask = (1u << step) - 1u;
        rd_id = ((id >> step) << (step + 1u)) + mask;
        wr_id = rd_id + 1u + (id & mask);

        // Accumulate the read data into our element
        shared_data[wr_id] += shared_data[rd_id];

        // Synchronize again to make sure that everyone
        // has caught up with us
        barrier();
        memoryBarrierShared();
    }

    // Finally write our data back to the output image
    output_data[base + id * 2u] = shared_data[id * 2u];
    output_data[base + id * 2u + 1u] = shared_data[id * 2u + 1u];
}
