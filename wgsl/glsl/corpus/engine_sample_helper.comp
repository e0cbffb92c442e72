#version 450
// Engine style: a combined image sampler passed to helper functions from an include.
#extension GL_GOOGLE_include_directive : require
#include "include/sampling.glsl"
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) uniform sampler2D source_image;
layout(std430, set = 0, binding = 1) writeonly buffer Out { vec4 texels[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = textureSize(source_image, 0);
    if (p.x < size.x && p.y < size.y) {
        texels[p.y * size.x + p.x] = sample_at(source_image, p) * 2.0;
    }
}
