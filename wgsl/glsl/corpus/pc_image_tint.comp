#version 450
// API-sample style: a tint from push constants applied to a storage image.
layout(local_size_x = 8, local_size_y = 8) in;
layout(push_constant) uniform Tint { vec4 tint; ivec2 size; } pc;
layout(rgba32f, set = 0, binding = 0) uniform image2D picture;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (p.x < pc.size.x && p.y < pc.size.y) {
        imageStore(picture, p, imageLoad(picture, p) * pc.tint);
    }
}
