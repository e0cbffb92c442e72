#version 450
// An integer combined sampler read with texelFetch in a helper taking it.
layout(local_size_x = 64) in;
layout(binding = 0) uniform isampler2D offsets;
layout(std430, binding = 1) writeonly buffer Out { int gathered[]; };
int offset_at(isampler2D s, int i, int width) { return texelFetch(s, ivec2(i % width, i / width), 0).x; }
void main() {
    ivec2 size = textureSize(offsets, 0);
    int i = int(gl_GlobalInvocationID.x);
    if (i < size.x * size.y) gathered[i] = offset_at(offsets, i, size.x) * 2;
}
