#version 450
// API-sample style: y = A * x + y with A a specialization constant.
layout(local_size_x = 64) in;
layout(constant_id = 0) const float A = 2.0;
layout(std430, set = 0, binding = 0) readonly buffer X { float x[]; };
layout(std430, set = 0, binding = 1) buffer Y { float y[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(y.length())) {
        y[i] = A * x[i] + y[i];
    }
}
