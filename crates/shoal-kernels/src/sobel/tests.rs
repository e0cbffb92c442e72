use glam::Vec4;
use shoal::wgpu::TextureFormat;
use shoal_conformance::gpu_test;

use super::cpu::{composite_multiply, sobel};
use super::*;
use crate::blur::cpu::gaussian_blur;
use crate::test_image::test_image;

/// A square root and a saturate of sums of nine f32 texels.
const TOLERANCE: f32 = 1e-5;

fn assert_close(got: &[Vec4], want: &[Vec4], what: &str, tolerance: f32) {
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let e = (*g - *w).abs().max_element();
        assert!(
            e <= tolerance,
            "{what}: texel {i}: gpu {g} cpu {w} (error {e})"
        );
    }
}

gpu_test! {
    /// The edge image of the test picture at sizes that do and do not fill 16x16 groups.
    async fn sobel_matches_cpu(gpu) {
        let filter = Sobel::new(&gpu).expect("sobel");
        for [w, h] in [[1u32, 1u32], [28, 14], [255, 257]] {
            let src = test_image(w, h);
            let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src).expect("image");
            let edges = gpu.image(w, h, TextureFormat::Rgba32Float).expect("image");
            filter.edges(&image, &edges).expect("sobel");
            let got: Vec<Vec4> = edges.read().await.expect("read");
            assert_close(&got, &sobel(&src, w, h), &format!("sobel {w}x{h}"), TOLERANCE);
            // The test picture has edges and flat regions: both black and white texels appear.
            if w > 16 {
                assert!(got.iter().any(|c| c.x < 0.5) && got.iter().any(|c| c.x == 1.0));
            }
        }
    }

    /// Blur, Sobel of the blurred image, blurred × edges, against the same chain on the CPU.
    async fn cartoon_matches_cpu(gpu) {
        let (w, h) = (200u32, 150u32);
        let mut cartoon = Cartoon::new(&gpu, 1.5, 2).expect("cartoon");
        let src = test_image(w, h);
        let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src).expect("image");
        let out = gpu.image(w, h, TextureFormat::Rgba32Float).expect("image");
        cartoon.run(&image, &out).expect("cartoon");
        let got: Vec<Vec4> = out.read().await.expect("read");
        let weights = crate::blur::gaussian_weights(1.5).expect("weights");
        let blurred = gaussian_blur(&src, w, h, &weights, 2);
        let want = composite_multiply(&blurred, &sobel(&blurred, w, h));
        // The blur's 1e-5 passes through the Sobel's ×8 gain at most.
        assert_close(&got, &want, "cartoon", 1e-4);
        let untouched: Vec<Vec4> = image.read().await.expect("read");
        assert_eq!(untouched, src, "the source stays as it was");
    }
}
