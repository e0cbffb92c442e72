//! Vector lengths through append and consume buffers (the Direct3D 12 book, exercise 3): each invocation consumes
//! a vector and appends its length, in any order; sorted, they match the CPU's.
//! `cargo run -p shoal --example vector_lengths`
use glam::Vec3;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init(); // RUST_LOG=shoal=debug shows what Shoal does
    let gpu = shoal::Gpu::blocking()?;
    let vectors: Vec<Vec3> = (1..=100).map(|i| Vec3::new(i as f32, 2.0, -1.0)).collect();
    let input = gpu.append_buffer_from(&vectors, vectors.len() as u64)?;
    let lengths = gpu.append_buffer::<f32>(vectors.len() as u64)?;
    gpu.kernel(shoal::wgsl!("../wgsl/vector_lengths.wgsl"))?
        .bind("vectors", &input)
        .bind("lengths", &lengths)
        .invocations(vectors.len() as u64)
        .run()?;
    let mut got = lengths.read_blocking()?;
    got.sort_by(f32::total_cmp);
    let cpu: Vec<f32> = vectors.iter().map(|v| v.length()).collect();
    if got.len() != cpu.len() || got.iter().zip(&cpu).any(|(g, c)| (g - c).abs() > 1e-4 * c) {
        return Err(format!("vector lengths: GPU {got:?}\nCPU {cpu:?}").into());
    }
    println!(
        "vector_lengths: {} lengths appended, all match the CPU",
        got.len()
    );
    Ok(())
}
