#version 450
// Engine style: a depth comparison through a sampler2DShadow (sampled where declared: a shadow
// sampler passed to a function is refused, see docs/glsl.md).
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform sampler2DShadow shadow_map;
layout(std430, binding = 1) writeonly buffer Lit { float lit[]; };
vec2 texel_center(ivec2 p, ivec2 size) { return (vec2(p) + 0.5) / vec2(size); }
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec2 size = textureSize(shadow_map, 0);
    if (p.x < size.x && p.y < size.y) {
        lit[p.y * size.x + p.x] = textureLod(shadow_map, vec3(texel_center(p, size), 0.5), 0.0);
    }
}
