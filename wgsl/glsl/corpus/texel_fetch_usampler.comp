#version 450
// texelFetch on an unsigned combined image sampler.
layout(local_size_x = 16, local_size_y = 4) in;
layout(binding = 0) uniform usampler2D labels;
layout(std430, binding = 1) writeonly buffer Out { uint flat_labels[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = textureSize(labels, 0);
    if (p.x < size.x && p.y < size.y) {
        flat_labels[p.y * size.x + p.x] = texelFetch(labels, p, 0).r;
    }
}
