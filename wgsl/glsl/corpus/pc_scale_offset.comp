#version 450
// API-sample style: per-dispatch parameters in a push-constant block, a specialization constant
// for the work-group size.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WORKGROUP = 64;
layout(push_constant) uniform Params {
    float scale;
    float offset;
    uint count;
} params;
layout(std430, set = 0, binding = 0) buffer Data { float data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < params.count) {
        data[i] = data[i] * params.scale + params.offset;
    }
}
