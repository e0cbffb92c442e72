#version 450
// Engine style: Sobel edges from a combined sampler through an included luminance helper.
#extension GL_GOOGLE_include_directive : require
#include "include/sampling.glsl"
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform sampler2D color_input;
layout(rgba8, binding = 1) writeonly uniform image2D edges;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = textureSize(color_input, 0);
    if (p.x >= size.x || p.y >= size.y) return;
    float gx = 0.0, gy = 0.0;
    for (int dy = -1; dy <= 1; dy++) {
        for (int dx = -1; dx <= 1; dx++) {
            float l = luminance(color_input, clamp(p + ivec2(dx, dy), ivec2(0), size - 1));
            gx += float(dx) * (dy == 0 ? 2.0 : 1.0) * l;
            gy += float(dy) * (dx == 0 ? 2.0 : 1.0) * l;
        }
    }
    imageStore(edges, p, vec4(vec3(length(vec2(gx, gy))), 1.0));
}
