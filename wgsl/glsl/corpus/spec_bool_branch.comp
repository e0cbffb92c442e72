#version 450
// API-sample style: a boolean specialization constant choosing a path.
layout(local_size_x = 64) in;
layout(constant_id = 0) const bool SQUARE = true;
layout(constant_id = 1) const uint OFFSET = 1;
layout(std430, binding = 0) buffer Data { uint data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(data.length())) return;
    data[i] = SQUARE ? data[i] * data[i] : data[i] + OFFSET;
}
