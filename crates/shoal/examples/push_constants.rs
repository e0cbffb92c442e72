//! Immediate data (push constants, root constants): SAXPY with its scalar and count set per
//! dispatch, three dispatches of one batch each with its own value. Where the device takes no
//! immediate data (the browser), Shoal reads them from a binding it owns: same call, same result.
//! `cargo run -p shoal --example push_constants`

#[derive(encase::ShaderType, Clone, Copy)] // the WGSL struct's layout
struct Saxpy {
    a: f32,
    n: u32,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let gpu = shoal::Gpu::blocking()?;
    let x: Vec<f32> = (0..1000).map(|i| (i % 13) as f32).collect();
    let (xs, ys) = (gpu.buffer_from(&x)?, gpu.buffer_zeroed::<f32>(1000)?);
    let saxpy = gpu.kernel(shoal::wgsl!("../wgsl/examples/push_constants.wgsl"))?;
    let (mut commands, mut cpu) = (gpu.commands(), vec![0.0f32; 1000]);
    for (a, n) in [(2.0, 1000), (-1.0, 700), (0.5, 65)] {
        let dispatch = saxpy.bind("x", &xs).bind("y", &ys);
        let dispatch = dispatch.immediates(&Saxpy { a, n }); // this dispatch's value
        dispatch.invocations(n as u64).record(&mut commands)?;
        (0..n as usize).for_each(|i| cpu[i] += a * x[i]);
    }
    commands.submit()?;
    if ys.read_blocking()? != cpu {
        return Err("push_constants: the GPU's results differ from the CPU's".into());
    }
    let native = gpu.max_immediate_size() >= 8; // else a binding Shoal owns
    println!("push_constants: 3 dispatches of SAXPY match the CPU (set_immediates: {native})");
    Ok(())
}
