#version 450
// Engine style: a layer picked from a sampler2DArray in a helper, the sizes in a uniform block.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform sampler2DArray layers;
layout(std140, binding = 2) uniform Extent { ivec4 extent; };
layout(std430, binding = 1) writeonly buffer Out { vec4 out_texels[]; };
vec4 layer_texel(sampler2DArray s, ivec2 p, int layer) {
    return texelFetch(s, ivec3(p, layer), 0);
}
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x < extent.x && p.y < extent.y) {
        out_texels[p.y * extent.x + p.x] = layer_texel(layers, p, extent.z - 1);
    }
}
