// The shift-by-one through shared memory of the OpenGL compute-shader lesson ("Synchronization"), as GLSL.
// Repairs against the seed text:
// - the race's fix is in place: `barrier(); memoryBarrierShared();` uncommented;
// - `uimageBuffer` image_in / image_out (texel buffers, which WebGPU lacks) are storage buffers
//   `values` / `shifted`, read and written with `[]` instead of imageLoad / imageStore;
// - 1024 invocations and `& 1023` are 256 and `& 255`: WebGPU's default limit on invocations per
//   work group (a specialization constant cannot size the work group, see docs/porting.md);
// - each work group shifts its own 256 values (the seed has one work group): indices are offset
//   by gl_WorkGroupID.x * 256.
#version 450 core

layout (local_size_x = 256) in;

layout (std430, binding = 0) readonly buffer Values { uint values[]; };
layout (std430, binding = 1) writeonly buffer Shifted { uint shifted[]; };

shared uint temp_storage[256];

void main(void)
{
    uint base = gl_WorkGroupID.x * 256u;

    // Load from the input buffer
    uint n = values[base + gl_LocalInvocationID.x];

    // Store into shared storage
    temp_storage[gl_LocalInvocationID.x] = n;

    // The race condition avoided
    barrier();
    memoryBarrierShared();

    // Read the data written by the invocation 'to the left'
    n = temp_storage[(gl_LocalInvocationID.x - 1u) & 255u];

    // Write new data into the buffer
    shifted[base + gl_LocalInvocationID.x] = n;
}
