//! Element-wise multiply of two vec4 arrays ("Hello Compute World" of ARM's OpenGL ES introduction), checked on the CPU.
//! `cargo run -p shoal --example multiply`
use glam::Vec4;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init(); // RUST_LOG=shoal=debug shows what Shoal does
    let gpu = shoal::Gpu::blocking()?;
    let x: Vec<Vec4> = (0..1000).map(|i| Vec4::splat(i as f32)).collect();
    let y: Vec<Vec4> = (0..1000)
        .map(|i| Vec4::new(1.0, -2.0, 0.5, i as f32))
        .collect();
    let (bx, by) = (gpu.buffer_from(&x)?, gpu.buffer_from(&y)?);
    let out = gpu.buffer_zeroed::<Vec4>(x.len() as u64)?;
    gpu.kernel(shoal::wgsl!("../wgsl/conformance/multiply.wgsl"))?
        .bind("output_data", &out)
        .bind("input_data0", &bx)
        .bind("input_data1", &by)
        .invocations(x.len() as u64)
        .run()?;
    let cpu: Vec<Vec4> = x.iter().zip(&y).map(|(a, b)| *a * *b).collect();
    if out.read_blocking()? != cpu {
        return Err("multiply: the GPU's products differ from the CPU's".into());
    }
    println!("multiply: {} vec4 products match the CPU", cpu.len());
    Ok(())
}
