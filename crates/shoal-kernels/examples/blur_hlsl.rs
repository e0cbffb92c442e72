//! The Direct3D 12 book's separable blur run from its HLSL (`wgsl/hlsl/blur.hlsl`, the groupshared
//! cache of N + 2R texels), translated by `shoal::hlsl!` at compile time, checked against the CPU.
//! `cargo run -p shoal-kernels --features hlsl --example blur_hlsl`
use shoal::wgpu::TextureFormat::Rgba32Float;
use shoal_kernels::blur::{gaussian_blur_cpu, gaussian_weights};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (gpu, w, h) = (shoal::Gpu::blocking()?, 300, 200);
    let weights = gaussian_weights(2.0)?; // σ = 2: radius 4, 9 taps
    // The book's `BlurDispatchCB` as 36 words: `float4 gWeightVec[8]` (the weights in order),
    // then `int gBlurRadius` and the three descriptor indices the registers made unused.
    let mut cb = [0.0f32; 36];
    cb[..weights.len()].copy_from_slice(&weights);
    cb[32] = f32::from_bits(4); // gBlurRadius, an int
    let src = shoal_kernels::test_image::test_image(w, h);
    let image = gpu.image_from(w, h, Rgba32Float, &src)?;
    let (tmp, cb) = (gpu.image_zeroed(w, h, Rgba32Float)?, gpu.uniform(&cb)?);
    let horz = gpu.kernel(shoal::hlsl!("../wgsl/hlsl/blur.hlsl", "HorzBlurCS"))?;
    let vert = gpu.kernel(shoal::hlsl!("../wgsl/hlsl/blur.hlsl", "VertBlurCS"))?;
    let horz = horz.bind("gInput", &image).bind("BlurDispatchCB", &cb);
    horz.bind("gOutput", &tmp).invocations_2d([w, h]).run()?; // groups of 256 x 1
    let vert = vert.bind("gInput", &tmp).bind("BlurDispatchCB", &cb);
    vert.bind("gOutput", &image).invocations_2d([w, h]).run()?; // groups of 1 x 256
    let got: Vec<shoal::glam::Vec4> = image.read_blocking()?;
    let want = gaussian_blur_cpu(&src, w, h, &weights, 1); // horizontal, then vertical
    assert!(got.iter().zip(&want).all(|(g, c)| g.abs_diff_eq(*c, 1e-5)));
    println!("blur_hlsl: the book's blur from HLSL, {w}x{h}, matches the CPU");
    Ok(())
}
