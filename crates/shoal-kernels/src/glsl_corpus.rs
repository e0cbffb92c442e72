//! The GLSL corpus (`wgsl/glsl/corpus/`): thirty-three compute kernels written in the styles of
//! Vulkan API samples (push constants, specialization constants, `local_size_x_id`), OpenGL 4.3
//! programs (loose
//! uniforms) and engines (includes, helpers taking combined image samplers), each translated by
//! `Source::glsl_with` and made a kernel on the test's device; a third of them dispatched and
//! checked against a CPU reference written here, which also tests each GLSL rewrite end to end.

use encase::ShaderType;
use glam::Vec4;
use shoal::{GlslOptions, Source};
use shoal_conformance::gpu_test;
use shoal_conformance::rng::Rng;

/// The corpus directory, which `#include`s are relative to.
const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/wgsl/glsl/corpus");

macro_rules! corpus {
    ($($name:literal),+ $(,)?) => {
        &[$(($name, include_str!(concat!("../wgsl/glsl/corpus/", $name)))),+]
    };
}

/// Every kernel of the corpus, by file name.
const CORPUS: &[(&str, &str)] = corpus![
    "saxpy_spec.comp",
    "reduce_local_size_id.comp",
    "spec_expression_loop.comp",
    "lod_histogram.comp",
    "gl_particles.comp",
    "gl_scale_bias.comp",
    "gl_image_fill.comp",
    "engine_sample_helper.comp",
    "engine_include_hash.comp",
    "engine_shadow_compare.comp",
    "texel_fetch_usampler.comp",
    "histogram_shared_atomics.comp",
    "matmul_tiled_spec.comp",
    "transpose_shared.comp",
    "gl_mandelbrot.comp",
    "image_copy_formatless.comp",
    "vk_ubo_params.comp",
    "engine_texture_array.comp",
    "gl_volume_sampler3d.comp",
    "spec_bool_branch.comp",
    "spec_float_ratio.comp",
    "gl_wave_equation.comp",
    "engine_sobel.comp",
    "isampler_gather.comp",
    "reduce_spec_half.comp",
    "grid_ids.comp",
    "gl_loose_struct_uniform.comp",
    "bitonic_step.comp",
    "prefix_scan_shared.comp",
    "engine_cube_sampler.comp",
    "pc_scale_offset.comp",
    "pc_image_tint.comp",
    "pc_sampled_lookup.comp",
];

