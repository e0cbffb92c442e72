#version 450
// A shared histogram sized by an expression on a specialization constant (lodCount[MAX_LOD + 1]),
// fixed at translation from the options.
layout(local_size_x = 64) in;
layout(constant_id = 0) const int MAX_LOD = 3;
layout(std430, binding = 0) readonly buffer Lods { uint lods[]; };
layout(std430, binding = 1) buffer Counts { uint counts[]; };
shared uint lodCount[MAX_LOD + 1];
void main() {
    uint l = gl_LocalInvocationID.x;
    if (l < uint(MAX_LOD + 1)) {
        lodCount[l] = 0u;
    }
    barrier();
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(lods.length())) {
        atomicAdd(lodCount[min(lods[i], uint(MAX_LOD))], 1u);
    }
    barrier();
    if (l < uint(MAX_LOD + 1)) {
        atomicAdd(counts[l], lodCount[l]);
    }
}
