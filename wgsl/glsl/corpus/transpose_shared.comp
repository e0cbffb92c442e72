#version 450
// A matrix transpose through a padded shared tile.
layout(local_size_x = 16, local_size_y = 16) in;
layout(std430, binding = 0) readonly buffer In { float src[]; };
layout(std430, binding = 1) writeonly buffer Out { float dst[]; };
layout(std140, binding = 2) uniform Shape { uint width; uint height; } shape;
shared float tile[16][17];
void main() {
    uvec2 g = gl_WorkGroupID.xy * 16u;
    uvec2 l = gl_LocalInvocationID.xy;
    uint x = g.x + l.x, y = g.y + l.y;
    if (x < shape.width && y < shape.height) tile[l.y][l.x] = src[y * shape.width + x];
    barrier();
    uint tx = g.y + l.x, ty = g.x + l.y;
    if (tx < shape.height && ty < shape.width) dst[ty * shape.height + tx] = tile[l.x][l.y];
}
