use shoal::wgpu::TextureFormat;
use shoal_conformance::gpu_test;

use super::*;
use crate::from_source_tests::{assert_names_line_3, broken};
use crate::test_image::test_image;

const BLUR: &str = include_str!("../../wgsl/blur.wgsl");

/// The bound: f32 sums of at most 31 taps per pass, a few passes.
const TOLERANCE: f32 = 1e-5;

fn worst(got: &[Vec4], want: &[Vec4]) -> (f32, usize) {
    let mut worst = (0.0f32, 0);
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let e = (*g - *w).abs().max_element();
        if e > worst.0 || e.is_nan() {
            worst = (e, i);
        }
    }
    worst
}

/// Blurs the test picture at `size` with radius `r` (σ = r/2, so ⌈2σ⌉ = r) for `passes` passes
/// on the GPU and the CPU, and compares every texel.
async fn check(
    gpu: &Gpu,
    blur: &mut GaussianBlur,
    [w, h]: [u32; 2],
    r: u32,
    passes: u32,
) -> Vec<Vec4> {
    blur.set_sigma(r as f32 / 2.0).expect("sigma");
    assert_eq!(blur.radius(), r);
    let src = test_image(w, h);
    let image = gpu
        .image_from(w, h, TextureFormat::Rgba32Float, &src)
        .expect("image");
    blur.run(BlurArgs {
        image: &image,
        passes,
    })
    .expect("blur");
    let got: Vec<Vec4> = image.read().await.expect("read");
    let want = gaussian_blur_cpu(&src, w, h, blur.weights(), passes);
    let (e, i) = worst(&got, &want);
    assert!(
        e <= TOLERANCE,
        "{w}x{h} r={r} passes={passes} N={}: texel ({}, {}): gpu {} cpu {} (error {e})",
        blur.workgroup_size(),
        i as u32 % w,
        i as u32 / w,
        got[i],
        want[i]
    );
    got
}

/// The Direct3D 12 book's weights (§13.7) in closed form, in f64: R = ⌈2σ⌉ taps either side,
/// G(x) = exp(−x²/2σ²) for x in −R..=R, each divided by their sum.
fn closed_form_weights(sigma: f32) -> Vec<f32> {
    let sigma = sigma as f64;
    let r = (2.0 * sigma).ceil() as i32;
    let g: Vec<f64> = (-r..=r)
        .map(|x| (-(x as f64).powi(2) / (2.0 * sigma.powi(2))).exp())
        .collect();
    let sum: f64 = g.iter().sum();
    g.iter().map(|g| (g / sum) as f32).collect()
}

/// Fewer cases on GL, where every test takes its turn on one context: each family is still
/// checked there, at every size.
fn is_gl(gpu: &Gpu) -> bool {
    gpu.adapter_details().backend == shoal::wgpu::Backend::Gl
}

