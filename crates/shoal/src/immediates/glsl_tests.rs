//! A GLSL kernel with a push-constant block, as Vulkan programs write it: `Source::glsl` makes
//! it a `var<immediate>`, set per dispatch like a WGSL kernel's, on both paths.

use encase::ShaderType;

use crate::{Gpu, GpuOptions, Source};

/// `data[i] = data[i] * scale + offset` for `i < count`.
const SCALE: &str = "#version 450
layout(local_size_x = 64) in;
layout(push_constant) uniform Params { float scale; float offset; uint count; } params;
layout(std430, binding = 0) buffer Data { float data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < params.count) { data[i] = data[i] * params.scale + params.offset; }
}";

#[derive(ShaderType, Clone, Copy)]
struct Params {
    scale: f32,
    offset: f32,
    count: u32,
}

#[test]
fn a_glsl_push_constant_block_is_set_per_dispatch_on_both_paths() {
    let withheld = GpuOptions {
        withheld_features: wgpu::Features::IMMEDIATES,
        ..Default::default()
    };
    let devices = [
        Gpu::blocking().expect("device"),
        pollster::block_on(Gpu::with_options(withheld)).expect("device without immediates"),
    ];
    for gpu in devices {
        let source = Source::glsl("scale.comp", SCALE).expect("translated");
        let kernel = gpu.kernel(source).expect("kernel");
        let info = kernel
            .reflection()
            .immediates
            .clone()
            .expect("push constants reflected");
        assert_eq!(
            (info.size(), info.binding.is_some()),
            (12, gpu.max_immediate_size() == 0)
        );
        for n in [0usize, 1, 63, 64, 65, 130] {
            let input: Vec<f32> = (0..n).map(|i| i as f32).collect();
            let data = gpu.buffer_from(&input).expect("data");
            let values = [
                Params {
                    scale: 2.0,
                    offset: 1.0,
                    count: n as u32,
                },
                Params {
                    scale: -1.0,
                    offset: 0.5,
                    count: (n as u32).min(64),
                },
            ];
            let mut commands = gpu.commands();
            for p in &values {
                let dispatch = kernel.bind("data", &data).immediates(p);
                dispatch
                    .invocations(n as u64)
                    .record(&mut commands)
                    .expect("recorded");
            }
            commands
                .submit()
                .expect("submitted")
                .wait_blocking()
                .expect("ran");
            let mut expected = input.clone();
            for p in &values {
                for x in expected.iter_mut().take(p.count as usize) {
                    *x = *x * p.scale + p.offset;
                }
            }
            let got = data.read_blocking().expect("read");
            assert_eq!(got, expected, "{n} on {}", gpu.adapter_details());
        }
    }
}
