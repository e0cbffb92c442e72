#version 450
// Engine style: helpers from a guarded include that includes another.
#extension GL_GOOGLE_include_directive : require
#include "include/math.glsl"
#include "include/math.glsl"
layout(local_size_x = 64) in;
layout(std430, binding = 0) writeonly buffer Out { uint hashes[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(hashes.length())) {
        hashes[i] = rotate_left(hash_u32(i), 5u);
    }
}
