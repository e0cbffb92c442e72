//! Boids flocking (the OpenGL compute-shader lesson), drawn as instanced paper airplanes straight from the compute buffer.
//! `cargo run --release -p shoal-demos --bin boids [-- --headless --out boids.png]`.

fn main() -> std::process::ExitCode {
    shoal_demos::demo::main::<shoal_demos::boids::BoidsDemo>()
}
