use glam::Vec4;
use shoal::wgpu::TextureFormat;
use shoal_conformance::gpu_test;

use super::*;
use crate::from_source_tests::{assert_names_line_3, broken};
use crate::test_image::test_image;

const BILATERAL: &str = include_str!("../../wgsl/bilateral.wgsl");

/// The filter from its definition (the Direct3D 12 book, exercise 4; `wgsl/bilateral.wgsl`), in f64 and from the
/// sigmas alone: w(p, q) = exp(−|p − q|²/2σs²) · exp(−|Δrgb|²/2σr²) over the window of radius
/// ⌈2σs⌉, borders clamped, out(p) = Σ w·in(q) / Σ w.
fn bilateral_from_definition(
    src: &[Vec4],
    w: u32,
    h: u32,
    sigma_s: f32,
    sigma_r: f32,
) -> Vec<Vec4> {
    let (w, h) = (w as i64, h as i64);
    let (ss, sr) = (sigma_s as f64, sigma_r as f64);
    let r = (2.0 * ss).ceil() as i64;
    let at = |x: i64, y: i64| src[(y.clamp(0, h - 1) * w + x.clamp(0, w - 1)) as usize].as_dvec4();
    let mut out = Vec::with_capacity(src.len());
    for y in 0..h {
        for x in 0..w {
            let center = at(x, y);
            let (mut sum, mut total) = (glam::DVec4::ZERO, 0.0f64);
            for dy in -r..=r {
                for dx in -r..=r {
                    let c = at(x + dx, y + dy);
                    let d = (c - center).truncate();
                    let weight = (-((dx * dx + dy * dy) as f64) / (2.0 * ss * ss)).exp()
                        * (-d.length_squared() / (2.0 * sr * sr)).exp();
                    sum += weight * c;
                    total += weight;
                }
            }
            out.push((sum / total).as_vec4());
        }
    }
    out
}

