//! Indirect dispatch sized on the GPU: one kernel counts the positive values and writes the work
//! groups for them into `args`; the next dispatch runs that many, with no readback in between.
//! `cargo run -p shoal --example indirect`
use shoal::{DispatchArgs, Usage};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init(); // RUST_LOG=shoal=debug shows what Shoal does
    let gpu = shoal::Gpu::blocking()?;
    let values: Vec<i32> = (0..1000).map(|i| (i * 7919) % 201 - 100).collect();
    let input = gpu.buffer_from(&values)?;
    let args = gpu.buffer_zeroed_with::<DispatchArgs>(1, Usage::STORAGE | Usage::INDIRECT)?;
    let ran = gpu.buffer_zeroed::<u32>(1)?;
    let source = shoal::wgsl!("../wgsl/examples/indirect.wgsl");
    let plan = gpu.kernel_builder(source.clone()).entry("plan").build()?;
    let work = gpu.kernel_builder(source).entry("work").build()?;
    let mut commands = gpu.commands();
    let plan = plan.bind("values", &input).bind("args", &args);
    plan.groups([1, 1, 1]).record(&mut commands)?;
    let work = work.bind("ran", &ran).indirect(&args, 0); // as many groups as `args` says
    work.record(&mut commands)?;
    commands.submit()?;
    let groups = values.iter().filter(|v| **v > 0).count().div_ceil(64) as u32;
    let got = (args.read_blocking()?[0], ran.read_blocking()?[0]);
    if got != (DispatchArgs::new(groups, 1, 1), groups * 64) {
        return Err(format!("indirect: GPU (args, ran) {got:?}, CPU {groups} groups").into());
    }
    println!("indirect: {groups} work groups of 64 sized on the GPU, as the CPU counts");
    Ok(())
}
