#version 430
// OpenGL 4.3 style: one step of the 2D wave equation, its constants as loose uniforms.
layout(local_size_x = 16, local_size_y = 16) in;
uniform float c2dt2;
uniform float damping;
uniform ivec2 grid;
layout(std430, binding = 0) readonly buffer Previous { float u_prev[]; };
layout(std430, binding = 1) readonly buffer Current { float u_curr[]; };
layout(std430, binding = 2) writeonly buffer Next { float u_next[]; };
float at(int x, int y) {
    x = clamp(x, 0, grid.x - 1);
    y = clamp(y, 0, grid.y - 1);
    return u_curr[y * grid.x + x];
}
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x >= grid.x || p.y >= grid.y) return;
    float lap = at(p.x - 1, p.y) + at(p.x + 1, p.y) + at(p.x, p.y - 1) + at(p.x, p.y + 1) - 4.0 * at(p.x, p.y);
    int i = p.y * grid.x + p.x;
    u_next[i] = (2.0 * u_curr[i] - u_prev[i] + c2dt2 * lap) * damping;
}