gpu_test! {
    /// Every radius 1..=15 on 1x1, the document's 28x14 and 255x257 (not multiples of N).
    async fn cached_blur_matches_cpu_every_radius(gpu) {
        let mut blur = GaussianBlur::new(&gpu, BlurParams::default()).expect("blur");
        let radii: Vec<u32> = if is_gl(&gpu) { vec![1, 2, 7, 15] } else { (1..=MAX_RADIUS).collect() };
        for size in [[1, 1], [28, 14], [255, 257]] {
            for &r in &radii {
                check(&gpu, &mut blur, size, r, 1).await;
            }
        }
    }

    /// The weights of σ ≠ 1 (where σ² ≠ σ, so a `2σ` for `2σ²` shows) equal the closed-form
    /// normalised Gaussian, and the GPU blurs with them: the twin is given the closed-form
    /// weights, not the blur's own.
    async fn weights_are_the_closed_form_gaussian(gpu) {
        let mut blur = GaussianBlur::new(&gpu, BlurParams::default()).expect("blur");
        let (w, h) = (40u32, 24u32);
        let src = test_image(w, h);
        for (sigma, r) in [(0.3f32, 1u32), (2.5, 5), (7.5, 15)] {
            let want = closed_form_weights(sigma);
            assert_eq!(want.len() as u32, 2 * r + 1, "sigma {sigma}: R = ceil(2 sigma)");
            blur.set_sigma(sigma).expect("sigma");
            assert_eq!(blur.radius(), r, "sigma {sigma}");
            for (i, (got, want)) in blur.weights().iter().zip(&want).enumerate() {
                assert!((got - want).abs() <= 1e-6, "sigma {sigma}: tap {}: {got} vs {want}", i as i32 - r as i32);
            }
            let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src).expect("image");
            blur.run(BlurArgs { image: &image, passes: 1 }).expect("blur");
            let got: Vec<Vec4> = image.read().await.expect("read");
            let (e, i) = worst(&got, &gaussian_blur_cpu(&src, w, h, &want, 1));
            assert!(e <= TOLERANCE, "sigma {sigma}: texel ({}, {}) (error {e})", i as u32 % w, i as u32 / w);
        }
    }

    /// Several passes, and 640x480.
    async fn cached_blur_matches_cpu_several_passes(gpu) {
        let mut blur = GaussianBlur::new(&gpu, BlurParams::default()).expect("blur");
        check(&gpu, &mut blur, [28, 14], 3, 4).await;
        check(&gpu, &mut blur, [255, 257], 15, 3).await;
        let radii: &[u32] = if is_gl(&gpu) { &[15] } else { &[1, 8, 15] };
        for &r in radii {
            check(&gpu, &mut blur, [640, 480], r, 2).await;
        }
    }

    /// The document's figure 13.8: a 28x14 image, work groups of 8 (4 x 14 groups horizontally,
    /// 28 x 2 vertically), so most groups straddle the right or bottom edge.
    async fn figure_13_8_groups_of_eight(gpu) {
        let mut blur = GaussianBlur::new(&gpu, BlurParams { sigma: 1.0, workgroup_size: Some(8) }).expect("blur");
        for r in [1, 2, 4, 8] {
            check(&gpu, &mut blur, [28, 14], r, 2).await;
        }
    }

    /// Blurs of two sizes recorded into one batch (each with its own scratch image) and a run:
    /// every image equals its twin.
    async fn recorded_blurs_share_a_batch(gpu) {
        let blur = GaussianBlur::new(&gpu, BlurParams { sigma: 2.0, ..BlurParams::default() }).expect("blur");
        let sizes = [[37u32, 23u32], [64, 64], [37, 23]];
        let sources: Vec<Vec<Vec4>> = sizes.iter().map(|&[w, h]| test_image(w, h)).collect();
        let images: Vec<Image> = sizes.iter().zip(&sources).map(|(&[w, h], src)| gpu.image_from(w, h, TextureFormat::Rgba32Float, src).expect("image")).collect();
        let mut commands = gpu.commands();
        for (i, image) in images.iter().enumerate() {
            blur.record(&mut commands, BlurArgs { image, passes: 1 + i as u32 }).expect("record");
        }
        commands.submit().expect("submit");
        blur.run(BlurArgs { image: &images[0], passes: 1 }).expect("run");
        for (i, ((&[w, h], src), image)) in sizes.iter().zip(&sources).zip(&images).enumerate() {
            let passes = if i == 0 { 2 } else { 1 + i as u32 };
            let got: Vec<Vec4> = image.read().await.expect("read");
            let (e, t) = worst(&got, &gaussian_blur_cpu(src, w, h, blur.weights(), passes));
            assert!(e <= TOLERANCE, "{w}x{h} x{passes}: texel {t} (error {e})");
        }
    }

    /// The naive kernels give the cached kernels' results.
    async fn naive_and_cached_agree(gpu) {
        let mut blur = GaussianBlur::new(&gpu, BlurParams::default()).expect("blur");
        for (size, r) in [([255u32, 257u32], 15u32), ([28, 14], 4)] {
            let cached = check(&gpu, &mut blur, size, r, 2).await;
            blur.set_variant(BlurVariant::Naive).expect("variant");
            let naive = check(&gpu, &mut blur, size, r, 2).await;
            blur.set_variant(BlurVariant::Cached).expect("variant");
            let (e, i) = worst(&cached, &naive);
            assert!(e <= TOLERANCE, "{size:?} r={r}: texel {i}: cached {} naive {}", cached[i], naive[i]);
        }
    }

    /// A broken source is a typed error naming file and line, from `from_source` and from
    /// `set_source`, and the old kernels keep blurring; the original source compiles again.
    async fn blur_from_source_errors_are_typed_and_keep_old(gpu) {
        let mut blur = GaussianBlur::from_source(&gpu, Source::new("edited/blur.wgsl", BLUR), BlurParams::default()).expect("blur");
        assert_names_line_3(blur.set_source(broken("edited/blur.wgsl", BLUR)), "edited/blur.wgsl");
        assert_names_line_3(GaussianBlur::from_source(&gpu, broken("edited/blur.wgsl", BLUR), BlurParams::default()).map(drop), "edited/blur.wgsl");
        check(&gpu, &mut blur, [28, 14], 2, 1).await;
        blur.set_source(Source::new("edited/blur.wgsl", BLUR)).expect("the original compiles");
        check(&gpu, &mut blur, [28, 14], 3, 1).await;
    }

    /// Bad parameters are typed errors: σ whose radius exceeds 15, σ ≤ 0, a format the WGSL
    /// does not declare.
    async fn bad_parameters_are_refused(gpu) {
        for sigma in [7.6f32, 0.0, -1.0, f32::NAN] {
            assert!(matches!(GaussianBlur::new(&gpu, BlurParams { sigma, ..BlurParams::default() }), Err(Error::InvalidParameter { .. })), "sigma {sigma}");
        }
        for n in [0, 1 << 20] {
            let params = BlurParams { workgroup_size: Some(n), ..BlurParams::default() };
            assert!(matches!(GaussianBlur::new(&gpu, params), Err(Error::InvalidParameter { .. })), "N = {n}");
        }
        let mut blur = GaussianBlur::new(&gpu, BlurParams { sigma: 1.0, workgroup_size: Some(2) }).expect("blur");
        assert!(matches!(blur.set_sigma(2.0), Err(Error::InvalidParameter { .. })), "R = 4 > N = 2");
        assert_eq!((blur.sigma(), blur.radius()), (1.0, 2), "the old weights stay");
        let bytes = gpu.image_zeroed(8, 8, TextureFormat::Rgba8Unorm).expect("image");
        let Err(e) = blur.run(BlurArgs { image: &bytes, passes: 1 }) else {
            panic!("rgba8unorm is not rgba32float");
        };
        assert!(e.to_string().contains("blur"), "{e}");
    }
}

#[test]
fn document_weights_for_sigma_one() {
    let w = gaussian_weights(1.0).expect("weights");
    let want = [0.0545, 0.2442, 0.4026, 0.2442, 0.0545];
    assert_eq!(w.len(), 5);
    for (a, b) in w.iter().zip(want) {
        assert!((a - b).abs() < 1e-4, "{w:?}");
    }
    assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    assert_eq!(gaussian_weights(7.5).expect("weights").len(), 31);
}
