//! Blur a PNG file with [`shoal_kernels::GaussianBlur`] (σ = 1), checked against its CPU twin
//! and written to `blurred.png`. `cargo run -p shoal-kernels --example blur [in.png]` (8-bit RGBA)
use shoal::glam::Vec4;
use shoal_kernels::{BlurArgs, BlurParams, GaussianBlur, Record, blur::gaussian_blur_cpu};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init(); // RUST_LOG=shoal=debug shows what Shoal does
    let input = std::env::args().nth(1);
    let input = input.unwrap_or("docs/images/demo-blur.png".into());
    let mut reader = png::Decoder::new(std::fs::File::open(&input)?).read_info()?;
    let mut bytes = vec![0; reader.output_buffer_size()];
    let (w, h) = (reader.next_frame(&mut bytes)?.width, reader.info().height);
    let texel = |t: &[u8]| Vec4::from_array([t[0], t[1], t[2], t[3]].map(f32::from)) / 255.0;
    let texels: Vec<Vec4> = bytes.chunks(4).map(texel).collect();
    let gpu = shoal::Gpu::blocking()?;
    let image = &gpu.image_from(w, h, shoal::wgpu::TextureFormat::Rgba32Float, &texels)?;
    let blur = GaussianBlur::new(&gpu, BlurParams::default())?;
    blur.run(BlurArgs { image, passes: 1 })?; // in place
    let got: Vec<Vec4> = image.read_blocking()?;
    let cpu = gaussian_blur_cpu(&texels, w, h, blur.weights(), 1);
    let same = got.iter().zip(&cpu).all(|(g, c)| g.abs_diff_eq(*c, 1e-4));
    assert!(same, "blur: the GPU's picture differs from the CPU's"); // exit code 101
    let byte = |t: &Vec4| (*t * 255.0).round().to_array().map(|c| c as u8);
    let out: Vec<[u8; 4]> = got.iter().map(byte).collect();
    let mut png = png::Encoder::new(std::fs::File::create("blurred.png")?, w, h);
    png.set_color(png::ColorType::Rgba);
    println!("blur: {input} ({w}x{h}) blurred as the CPU does, writing blurred.png");
    Ok(png.write_header()?.write_image_data(out.as_flattened())?)
}
