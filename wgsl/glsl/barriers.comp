// Not a seed program: every GLSL barrier function in one kernel, which must build and run on
// every adapter (glslang's memory barriers reach WGSL as storage, texture and work-group
// barriers; none of them a subgroup barrier). A reversal through shared memory checks it ran.
#version 450
layout(local_size_x = 64) in;
shared uint s[64];
layout(std430, binding = 0) buffer Values { uint v[]; };
void main() {
    s[gl_LocalInvocationIndex] = v[gl_LocalInvocationIndex];
    barrier();
    memoryBarrierShared();
    memoryBarrier();
    memoryBarrierBuffer();
    memoryBarrierImage();
    groupMemoryBarrier();
    v[gl_LocalInvocationIndex] = s[63u - gl_LocalInvocationIndex];
}
