#version 450
// Engine style: a combined sampler and push constants together, the lookup in a helper.
layout(local_size_x = 64) in;
layout(push_constant) uniform Lookup { vec2 uv_scale; uint count; };
layout(set = 0, binding = 0) uniform sampler2D lut;
layout(std430, set = 0, binding = 1) buffer Values { vec4 values[]; };
vec4 lookup(sampler2D table, vec2 uv) { return textureLod(table, uv * uv_scale, 0.0); }
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < count) values[i] = lookup(lut, values[i].xy);
}
