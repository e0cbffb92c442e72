//! The image filters of the Direct3D 12 book: `--mode gaussian|naive|sobel|cartoon|bilateral`.
//! `cargo run --release -p shoal-demos --bin blur [-- --mode sobel] [--headless --out blur.png]`.

fn main() -> std::process::ExitCode {
    shoal_demos::demo::main::<shoal_demos::blur::BlurDemo>()
}
