//! The sphere ray tracer of the OpenGL compute-shader lesson — 512x512, orthographic, one sphere — and,
//! with `--mode scene`, the shaded scene beyond it (spheres, a plane, shadows, one reflection).
//! `cargo run -p shoal-demos --bin raytrace [-- --mode scene] [--headless --out raytrace.png]`.

fn main() -> std::process::ExitCode {
    shoal_demos::demo::main::<shoal_demos::raytrace::RayTraceDemo>()
}
