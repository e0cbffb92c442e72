#version 310 es
// "Hello Compute World" of ARM's OpenGL ES introduction: element-wise multiply of two vec4 arrays, as GLSL.
// Repairs against the seed text:
// - a bounds check against the output's length, so any length works (the seed dispatches
//   exactly one invocation per element);
// - `#version 310 es` is kept, first in the file (ES wants it before any comment).
layout(local_size_x = 128) in;
layout(std430) buffer;
layout(binding = 0) writeonly buffer Output {
    vec4 output_data[];
};
layout(binding = 1) readonly buffer Input0 {
    vec4 input_data0[];
};
layout(binding = 2) readonly buffer Input1 {
    vec4 input_data1[];
};

void main()
{
    uint ident = gl_GlobalInvocationID.x;
    if (ident >= uint(output_data.length())) {
        return;
    }
    output_data[ident] = input_data0[ident] * input_data1[ident];
}
