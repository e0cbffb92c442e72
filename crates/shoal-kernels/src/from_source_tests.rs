//! The from-source constructors and `set_source` of the families the demos hot-reload: an edited
//! source takes effect, a broken one is a typed [`shoal::Error::Wgsl`] naming its file and line,
//! and the old kernels keep working after a failed reload.

use glam::Vec4;
use shoal::wgpu::TextureFormat;
use shoal::{Error, Source};
use shoal_conformance::gpu_test;

use crate::bilateral::{Bilateral, BilateralParams};
use crate::blur::GaussianBlur;
use crate::boids::{self, Boids};
use crate::particles::{ParticleSettings, Particles};
use crate::sobel::Sobel;
use crate::waves::{WaveParams, Waves};

const SOBEL: &str = include_str!("../../../wgsl/sobel.wgsl");

/// `text` with `from` replaced by `to` (which must occur), labelled `path`.
fn edited(path: &str, text: &str, from: &str, to: &str) -> Source {
    assert!(text.contains(from), "{path} no longer contains `{from}`");
    Source::new(path, text.replacen(from, to, 1))
}

/// A copy of `text` with a syntax error on line 3, labelled `path`.
fn broken(path: &str, text: &str) -> Source {
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(2, "fn broken( {");
    Source::new(path, lines.join("\n"))
}

/// The error is a WGSL error that names `path` at line 3.
fn assert_names_line_3(result: Result<(), Error>, path: &str) {
    match result {
        Err(Error::Wgsl { message, .. }) => {
            assert!(message.contains(&format!("{path}:3:")), "{message}");
        }
        other => panic!("{path}: expected a WGSL error, got {other:?}"),
    }
}

gpu_test! {
    /// An edited Sobel (every texel 0.25) takes effect through `set_source`; a broken one is a
    /// typed error and the edited kernel stays.
    async fn sobel_set_source_takes_effect_and_keeps_old_on_error(gpu) {
        let (w, h) = (8u32, 4u32);
        let src = gpu.image_from(w, h, TextureFormat::Rgba32Float, &vec![Vec4::ONE; 32]).expect("image");
        let dst = gpu.image(w, h, TextureFormat::Rgba32Float).expect("image");
        let mut sobel = Sobel::new(&gpu).expect("sobel");
        sobel.edges(&src, &dst).expect("runs");
        let got: Vec<Vec4> = dst.read().await.expect("read");
        assert!(got.iter().all(|c| *c == Vec4::ONE), "a constant image has no edges: white");
        let quarter = edited(
            "edited/sobel.wgsl",
            SOBEL,
            "vec4<f32>(1.0 - saturate(luminance(mag.rgb)))",
            "vec4<f32>(0.25)",
        );
        sobel.set_source(quarter).expect("the edited source compiles");
        sobel.edges(&src, &dst).expect("runs");
        let got: Vec<Vec4> = dst.read().await.expect("read");
        assert!(got.iter().all(|c| *c == Vec4::splat(0.25)), "edited kernel ran: {:?}", got[0]);
        assert_names_line_3(sobel.set_source(broken("edited/sobel.wgsl", SOBEL)), "edited/sobel.wgsl");
        sobel.edges(&src, &dst).expect("the last good kernel still runs");
        let got: Vec<Vec4> = dst.read().await.expect("read");
        assert!(got.iter().all(|c| *c == Vec4::splat(0.25)));
    }

    /// An edited wave update (the next height is always 0.5) takes effect; broken sources of
    /// every other hot-reloaded family are typed errors naming file and line, both through the
    /// constructors and through `set_source`.
    async fn from_source_edits_take_effect_and_errors_are_typed(gpu) {
        const WAVES: &str = include_str!("../../../wgsl/waves.wgsl");
        let half = edited("edited/waves.wgsl", WAVES, "vec4<f32>(h, 0.0, 0.0, 1.0)", "vec4<f32>(0.5, 0.0, 0.0, 1.0)");
        let mut waves = Waves::from_source(&gpu, half, 8, 8, WaveParams::default()).expect("waves");
        waves.steps(1).expect("steps");
        let heights = waves.read().await.expect("read");
        assert_eq!(heights[3 * 8 + 3], 0.5, "interior texel written by the edited kernel");
        assert_eq!(heights[0], 0.0, "the border stays at zero");
        assert_names_line_3(waves.set_source(broken("edited/waves.wgsl", WAVES)), "edited/waves.wgsl");

        const BLUR: &str = include_str!("../../../wgsl/blur.wgsl");
        let mut blur = GaussianBlur::new(&gpu, 1.0).expect("blur");
        assert_names_line_3(blur.set_source(broken("edited/blur.wgsl", BLUR)), "edited/blur.wgsl");
        assert_names_line_3(GaussianBlur::from_source(&gpu, broken("edited/blur.wgsl", BLUR), 1.0).map(drop), "edited/blur.wgsl");
        blur.set_source(Source::new("edited/blur.wgsl", BLUR)).expect("the original compiles");

        const BILATERAL: &str = include_str!("../../../wgsl/bilateral.wgsl");
        let params = BilateralParams { spatial_sigma: 1.0, range_sigma: 0.2 };
        let mut bilateral = Bilateral::from_source(&gpu, Source::new("edited/bilateral.wgsl", BILATERAL), params).expect("bilateral");
        assert_names_line_3(bilateral.set_source(broken("edited/bilateral.wgsl", BILATERAL)), "edited/bilateral.wgsl");

        const BOIDS: &str = include_str!("../../../wgsl/boids.wgsl");
        let flock = boids::document_flock(boids::WORKGROUP_SIZE as usize);
        assert_names_line_3(Boids::from_source(&gpu, broken("edited/boids.wgsl", BOIDS), &flock).map(drop), "edited/boids.wgsl");
        let mut boids = Boids::new(&gpu, &flock).expect("boids");
        assert_names_line_3(boids.set_source(broken("edited/boids.wgsl", BOIDS)), "edited/boids.wgsl");

        const PARTICLES: &str = include_str!("../../../wgsl/particles.wgsl");
        let mut particles = Particles::new(&gpu, &[], 64, ParticleSettings::default()).expect("particles");
        assert_names_line_3(particles.set_source(broken("edited/particles.wgsl", PARTICLES)), "edited/particles.wgsl");
        particles.set_source(Source::new("edited/particles.wgsl", PARTICLES)).expect("the original compiles");
    }
}
