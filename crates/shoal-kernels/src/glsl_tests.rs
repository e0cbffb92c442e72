//! The documents' GLSL programs (`wgsl/glsl/*.comp`, translated by `shoal::glsl!` at compile
//! time, so they run natively and in the browser), each checked against the CPU reference its
//! WGSL version is checked against; `Source::glsl` at run time (native) gives the same kernel,
//! and its mistakes are the same typed errors as WGSL's.

use shoal::Source;
use shoal::wgpu::TextureFormat;
use shoal_conformance::gpu_test;
use shoal_conformance::programs::{multiply_with, shift_with};
use shoal_conformance::rng::Rng;

use crate::grid::{Grid, grid_cpu};
use crate::invert::{Invert, invert_cpu};
use crate::{Op, Record, workgroup_scan_cpu};

const SHIFT: Source = shoal::glsl!("../wgsl/glsl/shift.comp");
const PREFIX_SUM: Source = shoal::glsl!("../wgsl/glsl/prefix_sum.comp");
const GRID: Source = shoal::glsl!("../wgsl/glsl/grid.comp");
const INVERT: Source = shoal::glsl!("../wgsl/glsl/invert.comp");
const MULTIPLY: Source = shoal::glsl!("../wgsl/glsl/multiply.comp");
const ATOMICS: Source = shoal::glsl!("../wgsl/glsl/atomics.comp");
const BARRIERS: Source = shoal::glsl!("../wgsl/glsl/barriers.comp");

gpu_test! {
    /// The OpenGL compute-shader lesson's shift with `barrier(); memoryBarrierShared();` in place: exact over three groups.
    async fn glsl_shift_through_shared_memory(gpu) {
        let kernel = gpu.kernel(SHIFT).expect("kernel");
        assert_eq!(kernel.workgroup_size(), [256, 1, 1]);
        shift_with(&gpu, &kernel).await.expect("shift");
    }

    /// The OpenGL compute-shader lesson's work-group prefix sum: each group of 512 floats scanned, as the CPU's per-block scan
    /// (small integers, so the tree's order of additions is exact).
    async fn glsl_prefix_sum_per_work_group(gpu) {
        let kernel = gpu.kernel(PREFIX_SUM).expect("kernel");
        let block = 2 * kernel.workgroup_size()[0] as usize;
        let mut rng = Rng::new(11);
        for groups in [1usize, 2, 5] {
            let input: Vec<f32> = (0..groups * block).map(|_| (rng.next_u32() % 16) as f32).collect();
            let src = gpu.buffer_from(&input).expect("input");
            let out = gpu.buffer_zeroed::<f32>(input.len() as u64).expect("output");
            kernel.bind("input_data", &src).bind("output_data", &out).groups([groups as u32, 1, 1]).run().expect("run");
            let want = workgroup_scan_cpu(&input, block, Op::Sum, true);
            assert_eq!(out.read().await.expect("read"), want, "{groups} work groups");
        }
    }

    /// The OpenGL compute-shader lesson's grid via `imageStore`: every pixel as the CPU twin's, at sizes that cut patches.
    async fn glsl_grid_via_image_store(gpu) {
        let grid = Grid::from_source(&gpu, GRID).expect("kernel");
        for [w, h] in [[1u32, 1u32], [15, 17], [16, 16], [17, 15], [100, 37]] {
            let image = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image");
            grid.run(crate::GridArgs { image: &image }).expect("run");
            let got = image.read::<[f32; 4]>().await.expect("read");
            assert!(got == grid_cpu(w, h), "{w}x{h}: differs from the CPU twin");
        }
    }

    /// The OpenGL compute-shader lesson's image invert: `1 - texel`, exactly the CPU twin's, at sizes around the work group.
    async fn glsl_image_invert(gpu) {
        let invert = Invert::from_source(&gpu, INVERT).expect("kernel");
        let mut rng = Rng::new(5);
        for [w, h] in [[1u32, 1u32], [15, 16], [16, 16], [17, 33]] {
            let texels: Vec<[f32; 4]> = (0..w * h).map(|_| [0; 4].map(|_| rng.range_f32(0.0, 1.0))).collect();
            let input = gpu.image_from(w, h, TextureFormat::Rgba32Float, &texels).expect("input");
            let output = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("output");
            invert.run(crate::InvertArgs { input: &input, output: &output }).expect("run");
            assert_eq!(output.read::<[f32; 4]>().await.expect("read"), invert_cpu(&texels), "{w}x{h}");
        }
    }

    /// ARM's OpenGL ES introduction's element-wise multiply: exact over lengths around the work group (128).
    async fn glsl_multiply(gpu) {
        let kernel = gpu.kernel(MULTIPLY).expect("kernel");
        multiply_with(&gpu, &kernel).await.expect("multiply");
    }

    /// ARM's OpenGL ES introduction's atomics: atomicAdd on a shared counter (every old value seen once per work group,
    /// the group's sum added to the SSBO) and atomicMax on an SSBO element.
    async fn glsl_atomics_on_shared_memory_and_ssbo(gpu) {
        let kernel = gpu.kernel(ATOMICS).expect("kernel");
        let wg = kernel.workgroup_size()[0];
        for (groups, start) in [(1u32, 5u32), (3, 20)] {
            let mut initial = vec![0u32; 16];
            initial[12] = start;
            let variables = gpu.buffer_from(&initial).expect("variables");
            let previous = gpu.buffer_zeroed::<u32>((groups * wg) as u64).expect("previous");
            kernel.bind("variables", &variables).bind("previous", &previous).groups([groups, 1, 1]).run().expect("run");
            let got = variables.read().await.expect("read");
            assert_eq!(got[0], groups * wg * 42, "the shared sums, added to the SSBO");
            assert_eq!(got[12], start.max(11), "atomicMax(variables[12], 11u)");
            let old = previous.read().await.expect("read");
            for g in old.chunks(wg as usize) {
                let mut g = g.to_vec();
                g.sort_unstable();
                assert!(g.iter().copied().eq((0..wg).map(|i| i * 42)), "old values {g:?}");
            }
        }
    }

    /// Every GLSL barrier function (`memoryBarrier()`, `groupMemoryBarrier()`, … beside
    /// `barrier()`) reaches WGSL as barriers the device accepts: the kernel builds and runs.
    async fn glsl_barrier_functions_run(gpu) {
        let kernel = gpu.kernel(BARRIERS).expect("kernel");
        let v = gpu.buffer_from(&(0..64u32).collect::<Vec<_>>()).expect("buffer");
        kernel.bind("v", &v).groups([1, 1, 1]).run().expect("run");
        assert_eq!(v.read().await.expect("read"), (0..64u32).rev().collect::<Vec<_>>());
    }

    /// The same mistakes as in WGSL give the same errors: an unknown name, a wrong element type.
    async fn glsl_binding_mistakes_are_the_wgsl_errors(gpu) {
        let kernel = gpu.kernel(MULTIPLY).expect("kernel");
        let floats = gpu.buffer_zeroed::<f32>(4).expect("buffer");
        let e = kernel.bind("Output", &floats).invocations(1).run().expect_err("unknown name");
        assert!(matches!(e, shoal::Error::UnknownBinding { .. }), "{e}");
        let e = kernel.bind("output_data", &floats).bind("input_data0", &floats).bind("input_data1", &floats).invocations(1).run().expect_err("f32 for vec4");
        assert!(matches!(e, shoal::Error::ElementLayout { .. }), "{e}");
        assert!(e.to_string().contains("multiply.comp"), "{e}");
    }
}

