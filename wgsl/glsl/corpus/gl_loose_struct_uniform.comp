#version 430
// OpenGL 4.3 style: a loose uniform of a struct type beside scalar ones.
layout(local_size_x = 64) in;
struct Light { vec4 position; vec4 color; };
uniform Light light;
uniform float intensity;
layout(std430, binding = 0) readonly buffer Points { vec4 points[]; };
layout(std430, binding = 1) writeonly buffer Shade { vec4 shade[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(points.length())) return;
    float d = distance(points[i].xyz, light.position.xyz);
    shade[i] = light.color * intensity / (1.0 + d * d);
}
