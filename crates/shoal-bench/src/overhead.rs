//! Host-side cost of one tiny dispatch: binding, encoding and submitting through Shoal against
//! the best raw-wgpu code for the same work (pipeline and bind group created once and reused), in
//! the same process, excluding the wait for the GPU. The goal is raw wgpu's cost; the ratio is in
//! the generated tables (docs/bench/).

use std::time::Instant;

use shoal::{Gpu, wgpu};

const KERNEL: &str = "
@group(0) @binding(0) var<storage, read_write> values: array<u32>;
@compute @workgroup_size(64)
fn bump(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&values) { values[id.x] = values[id.x] + 1u; }
}";

/// Dispatches per timed block, and blocks per side.
pub(crate) const PER_BLOCK: usize = 200;
/// Timed blocks per side (after one that warms up).
pub(crate) const BLOCKS: usize = 15;

/// Waits until the GPU has finished everything submitted.
pub(crate) fn drain(gpu: &Gpu) {
    let _ = gpu.device().poll(wgpu::PollType::wait_indefinitely());
}

/// Runs the comparison and prints microseconds per dispatch for each side and their ratio.
pub(crate) fn run(gpu: &Gpu) -> Result<(), shoal::Error> {
    let kernel = gpu.kernel(shoal::Source::new("overhead.wgsl", KERNEL))?;
    let values = gpu.buffer_zeroed::<u32>(64)?;

    // Raw wgpu: everything created once, only encoding and submission per dispatch.
    let device = gpu.device();
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("raw"),
        source: wgpu::ShaderSource::Wgsl(KERNEL.into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("raw"),
        layout: None,
        module: &module,
        entry_point: Some("bump"),
        compilation_options: Default::default(),
        cache: None,
    });
    let raw_buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("raw"),
        size: 256,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    });
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("raw"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: raw_buffer.as_entire_binding(),
        }],
    });
    let raw = || {
        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: None });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: None,
                timestamp_writes: None,
            });
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(1, 1, 1);
        }
        gpu.queue().submit([encoder.finish()]);
    };
    let shoal = || kernel.bind("values", &values).invocations(64).run();

    let mut raw_us = Vec::new();
    let mut shoal_us = Vec::new();
    for block in 0..BLOCKS + 1 {
        // Alternate which side goes first, so neither always follows a drained queue.
        let time_raw = || {
            drain(gpu);
            let t = Instant::now();
            for _ in 0..PER_BLOCK {
                raw();
            }
            t.elapsed().as_secs_f64() * 1e6 / PER_BLOCK as f64
        };
        let time_shoal = || -> Result<f64, shoal::Error> {
            drain(gpu);
            let t = Instant::now();
            for _ in 0..PER_BLOCK {
                shoal()?;
            }
            Ok(t.elapsed().as_secs_f64() * 1e6 / PER_BLOCK as f64)
        };
        let (r, s) = if block % 2 == 0 {
            let r = time_raw();
            (r, time_shoal()?)
        } else {
            let s = time_shoal()?;
            (time_raw(), s)
        };
        if block > 0 {
            // The first block warms caches and the bind-group cache.
            raw_us.push(r);
            shoal_us.push(s);
        }
    }
    drain(gpu);
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let (r, s) = (median(&mut raw_us), median(&mut shoal_us));
    println!(
        "\nhost overhead of one tiny dispatch (bind + encode + submit, no GPU wait), median of {BLOCKS} blocks of {PER_BLOCK}:"
    );
    println!("  raw wgpu (pipeline and bind group reused)   {r:8.2} us");
    println!("  shoal (bind by name, checks, cached groups) {s:8.2} us");
    println!(
        "  ratio shoal / raw                            {:8.3}x  (goal: <= 1.10x)",
        s / r
    );
    let count = values.read_blocking()?[0];
    println!("  (the Shoal side ran {count} times; every one was read back)");
    Ok(())
}