/// The corpus kernel `name` translated with `options` (its directory added).
fn source(name: &str, options: GlslOptions) -> Source {
    let text = CORPUS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
        .unwrap_or_else(|| panic!("{name} is not in the corpus"));
    let mut options = options;
    options.directory = Some(DIR.into());
    Source::glsl_with(format!("wgsl/glsl/corpus/{name}"), text, &options)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The options the corpus kernels need: formats for formatless images, a value for MAX_LOD.
fn options() -> GlslOptions {
    GlslOptions::new()
        .image_format("fractal", "rgba8")
        .image_format("dst_image", "rgba32f")
        .constant("MAX_LOD", 5)
}

/// `hash_u32` of `include/hash.glsl`.
fn hash_u32(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^= x >> 16;
    x
}

/// The uniform block `gl_particles.comp`'s loose uniforms are gathered into.
#[derive(Debug, Clone, Copy, ShaderType)]
struct ParticleUniforms {
    dt: f32,
    gravity: Vec4,
}

/// The push-constant block of `pc_scale_offset.comp`.
#[derive(Debug, Clone, Copy, ShaderType)]
struct ScaleOffset {
    scale: f32,
    offset: f32,
    count: u32,
}

/// The uniform block of `gl_scale_bias.comp`.
#[derive(Debug, Clone, Copy, ShaderType)]
struct ScaleBias {
    scale: f32,
    bias: f32,
    count: u32,
}

/// The uniform block `Dims` of `matmul_tiled_spec.comp`.
#[derive(Debug, Clone, Copy, ShaderType)]
struct Dims {
    n: u32,
}

/// The uniform block `Shape` of `transpose_shared.comp`.
#[derive(Debug, Clone, Copy, ShaderType)]
struct Shape {
    width: u32,
    height: u32,
}

/// The lengths every buffer test runs: empty, one, around the work groups, not a power of two.
const LENGTHS: [usize; 7] = [0, 1, 63, 64, 65, 128, 1000];

gpu_test! {
    /// Every corpus kernel translates and becomes a kernel (reflected, its pipeline created).
    async fn glsl_corpus_kernels_build(gpu) {
        for (name, _) in CORPUS {
            gpu.kernel(source(name, options())).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    /// A float specialization constant set per kernel: y = A·x + y.
    async fn glsl_corpus_saxpy_spec_constant(gpu) {
        let kernel = gpu.kernel_builder(source("saxpy_spec.comp", options())).constant("A", 3.0).build().expect("kernel");
        let mut rng = Rng::new(3);
        for n in LENGTHS {
            // Small integers: exact whether or not the device fuses the multiply-add.
            let x: Vec<f32> = (0..n).map(|_| (rng.next_u32() % 16) as f32 - 8.0).collect();
            let y: Vec<f32> = (0..n).map(|_| (rng.next_u32() % 16) as f32 - 8.0).collect();
            let (bx, by) = (gpu.buffer_from(&x).expect("x"), gpu.buffer_from(&y).expect("y"));
            kernel.bind("x", &bx).bind("y", &by).invocations(n as u64).run().expect("run");
            let want: Vec<f32> = x.iter().zip(&y).map(|(a, b)| 3.0 * a + b).collect();
            assert_eq!(by.read().await.expect("read"), want, "n = {n}");
        }
    }

    /// `local_size_x_id` with the size fixed from the options (it sizes a shared array).
    async fn glsl_corpus_work_group_size_from_constant_id(gpu) {
        let kernel = gpu.kernel(source("reduce_local_size_id.comp", options().constant("GROUP", 32))).expect("kernel");
        assert_eq!(kernel.workgroup_size(), [32, 1, 1]);
        for n in [1usize, 31, 32, 33, 100] {
            let values: Vec<u32> = (0..n as u32).map(|i| i * 7 % 11).collect();
            let groups = n.div_ceil(32);
            let input = gpu.buffer_from(&values).expect("values");
            let sums = gpu.buffer_zeroed::<u32>(groups as u64).expect("sums");
            kernel.bind("values", &input).bind("sums", &sums).groups([groups as u32, 1, 1]).run().expect("run");
            let want: Vec<u32> = values.chunks(32).map(|c| c.iter().sum()).collect();
            assert_eq!(sums.read().await.expect("read"), want, "n = {n}");
        }
    }

    /// `i < totalCount / LANES`: the expression on overrides set per kernel.
    async fn glsl_corpus_spec_constant_expression(gpu) {
        for total in [0u32, 4, 60, 128, 1000] {
            let kernel = gpu.kernel_builder(source("spec_expression_loop.comp", options())).constant("totalCount", total).build().expect("kernel");
            let data: Vec<u32> = (0..total.max(1)).map(|i| i * 3 + 1).collect();
            let input = gpu.buffer_from(&data).expect("data");
            let quads = gpu.buffer_zeroed::<u32>((total / 4).max(1) as u64).expect("quads");
            kernel.bind("data", &input).bind("quads", &quads).invocations(u64::from(total / 4).max(1)).run().expect("run");
            let mut want: Vec<u32> = data.chunks(4).take((total / 4) as usize).map(|c| c.iter().sum()).collect();
            want.resize((total / 4).max(1) as usize, 0);
            assert_eq!(quads.read().await.expect("read"), want, "totalCount = {total}");
        }
    }

    /// `lodCount[MAX_LOD + 1]` fixed at translation with MAX_LOD = 5 from the options.
    async fn glsl_corpus_array_sized_by_constant_expression(gpu) {
        let kernel = gpu.kernel(source("lod_histogram.comp", options())).expect("kernel");
        let mut rng = Rng::new(9);
        for n in LENGTHS {
            let lods: Vec<u32> = (0..n).map(|_| rng.next_u32() % 9).collect();
            let input = gpu.buffer_from(&lods).expect("lods");
            let counts = gpu.buffer_zeroed::<u32>(6).expect("counts");
            kernel.bind("lods", &input).bind("counts", &counts).invocations(n as u64).run().expect("run");
            let mut want = vec![0u32; 6];
            lods.iter().for_each(|&l| want[l.min(5) as usize] += 1);
            assert_eq!(counts.read().await.expect("read"), want, "n = {n}");
        }
    }

    /// OpenGL-style loose uniforms, bound together as `uniforms`.
    async fn glsl_corpus_loose_uniforms(gpu) {
        let kernel = gpu.kernel(source("gl_particles.comp", options())).expect("kernel");
        let step = ParticleUniforms { dt: 0.5, gravity: Vec4::new(0.0, -2.0, 0.0, 0.0) };
        let uniforms = gpu.uniform(&step).expect("uniforms");
        for n in LENGTHS {
            let pos: Vec<Vec4> = (0..n).map(|i| Vec4::splat(i as f32)).collect();
            let vel: Vec<Vec4> = (0..n).map(|i| Vec4::new(1.0, i as f32, 0.0, 0.0)).collect();
            let (bp, bv) = (gpu.buffer_from(&pos).expect("pos"), gpu.buffer_from(&vel).expect("vel"));
            kernel.bind("uniforms", &uniforms).bind("pos", &bp).bind("vel", &bv).invocations(n as u64).run().expect("run");
            let v: Vec<Vec4> = vel.iter().map(|v| *v + step.gravity * step.dt).collect();
            let p: Vec<Vec4> = pos.iter().zip(&v).map(|(p, v)| *p + *v * step.dt).collect();
            assert_eq!(bv.read().await.expect("read"), v, "n = {n}");
            assert_eq!(bp.read().await.expect("read"), p, "n = {n}");
        }
        let kernel = gpu.kernel(source("gl_scale_bias.comp", options())).expect("kernel");
        for n in LENGTHS {
            let data: Vec<f32> = (0..n).map(|i| i as f32).collect();
            let count = (n as u32).saturating_sub(1);
            let u = gpu.uniform(&ScaleBias { scale: 2.0, bias: -1.0, count }).expect("uniforms");
            let b = gpu.buffer_from(&data).expect("data");
            kernel.bind("uniforms", &u).bind("data", &b).invocations(n as u64).run().expect("run");
            let want: Vec<f32> = data.iter().enumerate().map(|(i, &d)| if (i as u32) < count { d * 2.0 - 1.0 } else { d }).collect();
            assert_eq!(b.read().await.expect("read"), want, "n = {n}");
        }
    }

    /// A combined image sampler split into `source_image` and `source_image_sampler`, passed to
    /// an included helper: every texel sampled at its centre, doubled.
    async fn glsl_corpus_combined_sampler_through_helper(gpu) {
        let kernel = gpu.kernel(source("engine_sample_helper.comp", options())).expect("kernel");
        let sampler = gpu.sampler_nearest();
        for [w, h] in [[1u32, 1u32], [7, 9], [8, 8], [17, 5]] {
            let texels: Vec<[u8; 4]> = (0..w * h).map(|i| [i as u8, (i * 3) as u8, 255 - i as u8, 7]).collect();
            let image = gpu.image_from(w, h, shoal::wgpu::TextureFormat::Rgba8Unorm, &texels).expect("image");
            let out = gpu.buffer_zeroed::<Vec4>(u64::from(w * h)).expect("out");
            kernel.bind("source_image", &image).bind("source_image_sampler", &sampler).bind("texels", &out).invocations_2d([w, h]).run().expect("run");
            let got = out.read().await.expect("read");
            for (i, (g, t)) in got.iter().zip(&texels).enumerate() {
                let want = Vec4::from_array(t.map(|c| f32::from(c) / 255.0)) * 2.0;
                assert!((*g - want).abs().max_element() < 1e-6, "{w}x{h} texel {i}: {g} != {want}");
            }
        }
    }

    /// Helpers from a guarded include that includes another (`glsl!`, so at compile time).
    async fn glsl_corpus_includes_at_compile_time(gpu) {
        let kernel = gpu.kernel(shoal::glsl!("../wgsl/glsl/corpus/engine_include_hash.comp")).expect("kernel");
        for n in LENGTHS {
            let out = gpu.buffer_zeroed::<u32>(n as u64).expect("out");
            kernel.bind("hashes", &out).invocations(n as u64).run().expect("run");
            let want: Vec<u32> = (0..n as u32).map(|i| hash_u32(i).rotate_left(5)).collect();
            assert_eq!(out.read().await.expect("read"), want, "n = {n}");
        }
    }

    /// `glsl!` options: a constant fixed at translation and a formatless image's format.
    async fn glsl_corpus_macro_options(gpu) {
        let lod = gpu.kernel(shoal::glsl!("../wgsl/glsl/corpus/lod_histogram.comp", constant = "MAX_LOD=2")).expect("kernel");
        let lods = gpu.buffer_from(&[0u32, 1, 2, 3, 4, 2]).expect("lods");
        let counts = gpu.buffer_zeroed::<u32>(3).expect("counts");
        lod.bind("lods", &lods).bind("counts", &counts).invocations(6).run().expect("run");
        assert_eq!(counts.read().await.expect("read"), [1, 1, 4]);
        gpu.kernel(shoal::glsl!("../wgsl/glsl/corpus/gl_mandelbrot.comp", format = "fractal=rgba8")).expect("kernel");
    }

    /// Shared-memory histogram, tiled matrix product (its tile a fixed spec constant), transpose.
    async fn glsl_corpus_shared_memory_kernels(gpu) {
        let mut rng = Rng::new(17);
        let histogram = gpu.kernel(source("histogram_shared_atomics.comp", options())).expect("kernel");
        for n in LENGTHS {
            let samples: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
            let input = gpu.buffer_from(&samples).expect("samples");
            let bins = gpu.buffer_zeroed::<u32>(16).expect("bins");
            histogram.bind("samples", &input).bind("bins", &bins).invocations(n as u64).run().expect("run");
            let mut want = vec![0u32; 16];
            samples.iter().for_each(|s| want[(s & 15) as usize] += 1);
            assert_eq!(bins.read().await.expect("read"), want, "n = {n}");
        }
        let matmul = gpu.kernel(source("matmul_tiled_spec.comp", options())).expect("kernel");
        assert_eq!(matmul.workgroup_size(), [8, 8, 1]);
        for n in [1u32, 7, 8, 9, 20] {
            let a: Vec<f32> = (0..n * n).map(|_| (rng.next_u32() % 5) as f32).collect();
            let b: Vec<f32> = (0..n * n).map(|_| (rng.next_u32() % 5) as f32).collect();
            let (ba, bb) = (gpu.buffer_from(&a).expect("a"), gpu.buffer_from(&b).expect("b"));
            let c = gpu.buffer_zeroed::<f32>(u64::from(n * n)).expect("c");
            let dims = gpu.uniform(&Dims { n }).expect("dims");
            matmul.bind("a", &ba).bind("b", &bb).bind("c", &c).bind("dims", &dims).invocations_2d([n, n]).run().expect("run");
            let n = n as usize;
            let want: Vec<f32> = (0..n * n).map(|i| (0..n).map(|k| a[i / n * n + k] * b[k * n + i % n]).sum()).collect();
            assert_eq!(c.read().await.expect("read"), want, "n = {n}");
        }
        let transpose = gpu.kernel(source("transpose_shared.comp", options())).expect("kernel");
        for [w, h] in [[1u32, 1u32], [15, 17], [16, 16], [33, 5]] {
            let src: Vec<f32> = (0..w * h).map(|i| i as f32).collect();
            let input = gpu.buffer_from(&src).expect("src");
            let dst = gpu.buffer_zeroed::<f32>(u64::from(w * h)).expect("dst");
            let shape = gpu.uniform(&Shape { width: w, height: h }).expect("shape");
            transpose.bind("src", &input).bind("dst", &dst).bind("shape", &shape).groups([w.div_ceil(16), h.div_ceil(16), 1]).run().expect("run");
            let want: Vec<f32> = (0..w * h).map(|i| src[((i % h) * w + i / h) as usize]).collect();
            assert_eq!(dst.read().await.expect("read"), want, "{w}x{h}");
        }
    }

    /// Subgroup operations (compiled for SPIR-V 1.3) where the device has subgroups; a typed
    /// `MissingFeature` where it has none.
    async fn glsl_corpus_subgroup_operations(gpu) {
        let text = "#version 450
#extension GL_KHR_shader_subgroup_arithmetic : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { v[gl_GlobalInvocationID.x] = subgroupAdd(v[gl_GlobalInvocationID.x]); }
";
        let source = Source::glsl("subgroups.comp", text).expect("translates");
        match gpu.kernel(source) {
            Ok(kernel) => {
                let v = gpu.buffer_from(&[1u32; 128]).expect("v");
                kernel.bind("v", &v).invocations(128).run().expect("run");
                let got = v.read().await.expect("read");
                // Each lane holds its subgroup's size: one power of two dividing the group.
                assert!(got.iter().all(|&s| s == got[0] && s.is_power_of_two() && 64 % s == 0), "{got:?}");
            }
            Err(e) => assert!(matches!(e, shoal::Error::MissingFeature { ref feature, .. } if feature == "SUBGROUP"), "{e}"),
        }
    }

    /// `debugPrintfEXT` onto Shoal's printf: each argument a record, in order, with the
    /// invocation, read with `Kernel::printed`.
    async fn glsl_debug_printf_records(gpu) {
        let text = "#version 450
#extension GL_EXT_debug_printf : enable
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer B { float v[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < uint(v.length())) {
        if (i % 10u == 3u) debugPrintfEXT(\"i = %u, v = %f, %v2i\", i, v[i], ivec2(int(i), -1));
        v[i] += 1.0;
    }
}
";
        let kernel = gpu.kernel(Source::glsl("printf.comp", text).expect("translates")).expect("kernel");
        for n in [0usize, 1, 4, 64, 100] {
            let data: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
            let v = gpu.buffer_from(&data).expect("v");
            kernel.bind("v", &v).invocations(n as u64).run().expect("run");
            let want: Vec<f32> = data.iter().map(|x| x + 1.0).collect();
            assert_eq!(v.read().await.expect("read"), want, "n = {n}");
            let log = kernel.printed().await.expect("printed");
            let mut got: Vec<_> = log.records.iter().map(|r| (r.gid[0], r.value.clone())).collect();
            // Records of one invocation are in order; invocations may interleave.
            got.sort_by_key(|(g, _)| *g);
            let want: Vec<_> = (0..n as u32)
                .filter(|i| i % 10 == 3)
                .flat_map(|i| {
                    [
                        (i, shoal::PrintValue::U32(vec![i])),
                        (i, shoal::PrintValue::F32(vec![i as f32 * 0.5])),
                        (i, shoal::PrintValue::I32(vec![i as i32, -1])),
                    ]
                })
                .collect();
            assert_eq!(got, want, "n = {n}");
        }
    }

    /// A push-constant block set per dispatch, beside a work-group size from `local_size_x_id`
    /// set as an override.
    async fn glsl_corpus_push_constants(gpu) {
        let kernel = gpu.kernel_builder(source("pc_scale_offset.comp", options())).constant("WORKGROUP", 32).build().expect("kernel");
        assert_eq!(kernel.workgroup_size(), [32, 1, 1]);
        for n in LENGTHS {
            let data: Vec<f32> = (0..n).map(|i| i as f32).collect();
            let b = gpu.buffer_from(&data).expect("data");
            let count = (n as u32).saturating_sub(2);
            let params = ScaleOffset { scale: 3.0, offset: -2.0, count };
            kernel.bind("data", &b).immediates(&params).invocations(n as u64).run().expect("run");
            let want: Vec<f32> = data.iter().enumerate().map(|(i, &d)| if (i as u32) < count { d * 3.0 - 2.0 } else { d }).collect();
            assert_eq!(b.read().await.expect("read"), want, "n = {n}");
        }
    }
}
