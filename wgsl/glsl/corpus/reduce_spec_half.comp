#version 450
// API-sample style: strides from arithmetic on specialization constants inside the loop.
layout(local_size_x = 128) in;
layout(constant_id = 0) const uint ITEMS = 4;
layout(constant_id = 1) const uint GROUPS = 2;
layout(std430, binding = 0) buffer Data { float data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint span = ITEMS * GROUPS;
    uint half_span = span / 2u;
    if (i * span + half_span < uint(data.length())) {
        for (uint k = 0u; k < half_span; k++) {
            data[i * span + k] += data[i * span + half_span + k];
        }
    }
}
