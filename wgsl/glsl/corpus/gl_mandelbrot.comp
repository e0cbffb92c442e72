#version 430
// OpenGL 4.3 style: loose uniforms for the view, a formatless output image whose format the
// translation options give (rgba8).
layout(local_size_x = 16, local_size_y = 16) in;
uniform vec2 center;
uniform float zoom;
uniform int max_iterations;
layout(binding = 0) writeonly uniform image2D fractal;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = imageSize(fractal);
    if (p.x >= size.x || p.y >= size.y) return;
    vec2 c = center + (vec2(p) / vec2(size) - 0.5) * zoom;
    vec2 z = vec2(0.0);
    int n = 0;
    for (; n < max_iterations && dot(z, z) < 4.0; n++) {
        z = vec2(z.x * z.x - z.y * z.y, 2.0 * z.x * z.y) + c;
    }
    imageStore(fractal, p, vec4(vec3(float(n) / float(max_iterations)), 1.0));
}
