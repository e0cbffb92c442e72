use shoal::wgpu::TextureFormat;
use shoal_conformance::gpu_test;
use shoal_conformance::rng::Rng;

use super::*;

fn random_texels(rng: &mut Rng, n: u32) -> Vec<[f32; 4]> {
    (0..n)
        .map(|_| std::array::from_fn(|_| rng.range_f32(-2.0, 2.0)))
        .collect()
}

gpu_test! {
    /// Every pixel equals the CPU twin's, at sizes that are and are not multiples of the work
    /// group.
    async fn invert_matches_the_cpu_exactly(gpu) {
        let invert = Invert::new(&gpu).expect("kernel");
        let mut rng = Rng::new(1);
        for (w, h) in [(1, 1), (32, 32), (65, 33), (256, 100)] {
            let texels = random_texels(&mut rng, w * h);
            let input = gpu.image_from(w, h, TextureFormat::Rgba32Float, &texels).expect("input");
            let output = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("output");
            invert.run(InvertArgs { input: &input, output: &output }).expect("run");
            assert_eq!(output.read::<[f32; 4]>().await.expect("read"), invert_cpu(&texels), "{w}x{h}");
        }
    }

    /// Inversions of several sizes recorded into one batch each write their own output.
    async fn recorded_inversions_share_a_batch(gpu) {
        let invert = Invert::new(&gpu).expect("kernel");
        let mut rng = Rng::new(11);
        let mut commands = gpu.commands();
        let mut cases = Vec::new();
        for (w, h) in [(3, 5), (40, 17), (64, 64)] {
            let texels = random_texels(&mut rng, w * h);
            let input = gpu.image_from(w, h, TextureFormat::Rgba32Float, &texels).expect("input");
            let output = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("output");
            invert.record(&mut commands, InvertArgs { input: &input, output: &output }).expect("record");
            cases.push((texels, input, output));
        }
        commands.submit().expect("submit").wait().await.expect("wait");
        for (texels, _input, output) in cases {
            assert_eq!(output.read::<[f32; 4]>().await.expect("read"), invert_cpu(&texels));
        }
    }

    /// Images of different sizes are a typed error.
    async fn different_sizes_are_refused(gpu) {
        let invert = Invert::new(&gpu).expect("kernel");
        let small = gpu.image_zeroed(4, 4, TextureFormat::Rgba32Float).expect("image");
        let big = gpu.image_zeroed(5, 4, TextureFormat::Rgba32Float).expect("image");
        assert!(matches!(invert.run(InvertArgs { input: &small, output: &big }), Err(shoal::Error::Length { .. })));
    }
}
