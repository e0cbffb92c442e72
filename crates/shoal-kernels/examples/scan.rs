//! Prefix sums of any length with [`shoal_kernels::Scan`], checked against a running sum.
//! `cargo run -p shoal-kernels --example scan`
use shoal_kernels::{Op, Record, Scan, ScanArgs, ScanSpec};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init(); // RUST_LOG=shoal=debug shows what Shoal does
    let gpu = shoal::Gpu::blocking()?;
    let values: Vec<u32> = (0..300_000u32).map(|i| i % 7).collect();
    let input = gpu.buffer_from(&values)?;
    let output = gpu.buffer_zeroed::<u32>(values.len() as u64)?;
    let scan = Scan::<u32>::new(&gpu)?;
    scan.run(ScanArgs {
        input: &input,
        output: &output,
        spec: ScanSpec::exclusive(Op::Sum),
    })?;
    let cpu: Vec<u32> = values
        .iter()
        .scan(0, |sum, v| Some(std::mem::replace(sum, *sum + v)))
        .collect();
    if output.read_blocking()? != cpu {
        return Err("scan: the GPU's sums differ from the CPU's".into());
    }
    println!(
        "scan: exclusive sums of {} values match the CPU",
        values.len()
    );
    Ok(())
}
