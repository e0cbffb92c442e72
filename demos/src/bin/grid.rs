//! The grid of the OpenGL compute-shader lesson: 1280x720, 16x16 work groups, orange and blue patches.
//! `cargo run -p shoal-demos --bin grid [-- --headless --out grid.png]`.

fn main() -> std::process::ExitCode {
    shoal_demos::demo::main::<shoal_demos::grid::GridDemo>()
}
