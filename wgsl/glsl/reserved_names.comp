#version 450
// Bindings named by words WGSL reserves (`target`, `meta`, `module`): the WGSL calls them
// `target_`, `meta_` and `module_`; Shoal binds them by these names.
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer Input { float target[]; };
layout(std430, binding = 1) buffer Output { float values[]; } meta;
layout(std430, binding = 2) readonly buffer Params { float scale; uint count; } module;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < module.count) {
        meta.values[i] = target[i] * module.scale + 1.0;
    }
}
