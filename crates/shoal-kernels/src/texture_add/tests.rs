use shoal::wgpu::TextureFormat;
use shoal_conformance::gpu_test;
use shoal_conformance::rng::Rng;

use super::*;

gpu_test! {
    /// Every pixel equals the CPU twin's exactly for rgba32float inputs, at several sizes. For
    /// rgba8unorm inputs the GPU's unorm-to-float conversion may differ from c / 255 in the last
    /// bits (lavapipe's does), so there the sums agree within 1e-6.
    async fn texture_add_matches_the_cpu_exactly(gpu) {
        let add = TextureAdd::new(&gpu).expect("kernel");
        let mut rng = Rng::new(2);
        for (w, h) in [(1, 1), (16, 16), (63, 17), (200, 75)] {
            let a: Vec<[f32; 4]> = (0..w * h).map(|_| std::array::from_fn(|_| rng.range_f32(-100.0, 100.0))).collect();
            let b: Vec<[f32; 4]> = (0..w * h).map(|_| std::array::from_fn(|_| rng.range_f32(-1.0, 1.0))).collect();
            let (ia, ib) = (
                gpu.image_from(w, h, TextureFormat::Rgba32Float, &a).expect("a"),
                gpu.image_from(w, h, TextureFormat::Rgba32Float, &b).expect("b"),
            );
            let out = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("out");
            add.run(TextureAddArgs { a: &ia, b: &ib, output: &out }).expect("run");
            assert_eq!(out.read::<[f32; 4]>().await.expect("read"), texture_add_cpu(&a, &b), "{w}x{h}");
        }
        let bytes: Vec<[u8; 4]> = (0..64).map(|i| [i as u8, 255 - i as u8, 128, 255]).collect();
        let ia = gpu.image_from(8, 8, TextureFormat::Rgba8Unorm, &bytes).expect("a");
        let out = gpu.image_zeroed(8, 8, TextureFormat::Rgba32Float).expect("out");
        let mut commands = gpu.commands();
        add.record(&mut commands, TextureAddArgs { a: &ia, b: &ia, output: &out }).expect("record");
        commands.submit().expect("submit");
        let unorm: Vec<[f32; 4]> = bytes.iter().map(|t| t.map(|c| c as f32 / 255.0)).collect();
        let got = out.read::<[f32; 4]>().await.expect("read");
        for (g, c) in got.iter().zip(texture_add_cpu(&unorm, &unorm)) {
            assert!((0..4).all(|k| (g[k] - c[k]).abs() <= 1e-6), "{g:?} vs {c:?}");
        }
    }

    /// Images of different sizes are a typed error.
    async fn different_sizes_are_refused(gpu) {
        let add = TextureAdd::new(&gpu).expect("kernel");
        let a = gpu.image_zeroed(4, 4, TextureFormat::Rgba32Float).expect("image");
        let b = gpu.image_zeroed(4, 5, TextureFormat::Rgba32Float).expect("image");
        assert!(matches!(add.run(TextureAddArgs { a: &a, b: &b, output: &a }), Err(shoal::Error::Length { .. })));
        assert!(matches!(add.run(TextureAddArgs { a: &a, b: &a, output: &b }), Err(shoal::Error::Length { .. })));
    }
}
