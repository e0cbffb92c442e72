//! The Direct3D 12 book's HLSL programs (`wgsl/hlsl/*.hlsl`, translated by `shoal::hlsl!` at
//! compile time, so they run natively and in the browser), each dispatched and checked against a
//! CPU reference: VecAdd's printed table, texture add, the separable blur with its groupshared
//! cache, the particles' consume and append, Sobel and the wave equation. `corpus` has the HLSL
//! corpus; `run_time` checks `Source::hlsl` against the macro and its typed errors.

use glam::{IVec2, Vec3, Vec4};
use shoal::Source;
use shoal::wgpu::TextureFormat;
use shoal_conformance::gpu_test;
use shoal_conformance::programs::{Data, VECADD_TABLE, vecadd_inputs, vecadd_row};
use shoal_conformance::rng::Rng;

use crate::blur::cpu::{blur_horizontal, blur_vertical};
use crate::blur::gaussian_weights;
use crate::sobel::cpu::sobel_cpu;
use crate::test_image::test_image;
use crate::texture_add::texture_add_cpu;
use crate::waves::cpu::WavesCpu;

mod corpus;
#[cfg(not(target_arch = "wasm32"))]
mod run_time;

const VECADD: Source = shoal::hlsl!("../wgsl/hlsl/vecadd.hlsl", "CS");
const TEXTURE_ADD: Source = shoal::hlsl!("../wgsl/hlsl/texture_add.hlsl", "CS");
const BLUR_H: Source = shoal::hlsl!("../wgsl/hlsl/blur.hlsl", "HorzBlurCS");
const BLUR_V: Source = shoal::hlsl!("../wgsl/hlsl/blur.hlsl", "VertBlurCS");
const PARTICLES: Source = shoal::hlsl!("../wgsl/hlsl/particles.hlsl", "CS");
const SOBEL: Source = shoal::hlsl!("../wgsl/hlsl/sobel.hlsl", "SobelCS");
const WAVES: Source = shoal::hlsl!("../wgsl/hlsl/waves.hlsl", "UpdateWavesCS");
const DISTURB: Source = shoal::hlsl!("../wgsl/hlsl/waves.hlsl", "DisturbWavesCS");

/// The blur's `BlurDispatchCB` as the book declares it (its descriptor indices unused here).
#[derive(Debug, Clone, Copy, encase::ShaderType)]
struct BlurDispatchCb {
    weight_vec: [Vec4; 8],
    blur_radius: i32,
    input_index: u32,
    output_index: u32,
    pad: u32,
}

/// The waves' `cbUpdateSettings` as the book declares it.
#[derive(Debug, Clone, Copy, encase::ShaderType)]
struct UpdateSettings {
    wave_constant: [f32; 3],
    disturb_mag: f32,
    disturb_index: IVec2,
    index_a: u32,
    index_b: u32,
    output_index: u32,
}

/// The book's particle: three `float3`s (16 bytes apart in the structured buffer, as in WGSL).
#[derive(Debug, Clone, Copy, PartialEq, encase::ShaderType)]
struct Particle {
    position: Vec3,
    velocity: Vec3,
    acceleration: Vec3,
}

/// The largest difference between two images' texels.
fn worst(got: &[Vec4], want: &[Vec4]) -> f32 {
    assert_eq!(got.len(), want.len());
    got.iter()
        .zip(want)
        .map(|(g, w)| (*g - *w).abs().max_element())
        .fold(0.0, f32::max)
}

