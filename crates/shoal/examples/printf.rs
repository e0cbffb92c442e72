//! printf from a kernel: every invocation prints its square (`#import shoal::printf`); the
//! records come back with their invocation and call site. `cargo run -p shoal --example printf`
use shoal::PrintValue;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    env_logger::init(); // RUST_LOG=shoal=debug shows what Shoal does
    let gpu = shoal::Gpu::blocking()?;
    let kernel = gpu.kernel(shoal::wgsl!("../wgsl/examples/printf.wgsl"))?;
    kernel.dispatch().invocations(16).run()?;
    let log = kernel.print_printed()?.check()?;
    for i in 0..16u32 {
        let printed: Vec<&PrintValue> = log.from([i, 0, 0]).collect();
        if printed != [&PrintValue::U32(vec![i * i])] {
            return Err(
                format!("printf: invocation {i} printed {printed:?}, not {}", i * i).into(),
            );
        }
    }
    let at = log.records[0].location.as_deref().unwrap_or("?");
    println!("printf: 16 invocations printed their squares, from {at}");
    Ok(())
}