/// Run-time translation (native, hot reload) is the macro's translation.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn glsl_at_run_time_equals_the_macro() {
    let text = include_str!("../wgsl/glsl/shift.comp");
    let source = Source::glsl("wgsl/glsl/shift.comp", text).expect("translates");
    assert_eq!(source.text(), SHIFT.text());
    assert_eq!(SHIFT.path(), "wgsl/glsl/shift.comp");
}

/// A glslang error names the file and line; a refused construct names its WGSL equivalent.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn glsl_errors_are_typed_with_file_and_line() {
    let broken = "#version 450\nlayout(local_size_x = 1) in;\nvoid main() {\n    nope = 1;\n}\n";
    match Source::glsl("edited/broken.comp", broken) {
        Err(shoal::Error::Glsl { kernel, message }) => {
            assert_eq!(kernel, "edited/broken.comp");
            assert!(message.contains("edited/broken.comp:4:"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let combined = "#version 450\nlayout(local_size_x = 8) in;\nlayout(binding = 0) uniform sampler2D tex[4];\nvoid main() {}\n";
    match Source::glsl("k.comp", combined) {
        Err(e @ shoal::Error::GlslUnsupported { .. }) => {
            let text = e.to_string();
            assert!(
                text.contains("k.comp:3")
                    && text.contains("sampler2D tex[4]")
                    && text.contains("one `uniform sampler2D name;` per texture"),
                "{text}"
            );
        }
        other => panic!("{other:?}"),
    }
}
