//! Append/consume particles (the Direct3D 12 book, §13.5) drawn straight from the live append buffer.
//! `cargo run --release -p shoal-demos --bin particles [-- --headless --out particles.png]`.

fn main() -> std::process::ExitCode {
    shoal_demos::demo::main::<shoal_demos::particles::ParticlesDemo>()
}
