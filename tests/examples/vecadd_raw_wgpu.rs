//! The VecAdd of `crates/shoal/examples/vecadd.rs` in raw wgpu 30, for comparison (docs/raw-wgpu.md):
//! the same kernel file and the same check, every step that Shoal does written out.
//! `cargo run -p shoal-conformance --example vecadd_raw_wgpu` (`SHOAL_BACKEND=vulkan|gl` picks
//! the backend here too, through wgpu's own names).
use wgpu::util::DeviceExt;

// WGSL's layout by hand: `vec3<f32>` is 16-byte aligned, so v1 takes 16 bytes and the struct 32.
#[repr(C)]
#[derive(bytemuck::Pod, bytemuck::Zeroable, Clone, Copy, Debug, PartialEq)]
struct Data {
    v1: [f32; 3],
    _pad1: f32,
    v2: [f32; 2],
    _pad2: [f32; 2],
}

fn data(v1: [f32; 3], v2: [f32; 2]) -> Data {
    Data {
        v1,
        _pad1: 0.0,
        v2,
        _pad2: [0.0; 2],
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    if let Ok(names) = std::env::var("SHOAL_BACKEND") {
        desc.backends = wgpu::Backends::from_comma_list(&names);
    }
    let instance = wgpu::Instance::new(desc);
    let adapter = pollster::block_on(instance.request_adapter(&Default::default()))?;
    let (device, queue) = pollster::block_on(adapter.request_device(&Default::default()))?;

    let a: Vec<Data> = (0..32)
        .map(|i| i as f32)
        .map(|x| data([x; 3], [x, 0.0]))
        .collect();
    let b: Vec<Data> = (0..32)
        .map(|i| i as f32)
        .map(|x| data([-x, x, 0.0], [0.0, -x]))
        .collect();
    let input = |label, contents: &[Data]| {
        device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some(label),
            contents: bytemuck::cast_slice(contents),
            usage: wgpu::BufferUsages::STORAGE,
        })
    };
    let (input_a, input_b) = (input("input_a", &a), input("input_b", &b));
    let size = std::mem::size_of_val(a.as_slice()) as u64;
    let output = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("output"),
        size,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        mapped_at_creation: false,
    });
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("staging"),
        size,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });

    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("vecadd.wgsl"),
        source: wgpu::ShaderSource::Wgsl(include_str!("../../wgsl/conformance/vecadd.wgsl").into()),
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some("vec_add"),
        layout: None,
        module: &module,
        entry_point: Some("vec_add"),
        compilation_options: Default::default(),
        cache: None,
    });
    // The binding numbers must match the kernel's `@binding(N)`, written a second time here.
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("vec_add"),
        layout: &pipeline.get_bind_group_layout(0),
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: input_a.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: input_b.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: output.as_entire_binding(),
            },
        ],
    });

    let mut encoder = device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(1, 1, 1); // 32 invocations: one work group of 32
    }
    encoder.copy_buffer_to_buffer(&output, 0, &staging, 0, size);
    queue.submit([encoder.finish()]);

    let (sender, receiver) = std::sync::mpsc::channel();
    staging
        .slice(..)
        .map_async(wgpu::MapMode::Read, move |r| sender.send(r).unwrap_or(()));
    device.poll(wgpu::PollType::wait_indefinitely())?;
    receiver.recv()??;
    let sums: Vec<Data> = bytemuck::cast_slice(&staging.slice(..).get_mapped_range()?).to_vec();
    staging.unmap();

    let sum = |(p, q): (&Data, &Data)| {
        data(
            [p.v1[0] + q.v1[0], p.v1[1] + q.v1[1], p.v1[2] + q.v1[2]],
            [p.v2[0] + q.v2[0], p.v2[1] + q.v2[1]],
        )
    };
    if sums != a.iter().zip(&b).map(sum).collect::<Vec<_>>() {
        return Err("vecadd_raw_wgpu: the GPU's sums differ from the CPU's".into());
    }
    println!("vecadd_raw_wgpu: 32 sums of {{vec3, vec2}} match the CPU");
    Ok(())
}
