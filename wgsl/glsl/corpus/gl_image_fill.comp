#version 430
// OpenGL 4.3 style: a loose uniform colour written to every pixel of an image.
layout(local_size_x = 8, local_size_y = 8) in;
uniform vec4 color;
layout(rgba32f, binding = 0) writeonly uniform image2D target_image;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (all(lessThan(p, imageSize(target_image)))) {
        imageStore(target_image, p, color);
    }
}
