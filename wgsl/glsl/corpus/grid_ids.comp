#version 450
// The built-in ids of a 3D dispatch written out, one invocation per element.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(std430, binding = 0) writeonly buffer Ids { uvec4 ids[]; };
void main() {
    uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;
    uvec3 g = gl_GlobalInvocationID;
    uint i = (g.z * n.y + g.y) * n.x + g.x;
    ids[i] = uvec4(g, gl_LocalInvocationIndex);
}
