//! Headless renders of the demos, checked for properties their kernels define.

use shoal_conformance::gpu_test;

use crate::cli::Options;
use crate::demo::{Demo, HEADLESS_FORMAT, render, render_frames};

fn options(size: [u32; 2], mode: Option<&str>) -> Options {
    Options {
        headless: true,
        frames: 1,
        out: None,
        size,
        mode: mode.map(String::from),
    }
}

/// Hot reload of demo `D` (made with `mode`): every watched file exists and rebuilds from its own
/// text; a broken copy is a WGSL error naming the file and line 3, the demo still renders, and
/// the file's own text rebuilds again.
async fn reloads_its_sources<D: Demo>(gpu: &shoal::Gpu, mode: Option<&str>) {
    let size = [32u32, 24u32];
    let mut demo = D::new(gpu, &options(size, mode), HEADLESS_FORMAT).expect("demo");
    assert!(!demo.sources().is_empty(), "{} watches nothing", D::NAME);
    for &path in demo.sources() {
        let text = std::fs::read_to_string(crate::reload::workspace_root().join(path))
            .unwrap_or_else(|e| panic!("{}: {path}: {e}", D::NAME));
        demo.reload(gpu, shoal::Source::new(path, text.clone()))
            .unwrap_or_else(|e| panic!("{}: {path} as it is: {e}", D::NAME));
        let mut lines: Vec<&str> = text.lines().collect();
        lines.insert(2, "fn broken( {");
        match demo.reload(gpu, shoal::Source::new(path, lines.join("\n"))) {
            Err(shoal::Error::Wgsl { message, .. }) => {
                assert!(
                    message.contains(&format!("{path}:3:")),
                    "{}: {message}",
                    D::NAME
                )
            }
            other => panic!(
                "{}: {path} broken: expected a WGSL error, got {other:?}",
                D::NAME
            ),
        }
        render_frames(gpu, &mut demo, size, 0..1)
            .await
            .unwrap_or_else(|e| {
                panic!("{}: renders after a failed reload of {path}: {e}", D::NAME)
            });
        // The file fixed again (splat keeps a failed text among its sources, as on disk).
        demo.reload(gpu, shoal::Source::new(path, text.clone()))
            .unwrap_or_else(|e| panic!("{}: {path} fixed: {e}", D::NAME));
    }
}

fn to_u8(c: [f32; 4]) -> [u8; 4] {
    c.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8)
}

