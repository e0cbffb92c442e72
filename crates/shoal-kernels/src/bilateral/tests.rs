use glam::Vec4;
use shoal::wgpu::TextureFormat;
use shoal_conformance::gpu_test;

use super::cpu::bilateral;
use super::*;
use crate::test_image::test_image;

gpu_test! {
    /// The bilateral filter of the test picture against the CPU, for a narrow and a wide window.
    async fn bilateral_matches_cpu(gpu) {
        for (size, spatial_sigma, range_sigma) in [([28u32, 14u32], 1.0f32, 0.1f32), ([97, 61], 3.0, 0.25)] {
            let [w, h] = size;
            let params = BilateralParams { spatial_sigma, range_sigma };
            let filter = Bilateral::new(&gpu, params).expect("bilateral");
            let src = test_image(w, h);
            let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src).expect("image");
            let out = gpu.image(w, h, TextureFormat::Rgba32Float).expect("image");
            filter.run(&image, &out).expect("run");
            let got: Vec<Vec4> = out.read().await.expect("read");
            let want = bilateral(&src, w, h, &params);
            for (i, (g, c)) in got.iter().zip(&want).enumerate() {
                // exp on the GPU may differ from the CPU's by a few ulps; the weights are
                // normalised, so the result moves by about as much.
                let e = (*g - *c).abs().max_element();
                assert!(e <= 2e-5, "{w}x{h} sigma_s={spatial_sigma}: texel {i}: gpu {g} cpu {c} (error {e})");
            }
        }
    }

    /// Sigmas outside the filter's rules are typed errors.
    async fn bilateral_refuses_bad_sigmas(gpu) {
        for (s, r) in [(0.0f32, 0.1f32), (8.0, 0.1), (1.0, 0.0), (1.0, f32::INFINITY)] {
            let params = BilateralParams { spatial_sigma: s, range_sigma: r };
            assert!(matches!(Bilateral::new(&gpu, params), Err(Error::InvalidParameter { .. })), "{params:?}");
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
    let out = bilateral(&src, w, h, &params);
    assert!(
        out[15].x < 1e-3 && out[16].x > 1.0 - 1e-3,
        "{} {}",
        out[15],
        out[16]
    );
}
