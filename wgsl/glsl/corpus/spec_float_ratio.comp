#version 450
// API-sample style: float specialization constants combined at run time.
layout(local_size_x = 64) in;
layout(constant_id = 0) const float NUMERATOR = 1.0;
layout(constant_id = 1) const float DENOMINATOR = 3.0;
layout(std430, binding = 0) buffer Data { float data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(data.length())) data[i] *= NUMERATOR / DENOMINATOR;
}
