#version 450
// Engine style: an environment lookup through a samplerCube passed to a helper.
layout(local_size_x = 64) in;
layout(binding = 0) uniform samplerCube environment;
layout(std430, binding = 1) readonly buffer Dirs { vec4 dirs[]; };
layout(std430, binding = 2) writeonly buffer Radiance { vec4 radiance[]; };
vec3 lookup(samplerCube env, vec3 dir) { return textureLod(env, normalize(dir), 0.0).rgb; }
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(dirs.length())) radiance[i] = vec4(lookup(environment, dirs[i].xyz), 1.0);
}
