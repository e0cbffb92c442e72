use glam::Vec4;
use shoal::wgpu::TextureFormat;
use shoal_conformance::gpu_test;

use super::*;
use crate::from_source_tests::{assert_names_line_3, broken, edited};
use crate::test_image::test_image;

const SOBEL: &str = include_str!("../../wgsl/sobel.wgsl");

/// A square root and a saturate of sums of nine f32 texels.
const TOLERANCE: f32 = 1e-5;

fn assert_close(got: &[Vec4], want: &[Vec4], what: &str, tolerance: f32) {
    assert_eq!(got.len(), want.len(), "{what}");
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
        for [w, h] in [[1u32, 1u32], [2, 3], [28, 14], [255, 257]] {
            let src = test_image(w, h);
            let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src).expect("image");
            let edges = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image");
            filter.run(SobelArgs { src: &image, dst: &edges }).expect("sobel");
            let got: Vec<Vec4> = edges.read().await.expect("read");
            assert_close(&got, &sobel_cpu(&src, w, h), &format!("sobel {w}x{h}"), TOLERANCE);
            // The test picture has edges and flat regions: both black and white texels appear.
            if w > 16 {
                assert!(got.iter().any(|c| c.x < 0.5) && got.iter().any(|c| c.x == 1.0));
            }
        }
    }

    /// Edges and the multiply recorded into one batch, and the multiply run alone, against the
    /// twins.
    async fn edges_and_multiply_in_one_batch(gpu) {
        let filter = Sobel::new(&gpu).expect("sobel");
        let (w, h) = (45u32, 31u32);
        let src = test_image(w, h);
        let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src).expect("image");
        let [edges, product, again] = [(); 3].map(|_| gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image"));
        let mut commands = gpu.commands();
        filter.record(&mut commands, SobelArgs { src: &image, dst: &edges }).expect("edges");
        filter.record(&mut commands, MultiplyArgs { base: &image, edges: &edges, dst: &product }).expect("multiply");
        commands.submit().expect("submit");
        filter.run(MultiplyArgs { base: &image, edges: &edges, dst: &again }).expect("multiply");
        let want_edges = sobel_cpu(&src, w, h);
        let want = composite_multiply_cpu(&src, &want_edges);
        assert_close(&edges.read().await.expect("read"), &want_edges, "edges", TOLERANCE);
        assert_close(&product.read().await.expect("read"), &want, "multiply", TOLERANCE);
        assert_close(&again.read().await.expect("read"), &want, "multiply, run", TOLERANCE);
        let other = gpu.image_zeroed(w + 1, h, TextureFormat::Rgba32Float).expect("image");
        assert!(matches!(filter.run(SobelArgs { src: &image, dst: &other }), Err(shoal::Error::Length { .. })));
    }

    /// Blur, Sobel of the blurred image, blurred × edges, against the twin, at several sizes and
    /// parameters; the source stays as it was.
    async fn cartoon_matches_cpu(gpu) {
        for ([w, h], params) in [
            ([200u32, 150u32], CartoonParams::default()),
            ([31, 17], CartoonParams { sigma: 1.0, passes: 1 }),
            ([64, 40], CartoonParams { sigma: 3.0, passes: 0 }),
        ] {
            let cartoon = Cartoon::new(&gpu, params).expect("cartoon");
            assert_eq!(cartoon.params(), params);
            let src = test_image(w, h);
            let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src).expect("image");
            let out = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image");
            cartoon.run(CartoonArgs { src: &image, dst: &out }).expect("cartoon");
            let got: Vec<Vec4> = out.read().await.expect("read");
            let want = cartoon_cpu(&src, w, h, &params).expect("twin");
            // The blur's 1e-5 passes through the Sobel's ×8 gain at most.
            assert_close(&got, &want, &format!("cartoon {w}x{h} {params:?}"), 1e-4);
            let untouched: Vec<Vec4> = image.read().await.expect("read");
            assert_eq!(untouched, src, "the source stays as it was");
        }
    }

    /// Cartoons of two sizes recorded into one batch each use scratch images of their own size.
    async fn cartoons_of_two_sizes_in_one_batch(gpu) {
        let params = CartoonParams::default();
        let cartoon = Cartoon::new(&gpu, params).expect("cartoon");
        let sizes = [[40u32, 30u32], [23, 50]];
        let mut commands = gpu.commands();
        let mut cases = Vec::new();
        for [w, h] in sizes {
            let src = test_image(w, h);
            let image = gpu.image_from(w, h, TextureFormat::Rgba32Float, &src).expect("image");
            let out = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image");
            cartoon.record(&mut commands, CartoonArgs { src: &image, dst: &out }).expect("record");
            cases.push((src, image, out, w, h));
        }
        commands.submit().expect("submit");
        for (src, _image, out, w, h) in cases {
            let want = cartoon_cpu(&src, w, h, &params).expect("twin");
            assert_close(&out.read().await.expect("read"), &want, &format!("cartoon {w}x{h}"), 1e-4);
        }
    }

    /// An edited Sobel (every texel 0.25) takes effect through `set_source`; a broken one is a
    /// typed error and the edited kernel stays.
    async fn sobel_set_source_takes_effect_and_keeps_old_on_error(gpu) {
        let (w, h) = (8u32, 4u32);
        let src = gpu.image_from(w, h, TextureFormat::Rgba32Float, &vec![Vec4::ONE; 32]).expect("image");
        let dst = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image");
        let mut sobel = Sobel::new(&gpu).expect("sobel");
        sobel.run(SobelArgs { src: &src, dst: &dst }).expect("runs");
        let got: Vec<Vec4> = dst.read().await.expect("read");
        assert!(got.iter().all(|c| *c == Vec4::ONE), "a constant image has no edges: white");
        let quarter = edited(
            "edited/sobel.wgsl",
            SOBEL,
            "vec4<f32>(1.0 - saturate(luminance(mag.rgb)))",
            "vec4<f32>(0.25)",
        );
        sobel.set_source(quarter).expect("the edited source compiles");
        sobel.run(SobelArgs { src: &src, dst: &dst }).expect("runs");
        let got: Vec<Vec4> = dst.read().await.expect("read");
        assert!(got.iter().all(|c| *c == Vec4::splat(0.25)), "edited kernel ran: {:?}", got[0]);
        assert_names_line_3(sobel.set_source(broken("edited/sobel.wgsl", SOBEL)), "edited/sobel.wgsl");
        sobel.run(SobelArgs { src: &src, dst: &dst }).expect("the last good kernel still runs");
        let got: Vec<Vec4> = dst.read().await.expect("read");
        assert!(got.iter().all(|c| *c == Vec4::splat(0.25)));
    }

}
