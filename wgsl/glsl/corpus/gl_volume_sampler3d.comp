#version 430
// OpenGL 4.3 style: a loose sampler3D beside a loose time uniform, sampled along a ray.
layout(local_size_x = 64) in;
layout(binding = 0) uniform sampler3D volume;
uniform float time;
uniform uint steps;
layout(std430, binding = 1) writeonly buffer Out { float density[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(density.length())) return;
    float sum = 0.0;
    for (uint s = 0u; s < steps; s++) {
        vec3 uvw = vec3(float(i) / float(density.length()), float(s) / float(steps), fract(time));
        sum += textureLod(volume, uvw, 0.0).r;
    }
    density[i] = sum;
}
