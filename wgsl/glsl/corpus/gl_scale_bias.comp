#version 430
// OpenGL 4.3 style: `uniform` values set with glUniform, here one block bound as `uniforms`.
layout(local_size_x = 64) in;
layout(location = 0) uniform float scale;
layout(location = 1) uniform float bias;
layout(location = 2) uniform uint count;
layout(std430, binding = 0) buffer Data { float data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < count) {
        data[i] = data[i] * scale + bias;
    }
}
