//! The grid of the OpenGL compute-shader lesson: 16 x 16 patches, orange and blue by work-group parity,
//! checked on the CPU and written to `grid.png`. `cargo run -p shoal --example grid`
use shoal::wgpu::TextureFormat;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init(); // RUST_LOG=shoal=debug shows what Shoal does
    let gpu = shoal::Gpu::blocking()?;
    let (w, h) = (200u32, 120u32);
    let image = gpu.image_zeroed(w, h, TextureFormat::Rgba8Unorm)?;
    let rgba8 = "@group(0) @binding(0) var img_output: texture_storage_2d<rgba8unorm, write>;";
    let kernel = gpu.kernel(shoal::wgsl!("../wgsl/grid.wgsl").block("image", rgba8))?;
    kernel
        .bind("img_output", &image)
        .invocations_2d([w, h])
        .run()?;
    let pixels: Vec<[u8; 4]> = image.read_blocking()?;
    let (orange, blue) = ([255, 128, 0, 255], [0, 128, 255, 255]);
    let parity = |i: u32| (i % w / 16 + i / w / 16) % 2; // patch x + patch y
    let cpu = (0..w * h).map(|i| if parity(i) == 0 { orange } else { blue });
    if !cpu.eq(pixels.iter().copied()) {
        return Err("grid: the GPU's pattern differs from the CPU's".into());
    }
    let mut png = png::Encoder::new(std::fs::File::create("grid.png")?, w, h);
    png.set_color(png::ColorType::Rgba);
    png.write_header()?
        .write_image_data(pixels.as_flattened())?;
    println!("grid: {w}x{h} matches the CPU, written to grid.png");
    Ok(())
}
