//! The work-group prefix sum of the OpenGL compute-shader lesson: each work group scans 128 values in
//! shared memory. `cargo run -p shoal --example prefix_sum`

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init(); // RUST_LOG=shoal=debug shows what Shoal does
    let gpu = shoal::Gpu::blocking()?;
    let values: Vec<u32> = (0..1000).map(|i| (i * 37) % 11).collect();
    let (input, output) = (gpu.buffer_from(&values)?, gpu.buffer_zeroed::<u32>(1000)?);
    let kernel = gpu.kernel(shoal::wgsl!("../wgsl/examples/prefix_sum.wgsl"))?;
    let groups = values.len().div_ceil(128) as u32;
    kernel
        .bind("input", &input)
        .bind("output", &output)
        .groups([groups, 1, 1])
        .run()?;
    // Inclusive sums that restart at every tile of 128 values.
    let cpu: Vec<u32> = values
        .chunks(128)
        .flat_map(|tile| {
            tile.iter()
                .scan(0, |sum, v| Some(*sum + v).inspect(|s| *sum = *s))
        })
        .collect();
    if output.read_blocking()? != cpu {
        return Err("prefix_sum: the GPU's sums differ from the CPU's".into());
    }
    println!("prefix_sum: {groups} work groups of 128 values match the CPU");
    Ok(())
}
