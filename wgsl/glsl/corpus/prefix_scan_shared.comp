#version 450
// A Hillis-Steele inclusive scan of each work group's 256 values in shared memory.
layout(local_size_x = 256) in;
layout(std430, binding = 0) buffer Data { uint data[]; };
shared uint scan[256];
void main() {
    uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
    bool inside = i < uint(data.length());
    scan[l] = inside ? data[i] : 0u;
    barrier();
    for (uint offset = 1u; offset < 256u; offset *= 2u) {
        uint add = l >= offset ? scan[l - offset] : 0u;
        barrier();
        scan[l] += add;
        barrier();
    }
    if (inside) data[i] = scan[l];
}
