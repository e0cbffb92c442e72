//! Compute-shader splatting of single-pixel particles (the particle-rendering article), composited into the frame.
//! `cargo run --release -p shoal-demos --bin splat [-- --mode clumpy] [--headless --out splat.png]`.

fn main() -> std::process::ExitCode {
    shoal_demos::demo::main::<shoal_demos::splat::SplatDemo>()
}
