//! Invert an image file (the OpenGL compute-shader lesson's invert): an 8-bit RGBA PNG read into an image, `1 - texel` on the GPU
//! (alpha kept), checked on the CPU and written to `inverted.png`.
//! `cargo run -p shoal --example invert [in.png]` (default: a picture of the docs)
use shoal::wgpu::TextureFormat::Rgba8Unorm;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init(); // RUST_LOG=shoal=debug shows what Shoal does
    let input = std::env::args().nth(1);
    let input = input.unwrap_or("docs/images/demo-blur.png".into());
    let mut reader = png::Decoder::new(std::fs::File::open(&input)?).read_info()?;
    let mut bytes = vec![0; reader.output_buffer_size()];
    let (w, h) = (reader.next_frame(&mut bytes)?.width, reader.info().height);
    let texels: &[[u8; 4]] = bytemuck::cast_slice(&bytes);
    let gpu = shoal::Gpu::blocking()?;
    let picture = gpu.image_from(w, h, Rgba8Unorm, texels)?;
    let out = gpu.image_zeroed(w, h, Rgba8Unorm)?;
    let k = gpu.kernel(shoal::wgsl!("../wgsl/examples/invert_rgba8.wgsl"))?;
    let k = k.bind("picture", &picture);
    k.bind("inverted", &out).invocations_2d([w, h]).run()?;
    let got: Vec<[u8; 4]> = out.read_blocking()?;
    let cpu = texels.iter().map(|&[r, g, b, a]| [!r, !g, !b, a]);
    if !cpu.eq(got.iter().copied()) {
        return Err("invert: the GPU's picture differs from the CPU's".into());
    }
    let mut png = png::Encoder::new(std::fs::File::create("inverted.png")?, w, h);
    png.set_color(png::ColorType::Rgba);
    png.write_header()?.write_image_data(got.as_flattened())?;
    println!("invert: {input} ({w}x{h}) matches the CPU, written to inverted.png");
    Ok(())
}
