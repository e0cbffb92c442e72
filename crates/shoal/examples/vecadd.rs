//! The VecAdd demo of the Direct3D 12 book (002, §13.3.5) on Shoal: the README's example.
//!
//! `cargo run -p shoal --example vecadd` (with `SHOAL_BACKEND=vulkan|gl|...` to pick the adapter).

#[derive(encase::ShaderType, Clone, Copy, Debug)] // WGSL layout: vec3 padding handled
struct Data {
    v1: glam::Vec3,
    v2: glam::Vec2,
}

fn main() -> Result<(), shoal::Error> {
    let gpu = shoal::Gpu::blocking()?;
    let a: Vec<Data> = (0..32)
        .map(|i| {
            let x = i as f32;
            Data {
                v1: glam::vec3(x, x, x),
                v2: glam::vec2(x, 0.0),
            }
        })
        .collect();
    let b: Vec<Data> = (0..32)
        .map(|i| {
            let x = i as f32;
            Data {
                v1: glam::vec3(-x, x, 0.0),
                v2: glam::vec2(0.0, -x),
            }
        })
        .collect();
    let (a, b) = (gpu.buffer_from(&a)?, gpu.buffer_from(&b)?);
    let out = gpu.buffer_zeroed::<Data>(32)?;
    let vecadd = gpu.kernel(shoal::wgsl!("../wgsl/conformance/vecadd.wgsl"))?;
    vecadd
        .bind("input_a", &a)
        .bind("input_b", &b)
        .bind("output", &out)
        .invocations(32)
        .run()?;
    for d in out.read_blocking()? {
        println!("{:?} {:?}", d.v1, d.v2);
    }
    Ok(())
}
