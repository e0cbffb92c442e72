//! Sort a `Vec<u32>` on the GPU with [`shoal_kernels::RadixSort`], checked against `sort`.
//! `cargo run -p shoal-kernels --example sort`

use shoal_kernels::{RadixSort, Record, SortArgs, SortParams};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init(); // RUST_LOG=shoal=debug shows what Shoal does
    let gpu = shoal::Gpu::blocking()?;
    let mut keys: Vec<u32> = (0..100_000u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let buffer = gpu.buffer_from(&keys)?;
    let sort = RadixSort::new(&gpu, SortParams::default())?;
    sort.run(SortArgs { keys: &buffer })?;
    let sorted = buffer.read_blocking()?;
    keys.sort_unstable();
    if sorted != keys {
        return Err("sort: the GPU's order differs from the CPU's".into());
    }
    println!("sort: {} keys sorted as the CPU sorts them", keys.len());
    Ok(())
}
