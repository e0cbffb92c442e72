// The image invert of the OpenGL compute-shader lesson ("Outputs"): `1 - texel` from one rgba32f image
// into another, as GLSL. Repairs against the seed text:
// - `img_output` has its format, `rgba32f` (the seed declares none; WebGPU needs one); the
//   images stay unqualified: Shoal gives each the access its code uses (read, write);
// - 32 x 32 invocations are 16 x 16, within WebGPU's default limit of 256 per work group;
// - a bounds check against imageSize, so any image size works (the seed assumes multiples of 32).
#version 450 core

layout (local_size_x = 16,
        local_size_y = 16) in;

layout (binding = 0, rgba32f) uniform image2D img_input;
layout (binding = 1, rgba32f) uniform image2D img_output;

void main(void)
{
    vec4 texel;
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(p, imageSize(img_output)))) {
        return;
    }

    texel = imageLoad(img_input, p);
    texel = vec4(1.0) - texel;
    imageStore(img_output, p, texel);
}