gpu_test! {
    /// Every 16x16 patch of the grid demo has the colour of its work group: orange at (0, 0).
    async fn grid_patches_have_their_work_groups_colours(gpu) {
        let size = shoal_kernels::grid::SIZE;
        let r = render::<crate::grid::GridDemo>(&gpu, &options(size, None)).await.expect("renders");
        let (orange, blue) = (to_u8(shoal_kernels::grid::ORANGE), to_u8(shoal_kernels::grid::BLUE));
        for (gx, gy) in [(0u32, 0u32), (1, 0), (0, 1), (1, 1), (79, 44), (40, 20)] {
            let expected = if (gx & 1) == (gy & 1) { orange } else { blue };
            for (dx, dy) in [(0, 0), (15, 15), (7, 9)] {
                let (x, y) = (gx * 16 + dx, gy * 16 + dy);
                assert_eq!(r.pixels[(y * size[0] + x) as usize], expected, "pixel ({x}, {y}) of group ({gx}, {gy})");
            }
        }
    }

    /// The document's ray tracer: the sphere's centre is the hit colour, the corners are black.
    async fn raytrace_centre_hits_and_corners_miss(gpu) {
        let n = shoal_kernels::raytrace::ORTHO_SIZE;
        let r = render::<crate::raytrace::RayTraceDemo>(&gpu, &options([n, n], None)).await.expect("renders");
        let at = |x: u32, y: u32| r.pixels[(y * n + x) as usize];
        let hit = to_u8(shoal_kernels::raytrace::HIT);
        assert_eq!(at(n / 2, n / 2), [hit[0], hit[1], hit[2], 255]);
        for (x, y) in [(0, 0), (n - 1, 0), (0, n - 1), (n - 1, n - 1)] {
            assert_eq!(at(x, y), [0, 0, 0, 255], "corner ({x}, {y})");
        }
    }

    /// Every filter of the blur demo keeps a constant picture constant (Sobel's inverted edges
    /// of it are white: no edge anywhere), and the frame shows exactly that colour.
    async fn blur_modes_keep_a_constant_picture(gpu) {
        let size = [40u32, 24u32];
        let c = glam::vec4(0.4, 0.6, 0.2, 1.0);
        for &mode in crate::blur::MODES {
            let o = options(size, Some(mode));
            let mut demo = crate::blur::BlurDemo::new(&gpu, &o, HEADLESS_FORMAT).expect("demo");
            demo.set_input(&vec![c; (size[0] * size[1]) as usize]).expect("input");
            let r = render_frames(&gpu, &mut demo, size, 0..1).await.expect("renders");
            let want = if mode == "sobel" { glam::Vec4::ONE } else { c };
            let out: Vec<glam::Vec4> = demo.output().read().await.expect("read");
            for (i, t) in out.iter().enumerate() {
                assert!((*t - want).abs().max_element() < 1e-5, "{mode}: texel {i} is {t}, want {want}");
            }
            let px = to_u8(want.to_array());
            assert!(r.pixels.iter().all(|p| *p == [px[0], px[1], px[2], 255]), "{mode}: frame not uniform");
        }
    }

    /// On the test picture, the blur keeps the mean colour and removes detail: the frame is
    /// smoother than the picture, and Sobel finds edges (some dark pixels) and flat regions.
    async fn blur_smooths_and_sobel_finds_edges(gpu) {
        let size = [64u32, 48u32];
        let picture = shoal_kernels::test_image::test_image(size[0], size[1]);
        let roughness = |px: &[[u8; 4]]| -> u64 {
            px.windows(2).map(|w| (w[0][0] as i64 - w[1][0] as i64).unsigned_abs()).sum()
        };
        let original: Vec<[u8; 4]> = picture.iter().map(|c| to_u8(c.to_array())).collect();
        let blurred = render::<crate::blur::BlurDemo>(&gpu, &options(size, Some("gaussian"))).await.expect("renders");
        let (after, before) = (roughness(&blurred.pixels), roughness(&original));
        assert!(after * 5 < before * 4, "blur did not smooth: {after} vs {before}");
        let edges = render::<crate::blur::BlurDemo>(&gpu, &options(size, Some("sobel"))).await.expect("renders");
        assert!(edges.pixels.iter().any(|p| p[0] < 128) && edges.pixels.iter().any(|p| p[0] == 255));
    }

    /// The waves demo draws the lit surface in the centre of the frame and sky above it; the
    /// solution it draws stays finite and has waves on it.
    async fn waves_mesh_is_lit_in_the_centre(gpu) {
        let size = [96u32, 72u32];
        let r = render::<crate::waves::WavesDemo>(&gpu, &options(size, Some("48"))).await.expect("renders");
        let at = |x: u32, y: u32| r.pixels[(y * size[0] + x) as usize];
        let sky = at(0, 0);
        assert_eq!(sky, at(size[0] - 1, 0), "the top corners are sky");
        let mut water = 0;
        for y in size[1] * 2 / 5..size[1] * 3 / 5 {
            for x in size[0] * 2 / 5..size[0] * 3 / 5 {
                let p = at(x, y);
                assert_ne!(p, sky, "centre pixel ({x}, {y}) is not the surface");
                water += usize::from(p[2] > p[0]);
            }
        }
        assert!(water > 0, "the surface is water-coloured");
        let mut demo = crate::waves::WavesDemo::new(&gpu, &options(size, Some("48")), HEADLESS_FORMAT).expect("demo");
        render_frames(&gpu, &mut demo, size, 0..1).await.expect("renders");
        let heights = demo.waves().read().await.expect("read");
        assert!(heights.iter().all(|h| h.is_finite()));
        assert!(heights.iter().any(|h| h.abs() > 1e-3), "drops made waves");
    }

    /// The boids demo's flock (read from the very buffer the vertex shader draws) is finite and
    /// in front of the document's camera, and the airplanes cover part of the frame.
    async fn boids_fly_in_front_of_the_camera(gpu) {
        let size = [64u32, 48u32];
        let o = options(size, Some("256"));
        let mut demo = crate::boids::BoidsDemo::new(&gpu, &o, HEADLESS_FORMAT).expect("demo");
        let r = render_frames(&gpu, &mut demo, size, 0..2).await.expect("renders");
        let members = demo.flock().read().await.expect("read");
        let vp = crate::boids::view_proj(size);
        for (i, m) in members.iter().enumerate() {
            assert!(m.position.is_finite() && m.velocity.is_finite(), "member {i}: {m:?}");
            let clip = vp * m.position.extend(1.0);
            assert!(clip.w > 0.1 && clip.z >= 0.0 && clip.z <= clip.w, "member {i} at {} is not in front of the camera", m.position);
        }
        let background = to_u8([0.02, 0.03, 0.06, 1.0]);
        let covered = r.pixels.iter().filter(|p| **p != background).count();
        assert!(covered > 50, "only {covered} pixels show airplanes");
    }

    /// The particles demo's GPU particles equal the kernel's CPU twin after the warm-up, and
    /// the frame is lit where the twin's particles project (and black in the top corners).
    async fn particles_frame_shows_the_twins_particles(gpu) {
        use shoal_kernels::particles::{Step, cpu::particles_step_cpu};
        let size = [80u32, 60u32];
        let r = render::<crate::particles::ParticlesDemo>(&gpu, &options(size, None)).await.expect("renders");
        let mut demo = crate::particles::ParticlesDemo::new(&gpu, &options(size, None), HEADLESS_FORMAT).expect("demo");
        render_frames(&gpu, &mut demo, size, 0..1).await.expect("renders");
        let mut gpu_particles = demo.particles().read().await.expect("read");
        let settings = crate::particles::settings();
        let emitted = settings.emitters.len() as u32 * settings.emit_per_emitter;
        let mut twin = Vec::new();
        for s in 0..crate::particles::WARMUP_STEPS {
            let step = Step { dt: settings.dt, lifetime: settings.lifetime, first_id: s * emitted, emit_per_emitter: settings.emit_per_emitter };
            twin = particles_step_cpu(&twin, &step, &settings.emitters);
        }
        assert_eq!(gpu_particles.len(), twin.len(), "live particles");
        gpu_particles.sort_by_key(|p| p.id);
        twin.sort_by_key(|p| p.id);
        for (g, c) in gpu_particles.iter().zip(&twin) {
            assert_eq!(g.id, c.id);
            assert!((g.position - c.position).abs().max_element() < 1e-3, "particle {}: {} vs {}", g.id, g.position, c.position);
        }
        let vp = crate::particles::view_proj(size);
        let mut checked = 0;
        for p in twin.iter().step_by(97) {
            let clip = vp * p.position.extend(1.0);
            let ndc = clip.truncate() / clip.w;
            let x = ((ndc.x + 1.0) * 0.5 * size[0] as f32) as i64;
            let y = ((1.0 - ndc.y) * 0.5 * size[1] as f32) as i64;
            if (1..size[0] as i64 - 1).contains(&x) && (1..size[1] as i64 - 1).contains(&y) {
                let px = r.pixels[(y as u32 * size[0] + x as u32) as usize];
                assert!(px[0] > 0, "particle {} at pixel ({x}, {y}) is dark", p.id);
                checked += 1;
            }
        }
        assert!(checked > 10, "only {checked} particles on screen");
        assert_eq!(r.pixels[0], [0, 0, 0, 255]);
        assert_eq!(r.pixels[size[0] as usize - 1], [0, 0, 0, 255]);
    }

    /// The splat demo's frame is the kernel's own HDR image, tone-mapped as the composite's CPU
    /// twin does it, at every pixel (within one step of rounding), and not black.
    async fn splat_frame_is_the_kernels_composited_image(gpu) {
        let size = [96u32, 72u32];
        let mut demo = crate::splat::SplatDemo::new(&gpu, &options(size, None), HEADLESS_FORMAT).expect("demo");
        let r = render_frames(&gpu, &mut demo, size, 0..1).await.expect("renders");
        let hdr = demo.read_hdr().await.expect("read");
        let mut lit = 0;
        for (i, (px, texel)) in r.pixels.iter().zip(&hdr).enumerate() {
            let want = crate::splat::tone_map(*texel);
            for c in 0..3 {
                assert!(px[c].abs_diff(want[c]) <= 1, "pixel {i}: frame {px:?}, twin {want:?} of {texel:?}");
            }
            lit += usize::from(px[0] > 0 || px[1] > 0 || px[2] > 0);
        }
        assert!(lit > hdr.len() / 4, "only {lit} pixels lit");
    }

    /// The primitives demo's sort and scan equal their CPU twins, and the plot rises from left
    /// to right: the bottom-left pixel is the first colour, the top-left is background.
    async fn primitives_equal_the_cpu(gpu) {
        let size = [64u32, 48u32];
        let mut demo = crate::primitives::PrimitivesDemo::new(&gpu, &options(size, None), HEADLESS_FORMAT).expect("demo");
        let r = render_frames(&gpu, &mut demo, size, 0..1).await.expect("renders");
        let verified = demo.verify().expect("checks").await;
        assert!(verified.is_ok(), "{verified:?}");
        let at = |x: u32, y: u32| r.pixels[(y * size[0] + x) as usize];
        assert_ne!(at(size[0] - 1, size[1] / 4), at(0, size[1] / 4), "tall bars on the right only");
    }

    /// The grid, ray tracer (both modes), splat and primitives demos reload their WGSL files:
    /// each rebuilds from the file as it is, and a broken copy is a typed error naming the file
    /// while the demo keeps rendering with its old kernels.
    async fn grid_raytrace_splat_primitives_reload(gpu) {
        reloads_its_sources::<crate::grid::GridDemo>(&gpu, None).await;
        reloads_its_sources::<crate::raytrace::RayTraceDemo>(&gpu, None).await;
        reloads_its_sources::<crate::raytrace::RayTraceDemo>(&gpu, Some("scene")).await;
        reloads_its_sources::<crate::splat::SplatDemo>(&gpu, None).await;
        reloads_its_sources::<crate::primitives::PrimitivesDemo>(&gpu, None).await;
    }
}
