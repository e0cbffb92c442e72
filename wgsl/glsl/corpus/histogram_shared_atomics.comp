#version 450
// A 16-bin histogram in shared memory, added to the global one with atomics.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint samples[]; };
layout(std430, binding = 1) buffer Bins { uint bins[]; };
shared uint local_bins[16];
void main() {
    uint l = gl_LocalInvocationID.x;
    if (l < 16u) local_bins[l] = 0u;
    barrier();
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(samples.length())) {
        atomicAdd(local_bins[samples[i] & 15u], 1u);
    }
    barrier();
    if (l < 16u) atomicAdd(bins[l], local_bins[l]);
}
