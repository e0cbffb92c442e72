#version 450
// API-sample style: the work-group size from a specialization constant (local_size_x_id), a
// shared array sized by gl_WorkGroupSize.x, a tree reduction per work group.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint GROUP = 64;
layout(std430, binding = 0) readonly buffer In { uint values[]; };
layout(std430, binding = 1) writeonly buffer Out { uint sums[]; };
shared uint partial[gl_WorkGroupSize.x];
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    partial[l] = i < uint(values.length()) ? values[i] : 0u;
    barrier();
    for (uint stride = gl_WorkGroupSize.x / 2u; stride > 0u; stride /= 2u) {
        if (l < stride) {
            partial[l] += partial[l + stride];
        }
        barrier();
    }
    if (l == 0u) {
        sums[gl_WorkGroupID.x] = partial[0];
    }
}