gpu_test! {
    /// `radius()` and `coefficients()`, which the kernel's uniform and the CPU twin both take,
    /// against their formulas ⌈2σs⌉, 1/(2σs²) and 1/(2σr²) for sigmas ≠ 1 (where σ² ≠ σ, so a
    /// `1/(2σ)` shows); and the GPU filter against the filter written from its definition.
    async fn coefficients_and_radius_follow_their_formulas(gpu) {
        let (w, h) = (23u32, 17u32);
        let src = test_image(w, h);
        for (spatial_sigma, range_sigma, radius) in [(0.7f32, 0.05f32, 2u32), (2.5, 0.3, 5), (4.2, 1.7, 9)] {
            let params = BilateralParams { spatial_sigma, range_sigma };
            assert_eq!(params.radius(), radius, "{params:?}: ceil(2 sigma_s)");
            let (spatial, range) = params.coefficients();
            let inv = |s: f32| 1.0 / (2.0 * (s as f64).powi(2));
            for (what, got, want) in [("spatial", spatial, inv(spatial_sigma)), ("range", range, inv(range_sigma))] {
                assert!((got as f64 - want).abs() <= 1e-6 * want, "{params:?}: {what} coefficient {got}, want {want}");
            }
            let filter = Bilateral::new(&gpu, params).expect("bilateral");
            let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src).expect("image");
            let out = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image");
            filter.run(BilateralArgs { src: &image, dst: &out }).expect("run");
            let got: Vec<Vec4> = out.read().await.expect("read");
            for (i, (g, c)) in got.iter().zip(&bilateral_from_definition(&src, w, h, spatial_sigma, range_sigma)).enumerate() {
                let e = (*g - *c).abs().max_element();
                assert!(e <= 2e-5, "{params:?}: texel ({}, {}): gpu {g} definition {c} (error {e})", i as u32 % w, i as u32 / w);
            }
        }
    }

    /// The bilateral filter of the test picture against the CPU, for a narrow and a wide window.
    async fn bilateral_matches_cpu(gpu) {
        for (size, spatial_sigma, range_sigma) in [([28u32, 14u32], 1.0f32, 0.1f32), ([97, 61], 3.0, 0.25), ([1, 1], 1.0, 0.1), ([5, 40], 0.5, 1.0)] {
            let [w, h] = size;
            let params = BilateralParams { spatial_sigma, range_sigma };
            let filter = Bilateral::new(&gpu, params).expect("bilateral");
            let src = test_image(w, h);
            let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src).expect("image");
            let out = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image");
            filter.run(BilateralArgs { src: &image, dst: &out }).expect("run");
            let got: Vec<Vec4> = out.read().await.expect("read");
            let want = bilateral_cpu(&src, w, h, &params);
            for (i, (g, c)) in got.iter().zip(&want).enumerate() {
                // exp on the GPU may differ from the CPU's by a few ulps; the weights are
                // normalised, so the result moves by about as much.
                let e = (*g - *c).abs().max_element();
                assert!(e <= 2e-5, "{w}x{h} sigma_s={spatial_sigma}: texel {i}: gpu {g} cpu {c} (error {e})");
            }
        }
    }

    /// New sigmas through `set_params`, and a record into a batch, against the twin.
    async fn set_params_and_record(gpu) {
        let (w, h) = (40u32, 33u32);
        let mut filter = Bilateral::new(&gpu, BilateralParams { spatial_sigma: 1.0, range_sigma: 0.1 }).expect("bilateral");
        let wide = BilateralParams { spatial_sigma: 2.0, range_sigma: 0.3 };
        filter.set_params(wide).expect("params");
        assert_eq!(*filter.params(), wide);
        let src = test_image(w, h);
        let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src).expect("image");
        let out = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image");
        let mut commands = gpu.commands();
        filter.record(&mut commands, BilateralArgs { src: &image, dst: &out }).expect("record");
        commands.submit().expect("submit");
        let got: Vec<Vec4> = out.read().await.expect("read");
        for (i, (g, c)) in got.iter().zip(&bilateral_cpu(&src, w, h, &wide)).enumerate() {
            let e = (*g - *c).abs().max_element();
            assert!(e <= 2e-5, "texel {i}: gpu {g} cpu {c} (error {e})");
        }
    }

    /// A broken source is a typed error naming file and line, from `from_source` and from
    /// `set_source`, and the old kernel keeps filtering.
    async fn bilateral_from_source_errors_are_typed_and_keep_old(gpu) {
        let params = BilateralParams { spatial_sigma: 1.0, range_sigma: 0.2 };
        let mut filter = Bilateral::from_source(&gpu, Source::new("edited/bilateral.wgsl", BILATERAL), params).expect("bilateral");
        assert_names_line_3(filter.set_source(broken("edited/bilateral.wgsl", BILATERAL)), "edited/bilateral.wgsl");
        assert_names_line_3(Bilateral::from_source(&gpu, broken("edited/bilateral.wgsl", BILATERAL), params).map(drop), "edited/bilateral.wgsl");
        let (w, h) = (12u32, 9u32);
        let src = test_image(w, h);
        let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src).expect("image");
        let out = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image");
        filter.run(BilateralArgs { src: &image, dst: &out }).expect("the old kernel still runs");
        let got: Vec<Vec4> = out.read().await.expect("read");
        for (g, c) in got.iter().zip(&bilateral_cpu(&src, w, h, &params)) {
            assert!((*g - *c).abs().max_element() <= 2e-5, "gpu {g} cpu {c}");
        }
    }

    /// Sigmas outside the filter's rules are typed errors, from `new` and from `set_params`
    /// (which keeps the old ones).
    async fn bilateral_refuses_bad_sigmas(gpu) {
        let good = BilateralParams { spatial_sigma: 1.0, range_sigma: 0.1 };
        let mut filter = Bilateral::new(&gpu, good).expect("bilateral");
        for (s, r) in [(0.0f32, 0.1f32), (8.0, 0.1), (1.0, 0.0), (1.0, f32::INFINITY)] {
            let params = BilateralParams { spatial_sigma: s, range_sigma: r };
            assert!(matches!(Bilateral::new(&gpu, params), Err(Error::InvalidParameter { .. })), "{params:?}");
            assert!(matches!(filter.set_params(params), Err(Error::InvalidParameter { .. })), "{params:?}");
            assert_eq!(*filter.params(), good);
        }
    }
}

/// Edges survive: a step edge stays a step where a Gaussian blur of the same σ would smear it.
#[test]
fn keeps_edges_where_a_gaussian_smears_them() {
    let (w, h) = (32u32, 4u32);
    let src: Vec<Vec4> = (0..w * h)
        .map(|i| if i % w < 16 { Vec4::ZERO } else { Vec4::ONE })
        .collect();
    let params = BilateralParams {
        spatial_sigma: 2.0,
        range_sigma: 0.1,
    };
    let out = bilateral_cpu(&src, w, h, &params);
    assert!(
        out[15].x < 1e-3 && out[16].x > 1.0 - 1e-3,
        "{} {}",
        out[15],
        out[16]
    );
}
