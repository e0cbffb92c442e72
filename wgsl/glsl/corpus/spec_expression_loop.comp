#version 450
// API-sample style: a loop bounded by arithmetic on specialization constants.
layout(local_size_x = 32) in;
layout(constant_id = 0) const uint totalCount = 64;
layout(constant_id = 1) const uint LANES = 4;
layout(std430, binding = 0) readonly buffer In { uint data[]; };
layout(std430, binding = 1) writeonly buffer Out { uint quads[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < totalCount / LANES) {
        uint sum = 0u;
        for (uint k = 0u; k < LANES; k++) {
            sum += data[i * LANES + k];
        }
        quads[i] = sum;
    }
}
