#version 450
// A formatless storage image written from a formatted one; the format comes from the options.
layout(local_size_x = 8, local_size_y = 8) in;
layout(rgba32f, binding = 0) readonly uniform image2D src_image;
layout(binding = 1) writeonly uniform image2D dst_image;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (all(lessThan(p, imageSize(src_image)))) {
        imageStore(dst_image, p, imageLoad(src_image, p).bgra);
    }
}
