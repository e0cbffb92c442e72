//! Radix sort and prefix sum on seeded random data, checked against the CPU and plotted.
//! `cargo run --release -p shoal-demos --bin primitives [-- --headless --out primitives.png]`.

fn main() -> std::process::ExitCode {
    shoal_demos::demo::main::<shoal_demos::primitives::PrimitivesDemo>()
}
