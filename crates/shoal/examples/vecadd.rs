//! The VecAdd demo of the Direct3D 12 book (§13.3.5) on Shoal: the README's example.
//! `cargo run -p shoal --example vecadd` (with `SHOAL_BACKEND=vulkan|gl|...` to pick the adapter).
use glam::{vec2, vec3};

#[derive(encase::ShaderType, Clone, Copy, Debug, PartialEq)] // WGSL layout: vec3 padding handled
struct Data {
    v1: glam::Vec3,
    v2: glam::Vec2,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init(); // RUST_LOG=shoal=debug shows what Shoal does
    let gpu = shoal::Gpu::blocking()?; // native: SHOAL_BACKEND=vulkan|gl|metal|dx12|auto
    let (data, xs) = (|v1, v2| Data { v1, v2 }, || (0..32).map(|i| i as f32));
    let a: Vec<Data> = xs().map(|x| data(vec3(x, x, x), vec2(x, 0.0))).collect();
    let b: Vec<Data> = xs()
        .map(|x| data(vec3(-x, x, 0.0), vec2(0.0, -x)))
        .collect();
    let (input_a, input_b) = (gpu.buffer_from(&a)?, gpu.buffer_from(&b)?);
    let output = gpu.buffer_zeroed::<Data>(32)?;
    let vecadd = gpu.kernel(shoal::wgsl!("../wgsl/conformance/vecadd.wgsl"))?; // reflected once
    let vecadd = vecadd.bind("input_a", &input_a).bind("input_b", &input_b);
    vecadd.bind("output", &output).invocations(32).run()?; // checked before submit
    let sum = |(p, q): (&Data, &Data)| data(p.v1 + q.v1, p.v2 + q.v2);
    if output.read_blocking()? != a.iter().zip(&b).map(sum).collect::<Vec<_>>() {
        return Err("vecadd: the GPU's sums differ from the CPU's".into());
    }
    println!("vecadd: 32 sums of {{vec3, vec2}} match the CPU");
    Ok(())
}
