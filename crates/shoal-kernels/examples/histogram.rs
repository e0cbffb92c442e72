//! The histogram of an image's brightness (256 bins) with [`shoal_kernels::Histogram`], counted
//! on the CPU too. `cargo run -p shoal-kernels --example histogram [in.png]` (8-bit RGBA)

use shoal_kernels::{HistogramArgs, Record};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init(); // RUST_LOG=shoal=debug shows what Shoal does
    let input = std::env::args().nth(1);
    let input = input.unwrap_or("docs/images/demo-blur.png".into());
    let mut reader = png::Decoder::new(std::fs::File::open(&input)?).read_info()?;
    let mut bytes = vec![0; reader.output_buffer_size()];
    reader.next_frame(&mut bytes)?;
    let rgb = |t: &[u8]| t[..3].iter().map(|c| *c as u32).sum::<u32>() / 3;
    let brightness: Vec<u32> = bytes.chunks(4).map(rgb).collect();
    let gpu = shoal::Gpu::blocking()?;
    let (values, counts) = (gpu.buffer_from(&brightness)?, gpu.buffer_zeroed(256)?);
    let histogram = shoal_kernels::Histogram::new(&gpu)?;
    histogram.run(HistogramArgs {
        input: &values,
        counts: &counts,
    })?;
    let mut cpu = vec![0u32; 256];
    brightness.iter().for_each(|v| cpu[*v as usize] += 1);
    if counts.read_blocking()? != cpu {
        return Err("histogram: the GPU's counts differ from the CPU's".into());
    }
    let n = brightness.len();
    println!("histogram: the brightness of {n} pixels of {input} counted as the CPU does");
    Ok(())
}
