#version 450
// API-sample style: parameters in a std140 uniform block with a struct.
layout(local_size_x = 64) in;
struct Range { float lo; float hi; };
layout(std140, set = 0, binding = 0) uniform Params {
    Range clamp_range;
    vec4 weights;
    uint count;
} params;
layout(std430, set = 0, binding = 1) buffer Data { vec4 data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= params.count) return;
    float w = dot(data[i], params.weights);
    data[i] = vec4(clamp(w, params.clamp_range.lo, params.clamp_range.hi));
}
