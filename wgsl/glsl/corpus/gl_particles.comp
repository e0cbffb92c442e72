#version 430
// OpenGL 4.3 style: loose uniforms, positions and velocities integrated by one step.
layout(local_size_x = 128) in;
uniform float dt;
uniform vec4 gravity;
layout(std430, binding = 0) buffer Positions { vec4 pos[]; };
layout(std430, binding = 1) buffer Velocities { vec4 vel[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(pos.length())) return;
    vec4 v = vel[i] + gravity * dt;
    pos[i] += v * dt;
    vel[i] = v;
}
