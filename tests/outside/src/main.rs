//! A user's crate: its own WGSL kernel through `shoal`, and a sort from `shoal-kernels`, each
//! checked against the CPU. Exits non-zero on a mismatch.

use shoal_kernels::{RadixSort, Record, SortArgs, SortParams};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = shoal::Gpu::blocking()?;
    eprintln!("outside crate on {}", gpu.adapter_details().name);

    let values: Vec<u32> = (0..1000).map(|i| (i * 7919) % 1009).collect();
    let buffer = gpu.buffer_from(&values)?;
    let double = gpu.kernel(shoal::wgsl!("double.wgsl"))?;
    double.bind("values", &buffer).invocations(values.len() as u64).run()?;
    let doubled: Vec<u32> = values.iter().map(|v| 2 * v).collect();
    if buffer.read_blocking()? != doubled {
        return Err("double.wgsl: the GPU's result differs from the CPU's".into());
    }

    // A mistake is an `Err` that says what to change, never a panic.
    match double.bind("value", &buffer).invocations(1).run() {
        Err(mistake) => println!("{mistake}"),
        Ok(_) => return Err("a misspelt binding name was not refused".into()),
    }

    let sort = RadixSort::new(&gpu, SortParams::default())?;
    sort.run(SortArgs { keys: &buffer })?;
    let mut sorted = doubled;
    sorted.sort_unstable();
    if buffer.read_blocking()? != sorted {
        return Err("RadixSort: the GPU's order differs from the CPU's".into());
    }
    println!("outside crate: double.wgsl and RadixSort match the CPU");
    Ok(())
}
