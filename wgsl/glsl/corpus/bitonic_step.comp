#version 450
// A bitonic sort step, its stage parameters in a uniform block.
layout(local_size_x = 64) in;
layout(std140, binding = 0) uniform Stage { uint j; uint k; } stage;
layout(std430, binding = 1) buffer Keys { uint keys[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint partner = i ^ stage.j;
    if (partner > i && partner < uint(keys.length())) {
        bool up = (i & stage.k) == 0u;
        uint a = keys[i], b = keys[partner];
        if ((a > b) == up) { keys[i] = b; keys[partner] = a; }
    }
}
