#pragma once
// Engine-style texture helpers that take a combined image sampler.
vec4 sample_at(sampler2D s, ivec2 texel) {
    vec2 size = vec2(textureSize(s, 0));
    return textureLod(s, (vec2(texel) + 0.5) / size, 0.0);
}
float luminance(sampler2D s, ivec2 texel) {
    return dot(sample_at(s, texel).rgb, vec3(0.25, 0.5, 0.25));
}
