//! Debian's `libshaderc_combined.a` holds shaderc alone (and its `libshaderc.so` leaves glslang's
//! symbols undefined): link the glslang and SPIRV-Tools archives `glslang-dev` and `spirv-tools`
//! ship beside it. shaderc-sys itself emits the search path and `shaderc_combined`.
fn main() {
    for lib in [
        "glslang",
        "MachineIndependent",
        "GenericCodeGen",
        "OSDependent",
        "OGLCompiler",
        "SPIRV",
        "glslang-default-resource-limits",
        "SPIRV-Tools-opt",
        "SPIRV-Tools",
    ] {
        println!("cargo:rustc-link-lib=static={lib}");
    }
}
