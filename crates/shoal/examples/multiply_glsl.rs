//! The element-wise multiply of ARM's OpenGL ES introduction as its GLSL kernel (`wgsl/glsl/multiply.comp`), translated to
//! WGSL at compile time by `shoal::glsl!`, checked on the CPU.
//! `cargo run -p shoal --features glsl --example multiply_glsl`
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
    gpu.kernel(shoal::glsl!("../wgsl/glsl/multiply.comp"))?
        .bind("output_data", &out)
        .bind("input_data0", &bx)
        .bind("input_data1", &by)
        .invocations(x.len() as u64)
        .run()?;
    let cpu: Vec<Vec4> = x.iter().zip(&y).map(|(a, b)| *a * *b).collect();
    if out.read_blocking()? != cpu {
        return Err("multiply_glsl: the GPU's products differ from the CPU's".into());
    }
    println!(
        "multiply_glsl: {} vec4 products of the GLSL kernel match the CPU",
        cpu.len()
    );
    Ok(())
}
