use shoal::wgpu::TextureFormat;
use shoal_conformance::gpu_test;

use super::*;
use crate::from_source_tests::{assert_names_line_3, broken, edited};

const RAYTRACE: &str = include_str!("../../wgsl/raytrace.wgsl");

/// Pixels of the orthographic hit mask allowed to differ, all on the sphere's edge (where
/// b² - c is within rounding of zero).
const ORTHO_EDGE_PIXELS: usize = 8;

/// Checks an orthographic image of `w` x `h` against [`ortho_cpu`]: only the two colours, and
/// the hit mask equal but for at most ORTHO_EDGE_PIXELS pixels, each on the sphere's edge.
fn check_ortho(got: &[[f32; 4]], w: u32, h: u32) {
    let want = ortho_cpu(w, h);
    assert!(
        got.iter().all(|p| *p == HIT || *p == MISS),
        "{w}x{h}: only the two colours"
    );
    let differ: Vec<usize> = (0..got.len()).filter(|&i| got[i] != want[i]).collect();
    assert!(
        differ.len() <= ORTHO_EDGE_PIXELS,
        "{w}x{h}: {} pixels differ",
        differ.len()
    );
    for i in differ {
        let (x, y) = ((i as u32 % w) as f32, (i as u32 / w) as f32);
        let (fw, fh) = (w as f32, h as f32);
        let r = (((x * 2.0 - fw) / fw * 5.0).powi(2) + ((y * 2.0 - fh) / fh * 5.0).powi(2)).sqrt();
        assert!(
            (r - 1.0).abs() < 1e-2,
            "{w}x{h}: pixel ({x}, {y}) differs off the edge (r = {r})"
        );
    }
}

/// Pixels of `got` further than SCENE_TOLERANCE from [`scene_cpu`] in some channel.
fn scene_outliers(got: &[[f32; 4]], scene: &Scene, w: u32, h: u32) -> usize {
    let want = scene_cpu(scene, w, h);
    got.iter()
        .zip(&want)
        .filter(|(g, c)| (0..4).any(|k| (g[k] - c[k]).abs() > SCENE_TOLERANCE))
        .count()
}

gpu_test! {
    /// The document's 512 x 512 sphere, and other sizes: the hit mask equals the CPU's but for a
    /// few pixels on the edge; every pixel is exactly HIT or MISS.
    async fn ortho_sphere_matches_the_cpu(gpu) {
        let tracer = RayTracer::new(&gpu).expect("kernels");
        for (w, h) in [(ORTHO_SIZE, ORTHO_SIZE), (64, 64), (100, 37), (1, 1)] {
            let image = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image");
            tracer.run(RayTraceArgs { image: &image }).expect("run");
            check_ortho(&image.read::<[f32; 4]>().await.expect("read"), w, h);
        }
        let want = ortho_cpu(ORTHO_SIZE, ORTHO_SIZE);
        assert!(want.iter().filter(|p| **p == HIT).count() > 3000, "the sphere covers about pi * 51^2 pixels");
    }

    /// The shaded scene matches its CPU twin within SCENE_TOLERANCE per channel, but for at
    /// most SCENE_OUTLIERS of the pixels, at several sizes.
    async fn shaded_scene_matches_the_cpu_within_tolerance(gpu) {
        let tracer = RayTracer::new(&gpu).expect("kernels");
        let scene = Scene::default();
        for (w, h) in [(160, 120), (64, 96), (7, 5)] {
            let image = gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image");
            tracer.run(RayTraceSceneArgs { scene: &scene, image: &image }).expect("run");
            let got = image.read::<[f32; 4]>().await.expect("read");
            let outliers = scene_outliers(&got, &scene, w, h);
            assert!((outliers as f64) <= SCENE_OUTLIERS * (w * h) as f64 + 1.0, "{w}x{h}: {outliers} of {} pixels off", w * h);
            if w >= 64 {
                let distinct: std::collections::HashSet<[u32; 3]> = got.iter().map(|p| [p[0], p[1], p[2]].map(|c| (c * 32.0) as u32)).collect();
                assert!(distinct.len() > 20, "{w}x{h}: a shaded picture, not a flat one");
            }
        }
    }

    /// Two scenes recorded into one batch each render their own: the uniform of the first is not
    /// overwritten by the second.
    async fn scenes_recorded_in_one_batch_keep_their_own(gpu) {
        let tracer = RayTracer::new(&gpu).expect("kernels");
        let (w, h) = (48, 36);
        let first = Scene::default();
        let second = Scene { eye: first.eye + Vec3::new(1.5, 0.5, 0.0), sky: Vec3::new(1.0, 0.2, 0.1), ..first };
        let images = [first, second].map(|_| gpu.image_zeroed(w, h, TextureFormat::Rgba32Float).expect("image"));
        let mut commands = gpu.commands();
        tracer.record(&mut commands, RayTraceSceneArgs { scene: &first, image: &images[0] }).expect("record");
        tracer.record(&mut commands, RayTraceSceneArgs { scene: &second, image: &images[1] }).expect("record");
        tracer.record(&mut commands, RayTraceArgs { image: &images[1] }).expect("record");
        tracer.record(&mut commands, RayTraceSceneArgs { scene: &second, image: &images[1] }).expect("record");
        commands.submit().expect("submit").wait().await.expect("wait");
        for (scene, image) in [first, second].iter().zip(&images) {
            let got = image.read::<[f32; 4]>().await.expect("read");
            let outliers = scene_outliers(&got, scene, w, h);
            assert!((outliers as f64) <= SCENE_OUTLIERS * (w * h) as f64 + 1.0, "{outliers} pixels off");
        }
    }

    /// A ray tracer whose orthographic hit colour is red takes effect through `from_source`; a
    /// broken source is a typed error naming file and line, and the red kernel stays.
    async fn raytrace_from_source_takes_effect_and_keeps_old_on_error(gpu) {
        const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
        let red = edited(
            "edited/raytrace.wgsl",
            RAYTRACE,
            "pixel = vec4<f32>(0.4, 0.4, 1.0, 1.0);",
            "pixel = vec4<f32>(1.0, 0.0, 0.0, 1.0);",
        );
        let side = 64u32;
        let want: Vec<[f32; 4]> = ortho_cpu(side, side)
            .into_iter()
            .map(|c| if c == HIT { RED } else { c })
            .collect();
        let check = |got: Vec<[f32; 4]>| {
            assert!(got.iter().all(|p| *p == RED || *p == MISS), "only red and black");
            let hits = got.iter().filter(|p| **p == RED).count();
            let want_hits = want.iter().filter(|p| **p == RED).count();
            // Pixels on the sphere's edge may round the other way (see ORTHO_EDGE_PIXELS).
            assert!(hits.abs_diff(want_hits) <= ORTHO_EDGE_PIXELS && hits > 50, "{hits} red pixels, the CPU says {want_hits}");
        };
        let image = gpu.image_zeroed(side, side, TextureFormat::Rgba32Float).expect("image");
        let mut tracer = RayTracer::from_source(&gpu, red).expect("tracer");
        tracer.run(RayTraceArgs { image: &image }).expect("run");
        check(image.read().await.expect("read"));
        assert_names_line_3(RayTracer::from_source(&gpu, broken("edited/raytrace.wgsl", RAYTRACE)).map(drop), "edited/raytrace.wgsl");
        assert_names_line_3(tracer.set_source(broken("edited/raytrace.wgsl", RAYTRACE)), "edited/raytrace.wgsl");
        tracer.run(RayTraceArgs { image: &image }).expect("the last good kernel still runs");
        check(image.read().await.expect("read"));
    }
}
