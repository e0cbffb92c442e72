//! The wave equation of the Direct3D 12 book as a lit height-field mesh.
//! `cargo run --release -p shoal-demos --bin waves [-- --headless --frames 60 --out waves.png]`.

fn main() -> std::process::ExitCode {
    shoal_demos::demo::main::<shoal_demos::waves::WavesDemo>()
}
