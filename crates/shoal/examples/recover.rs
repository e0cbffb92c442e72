//! Recovering from a lost device (docs/errors.md, "Recovering from a lost device"): the device
//! is destroyed mid-program, every call then fails with `DeviceLost`, and a new `Gpu` with its
//! resources made again runs the work again. `cargo run -p shoal --example recover`

/// Makes the kernel and buffer on `gpu`, doubles `input` and reads the result back.
fn double(gpu: &shoal::Gpu, input: &[u32]) -> Result<Vec<u32>, shoal::Error> {
    let values = gpu.buffer_from(input)?;
    let kernel = gpu.kernel(shoal::wgsl!("../wgsl/examples/double.wgsl"))?;
    let n = input.len() as u64;
    kernel.bind("values", &values).invocations(n).run()?;
    values.read_blocking()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init(); // RUST_LOG=shoal=debug shows what Shoal does
    let input: Vec<u32> = (0..1000).collect();
    let mut gpu = shoal::Gpu::blocking()?;
    gpu.destroy(); // what a driver reset does to a device
    match double(&gpu, &input) {
        Err(shoal::Error::DeviceLost { .. }) if gpu.is_lost() => gpu = shoal::Gpu::blocking()?,
        other => return Err(format!("expected DeviceLost, got {other:?}").into()),
    }
    let cpu: Vec<u32> = input.iter().map(|i| 2 * i).collect();
    if double(&gpu, &input)? != cpu {
        return Err("recover: the new device's results differ from the CPU's".into());
    }
    println!("recover: ok after DeviceLost ({} values)", cpu.len());
    Ok(())
}