gpu_test! {
    /// VecAdd from the book's HLSL: the 32 rows the book prints, exactly; then 1, 31, 33 and
    /// 1,000 random elements against their sums.
    async fn hlsl_vecadd_prints_the_books_table(gpu) {
        let kernel = gpu.kernel(VECADD).expect("kernel");
        assert_eq!(kernel.workgroup_size(), [32, 1, 1]);
        let (a, b) = vecadd_inputs(32);
        let (ia, ib) = (gpu.buffer_from(&a).expect("a"), gpu.buffer_from(&b).expect("b"));
        let out = gpu.buffer_zeroed::<Data>(32).expect("out");
        kernel.bind("gInputA", &ia).bind("gInputB", &ib).bind("gOutput", &out).groups([1, 1, 1]).run().expect("run");
        let rows: Vec<String> = out.read().await.expect("read").iter().map(vecadd_row).collect();
        assert_eq!(rows.join("\n"), VECADD_TABLE);
        let mut rng = Rng::new(17);
        for n in [1usize, 31, 33, 1000] {
            let mut data = || -> Vec<Data> {
                (0..n).map(|_| Data {
                    v1: Vec3::new(rng.range_f32(-100.0, 100.0), rng.range_f32(-100.0, 100.0), rng.range_f32(-100.0, 100.0)),
                    v2: glam::Vec2::new(rng.range_f32(-100.0, 100.0), rng.range_f32(-100.0, 100.0)),
                }).collect()
            };
            let (a, b) = (data(), data());
            let (ia, ib) = (gpu.buffer_from(&a).expect("a"), gpu.buffer_from(&b).expect("b"));
            let out = gpu.buffer_zeroed::<Data>(n as u64).expect("out");
            kernel.bind("gInputA", &ia).bind("gInputB", &ib).bind("gOutput", &out).invocations(n as u64).run().expect("run");
            let want: Vec<Data> = a.iter().zip(&b).map(|(p, q)| Data { v1: p.v1 + q.v1, v2: p.v2 + q.v2 }).collect();
            assert_eq!(out.read().await.expect("read"), want, "{n} elements");
        }
    }

    /// Texture add from the book's HLSL: every texel the CPU's sum, at sizes around 16x16.
    async fn hlsl_texture_add(gpu) {
        let kernel = gpu.kernel(TEXTURE_ADD).expect("kernel");
        let mut rng = Rng::new(3);
        for [w, h] in [[1u32, 1u32], [15, 17], [16, 16], [17, 33], [100, 37]] {
            let mut texels = || -> Vec<[f32; 4]> { (0..w * h).map(|_| [0; 4].map(|_| rng.range_f32(-10.0, 10.0))).collect() };
            let (a, b) = (texels(), texels());
            let ia = gpu.image_from(w, h, TextureFormat::Rgba32Float, &a).expect("a");
            let ib = gpu.image_from(w, h, TextureFormat::Rgba32Float, &b).expect("b");
            let out = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("out");
            kernel.bind("gInputA", &ia).bind("gInputB", &ib).bind("gOutput", &out).groups([w.div_ceil(16), h.div_ceil(16), 1]).run().expect("run");
            assert_eq!(out.read::<[f32; 4]>().await.expect("read"), texture_add_cpu(&a, &b), "{w}x{h}");
        }
    }

    /// The book's separable blur from its HLSL (groupshared cache of N + 2R texels): one pass,
    /// horizontal then vertical, against the CPU's taps, for radii 1, 4 and the maximum 15, at
    /// sizes that cut the 256-thread groups.
    async fn hlsl_blur_with_groupshared_cache(gpu) {
        let horizontal = gpu.kernel(BLUR_H).expect("horizontal");
        let vertical = gpu.kernel(BLUR_V).expect("vertical");
        assert_eq!((horizontal.workgroup_size(), vertical.workgroup_size()), ([256, 1, 1], [1, 256, 1]));
        for (r, [w, h]) in [(1u32, [1u32, 1u32]), (4, [5, 3]), (15, [255, 2]), (4, [257, 3]), (15, [3, 258])] {
            let weights = gaussian_weights(r as f32 / 2.0).expect("weights");
            assert_eq!(weights.len() as u32, 2 * r + 1);
            let mut weight_vec = [Vec4::ZERO; 8];
            for (i, w) in weights.iter().enumerate() {
                weight_vec[i / 4][i % 4] = *w;
            }
            let cb = gpu.uniform(&BlurDispatchCb { weight_vec, blur_radius: r as i32, input_index: 0, output_index: 0, pad: 0 }).expect("cbuffer");
            let src = test_image(w, h);
            let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src).expect("image");
            let scratch = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("scratch");
            let mut commands = gpu.commands();
            horizontal.bind("gInput", &image).bind("gOutput", &scratch).bind("BlurDispatchCB", &cb).groups([w.div_ceil(256), h, 1]).record(&mut commands).expect("horizontal");
            vertical.bind("gInput", &scratch).bind("gOutput", &image).bind("BlurDispatchCB", &cb).groups([w, h.div_ceil(256), 1]).record(&mut commands).expect("vertical");
            commands.submit().expect("submit");
            let want = blur_vertical(&blur_horizontal(&src, w, h, &weights), w, h, &weights);
            let e = worst(&image.read().await.expect("read"), &want);
            assert!(e <= 1e-5, "radius {r}, {w}x{h}: differs from the CPU by {e}");
        }
    }

    /// The particles' consume and append on Shoal's append buffers: as many threads as particles
    /// (the book's use) gives every particle stepped once; more threads than particles consume
    /// zeroed items without wrapping the input's counter; appends past the output's capacity
    /// are dropped and counted (`AppendOverflow`).
    async fn hlsl_particles_consume_and_append(gpu) {
        let kernel = gpu.kernel(PARTICLES).expect("kernel");
        assert_eq!(kernel.workgroup_size(), [16, 16, 1]);
        let dt = 1.0f32 / 60.0;
        let step = |p: &Particle| {
            let velocity = p.velocity + p.acceleration * dt;
            Particle { position: p.position + velocity * dt, velocity, acceleration: p.acceleration }
        };
        let mut rng = Rng::new(29);
        for (particles, groups, capacity) in [(256usize, 1u32, 256u64), (512, 2, 600), (300, 2, 512), (512, 2, 500)] {
            // acceleration.z is each particle's index: the key that matches GPU to CPU.
            let input: Vec<Particle> = (0..particles).map(|i| Particle {
                position: Vec3::new(rng.range_f32(-5.0, 5.0), rng.range_f32(-5.0, 5.0), rng.range_f32(-5.0, 5.0)),
                velocity: Vec3::new(rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0)),
                acceleration: Vec3::new(rng.range_f32(-1.0, 1.0), -9.8, i as f32 + 1.0),
            }).collect();
            let gin = gpu.append_buffer::<Particle>(particles as u64).expect("input");
            gin.fill(&input).expect("fill");
            let gout = gpu.append_buffer::<Particle>(capacity).expect("output");
            kernel.bind("gInput", &gin).bind("gOutput", &gout).groups([groups, 1, 1]).run().expect("run");
            let threads = 256 * groups as usize;
            assert_eq!(gin.count().await.expect("input count"), 0, "{particles}: every particle consumed, the counter at 0");
            if threads > capacity as usize {
                let e = gout.count().await.expect_err("overflow");
                assert!(matches!(e, shoal::Error::AppendOverflow { .. }), "{e}");
                assert!(e.to_string().contains(&threads.to_string()), "{e}");
                continue;
            }
            let mut got = gout.read().await.expect("read");
            assert_eq!(got.len(), threads, "one append per thread");
            got.sort_by(|a, b| a.acceleration.z.total_cmp(&b.acceleration.z));
            let zeroed = threads - particles;
            assert!(got[..zeroed].iter().all(|p| *p == Particle { position: Vec3::ZERO, velocity: Vec3::ZERO, acceleration: Vec3::ZERO }), "consumes past the count give zeroed particles");
            for (g, p) in got[zeroed..].iter().zip(&input) {
                let w = step(p);
                assert_eq!(g.acceleration, w.acceleration);
                assert!((g.velocity - w.velocity).abs().max_element() <= 1e-6 && (g.position - w.position).abs().max_element() <= 1e-5, "{g:?} vs {w:?}");
            }
        }
    }

    /// Sobel from the chapter's HLSL: the CPU's inverted edge image, at sizes around 16x16.
    async fn hlsl_sobel(gpu) {
        let kernel = gpu.kernel(SOBEL).expect("kernel");
        for [w, h] in [[1u32, 1u32], [2, 3], [16, 16], [28, 14], [33, 17]] {
            let src = test_image(w, h);
            let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src).expect("image");
            let edges = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("edges");
            kernel.bind("gInput", &image).bind("gOutput", &edges).groups([w.div_ceil(16), h.div_ceil(16), 1]).run().expect("run");
            let e = worst(&edges.read().await.expect("read"), &sobel_cpu(&src, w, h));
            assert!(e <= 1e-5, "{w}x{h}: differs from the CPU by {e}");
        }
    }

    /// The wave equation from the chapter's HLSL: a disturbance, then steps rotating the three
    /// r32float images, against the CPU twin's surface after each.
    async fn hlsl_wave_equation(gpu) {
        let update = gpu.kernel(WAVES).expect("update");
        let disturb = gpu.kernel(DISTURB).expect("disturb");
        let k = [-0.9f32, 1.2, 0.2];
        for [w, h] in [[3u32, 3u32], [17, 16], [40, 33]] {
            let (x, y) = (w as i32 / 2, h as i32 / 2);
            let settings = gpu.uniform(&UpdateSettings { wave_constant: k, disturb_mag: 0.75, disturb_index: IVec2::new(x, y), index_a: 0, index_b: 0, output_index: 0 }).expect("cbuffer");
            let images: Vec<_> = (0..3).map(|_| gpu.image_zeroed(w, h, TextureFormat::R32Float).expect("image")).collect();
            let mut cpu = WavesCpu::new(w, h, k);
            cpu.disturb(x as u32, y as u32, 0.75);
            disturb.bind("gOutput", &images[1]).bind("cbUpdateSettings", &settings).groups([1, 1, 1]).run().expect("disturb");
            let (mut prev, mut curr, mut next) = (0, 1, 2);
            for step in 0..6 {
                update.bind("gPrevSolInput", &images[prev]).bind("gCurrSolInput", &images[curr]).bind("gNextSolOutput", &images[next]).bind("cbUpdateSettings", &settings).groups([w.div_ceil(16), h.div_ceil(16), 1]).run().expect("update");
                cpu.step();
                (prev, curr, next) = (curr, next, prev);
                let got: Vec<f32> = images[curr].read().await.expect("read");
                let e = got.iter().zip(&cpu.curr).map(|(g, c)| (g - c).abs()).fold(0.0, f32::max);
                assert!(e <= 1e-5, "{w}x{h}, step {step}: differs from the CPU by {e}");
            }
        }
    }
}
