#version 310 es
// Atomic operations on SSBOs and shared memory of ARM's OpenGL ES introduction, as GLSL.
// Repairs against the seed text (a fragment whose results are never seen):
// - `#version 310 es` (first in the file, as ES wants) and `layout(local_size_x = 64) in;`:
//   the seed's fragment has neither;
// - the shared counter starts at 0 (invocation 0 stores it, then `barrier()`), and after a second
//   `barrier()` invocation 0 writes it to `variables[0]`, so its sum is seen;
// - each invocation also writes what atomicAdd returned to `previous[]`, so every old value
//   is seen: per work group they are 0, 42, 84, … in some order;
// - `atomicMax(variables[12], 11u)` is as written.
layout(local_size_x = 64) in;

shared uint sharedVariable;
layout(std430, binding = 0) buffer SSBO {
    uint variables[];
};
layout(std430, binding = 1) writeonly buffer Previous {
    uint previous[];
};

void main()
{
    if (gl_LocalInvocationIndex == 0u) {
        sharedVariable = 0u;
    }
    barrier();
    uint previousShared = atomicAdd(sharedVariable, 42u);
    uint previousSSBO = atomicMax(variables[12], 11u);
    previous[gl_GlobalInvocationID.x] = previousShared;
    barrier();
    if (gl_LocalInvocationIndex == 0u) {
        atomicAdd(variables[0], sharedVariable);
    }
}
