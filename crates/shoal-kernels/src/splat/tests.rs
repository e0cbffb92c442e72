//! Particle splatting on every adapter: both packings bit for bit against the CPU twin, the carry
//! and overflow cases, compute against raster within the derived bound, culling and depth, and
//! the packing choice.

use glam::{Vec3, Vec4};
use shoal::{Error, Gpu, Record};
use shoal_conformance::gpu_test;

use super::twin::{self, CULLED, Fragment, HIDDEN};
use super::*;

const W: u32 = 160;
const H: u32 = 120;
const N: usize = 20_000;

fn packings(gpu: &Gpu) -> Vec<Packing> {
    if gpu.has_int64_atomics() {
        vec![Packing::TwoU32, Packing::Int64]
    } else {
        vec![Packing::TwoU32]
    }
}

/// One compute frame plus the projection pass; returns the words and the GPU's fragments.
async fn compute_frame(
    splat: &Splat,
    target: &SplatTarget,
    scene: &Scene,
) -> (Vec<[u32; 2]>, Vec<Fragment>) {
    let projected = splat
        .gpu
        .buffer_zeroed::<[u32; 4]>(scene.len().max(1))
        .expect("projection buffer");
    let mut commands = splat.gpu.commands();
    splat
        .record(&mut commands, SplatFrameArgs { target, scene })
        .expect("frame");
    let out = &projected;
    splat
        .record(&mut commands, SplatProjectionArgs { target, scene, out })
        .expect("projection");
    commands
        .submit()
        .expect("submit")
        .wait()
        .await
        .expect("wait");
    let words = target.read_accum().await.expect("accum");
    let mut fragments = projected.read().await.expect("fragments");
    fragments.truncate(scene.len() as usize);
    (words, fragments)
}

gpu_test! {
    /// The GPU's words equal the twin's adds of the GPU's own fragments, bit for bit, for every
    /// scene and packing; the coarse level is the twin's; the twin's projection agrees with the
    /// GPU's except where f32 rounding may legitimately flip a pixel edge or a depth tie.
    async fn both_packings_match_the_twin_exactly(gpu) {
        for packing in packings(&gpu) {
            let splat = Splat::new(&gpu, Some(packing)).expect("splat");
            let target = splat.target(W, H).expect("target");
            for kind in SceneKind::ALL {
                let data = SceneData::generate(kind, W, H, N, 3);
                let scene = splat.upload(&data).expect("upload");
                let (words, fragments) = compute_frame(&splat, &target, &scene).await;
                let (expected, _) = twin::accumulate_cpu(&fragments, (W * H) as usize, packing);
                assert!(words == expected, "{packing:?} {}: words differ from the twin", kind.name());
                let visible = fragments.iter().filter(|f| f[0] < HIDDEN).count();
                assert!(visible > N / 10, "{}: only {visible} visible particles", kind.name());

                let depth = target.read_depth().await.expect("depth");
                assert_eq!(target.read_hiz().await.expect("hiz"), twin::build_hiz(&depth, W, H));
                for (p, gpu_fragment) in data.particles.iter().zip(&fragments) {
                    let cpu = twin::fragment(&data.camera, p, &depth);
                    if cpu[0] == gpu_fragment[0] {
                        for c in 1..4 {
                            assert!(cpu[c].abs_diff(gpu_fragment[c]) <= 1, "{p:?}: {cpu:?} vs {gpu_fragment:?}");
                        }
                        continue;
                    }
                    assert!(borderline(&data.camera, p, &depth), "{p:?}: twin {cpu:?}, GPU {gpu_fragment:?}");
                }
            }
        }
    }
}

/// Whether `p` sits within f32 rounding of a frustum plane, a pixel edge or the depth it is
/// tested against, where CPU and GPU may round differently.
fn borderline(camera: &Camera, p: &Particle, depth: &[f32]) -> bool {
    let clip = camera.view_proj * p.position.truncate().extend(1.0);
    let eps = 1e-4 * clip.w.abs().max(1.0);
    if (clip.x.abs() - clip.w).abs() < eps
        || (clip.y.abs() - clip.w).abs() < eps
        || clip.z.abs() < eps
        || (clip.z - clip.w).abs() < eps
    {
        return true;
    }
    let Some((clip, window)) = camera.window(p.position.truncate()) else {
        return false;
    };
    if window.iter().any(|v| (v - v.round()).abs() < 1e-3) {
        return true;
    }
    let [x, y] = twin::pixel(window, camera.width, camera.height);
    (clip.z / clip.w - depth[(y * camera.width + x) as usize]).abs() < 1e-5
}

/// A pixel, the integers added there, and the unpacked result by 2 x u32 and by 1 x int64.
type Case = (u32, Vec<[u32; 3]>, [u32; 3], [u32; 3]);

/// A particle on pixel `(x, y)` of an identity camera whose quantised colour is exactly `q`.
fn exact_particle(camera: &Camera, x: u32, y: u32, q: [u32; 3]) -> Particle {
    let s = twin::scale();
    let mut c = [0.0f32; 3];
    for i in 0..3 {
        // Start at q / scale and step by ulps until the GPU's rounding gives q back.
        let mut v = q[i] as f32 / s[i];
        for _ in 0..8 {
            let got = (v * s[i]).round_ties_even() as u32;
            if got == q[i] {
                break;
            }
            v = if got < q[i] {
                v.next_up()
            } else {
                v.next_down()
            };
        }
        c[i] = v;
    }
    assert_eq!(
        twin::quantise(Vec3::from(c)),
        q,
        "an exact colour for {q:?}"
    );
    let ndc = [
        (x as f32 + 0.5) / camera.width as f32 * 2.0 - 1.0,
        1.0 - (y as f32 + 0.5) / camera.height as f32 * 2.0,
    ];
    Particle {
        position: Vec4::new(ndc[0], ndc[1], 0.5, 1.0),
        color: Vec4::new(c[0], c[1], c[2], 0.0),
    }
}

gpu_test! {
    /// Chosen integers on chosen pixels: G-low overflowing (the third add), each channel
    /// overflowing as the document describes, and the B-carry case where the packings differ.
    async fn carries_and_overflow_behave_as_documented(gpu) {
        let camera = Camera::identity(8, 2);
        let [ir, ig, ib] = I_MAX;
        let cases: Vec<Case> = vec![
            // G-low overflows on every add after the first: carried, so G is the exact sum.
            (0, vec![[10, 1_500, 20]; 40], [400, 60_000, 800], [400, 60_000, 800]),
            (1, vec![[1, 2_047, 1], [1, 2_047, 1], [1, 2_049, 1]], [3, 6_143, 3], [3, 6_143, 3]),
            // R wraps; its carry falls off the top.
            (2, vec![[ir, 0, 0], [5, 0, 0]], [4, 0, 0], [4, 0, 0]),
            // G wraps into R.
            (3, vec![[0, ig, 0], [0, 7, 0]], [1, 6, 0], [1, 6, 0]),
            // B wraps into G.
            (4, vec![[0, 0, ib], [0, 0, 9]], [0, 1, 8], [0, 1, 8]),
            // B's carry tips G-low (2047) over: the document's carry test misses it.
            (5, vec![[0, 2_047, ib], [0, 0, 1]], [0, 0, 0], [0, 2_048, 0]),
            // Nothing here.
            (6, vec![], [0, 0, 0], [0, 0, 0]),
        ];
        let mut data = SceneData { camera, geometry: Vec::new(), particles: Vec::new() };
        for (pixel, adds, _, _) in &cases {
            for &q in adds {
                data.particles.push(exact_particle(&camera, pixel % 8, pixel / 8, q));
            }
        }
        for packing in packings(&gpu) {
            let splat = Splat::new(&gpu, Some(packing)).expect("splat");
            let target = splat.target(camera.width, camera.height).expect("target");
            let scene = splat.upload(&data).expect("upload");
            let (words, fragments) = compute_frame(&splat, &target, &scene).await;
            let (expected, carries) = twin::accumulate_cpu(&fragments, words.len(), packing);
            assert_eq!(words, expected, "{packing:?}");
            if packing == Packing::TwoU32 {
                // 29 on pixel 0 (60 000 / 2048), one on pixel 1, one on pixel 3.
                assert_eq!(carries, 31, "the carry add ran {carries} times");
            }
            for (pixel, adds, by_u32, by_u64) in &cases {
                let want = if packing == Packing::TwoU32 { by_u32 } else { by_u64 };
                assert_eq!(&twin::unpack(words[*pixel as usize]), want, "{packing:?}, pixel {pixel}, adding {adds:?}");
            }
        }
    }
}

gpu_test! {
    /// The two paths draw the same picture, within the bound the module derives
    /// ([`raster_bound`]), on scenes whose particles sit on pixel centres.
    async fn compute_matches_raster_within_the_derived_bound(gpu) {
        let splat = Splat::new(&gpu, None).expect("splat");
        let target = splat.target(W, H).expect("target");
        for kind in SceneKind::ALL {
            let mut data = SceneData::generate(kind, W, H, N, 11);
            data.centre_on_pixels();
            let scene = splat.upload(&data).expect("upload");
            let args = (&target, &scene);
            splat.run(SplatGeometryArgs { target: args.0, scene: args.1 }).expect("geometry").wait().await.expect("wait");
            let background = target.read_hdr().await.expect("background");
            splat.run(SplatRasterArgs { target: args.0, scene: args.1 }).expect("raster").wait().await.expect("raster");
            let raster = target.read_hdr().await.expect("raster hdr");
            let (_, fragments) = compute_frame(&splat, &target, &scene).await;
            let compute = target.read_hdr().await.expect("compute hdr");

            let mut count = vec![0u32; (W * H) as usize];
            let mut sum = vec![Vec3::ZERO; (W * H) as usize];
            let s = twin::scale();
            for f in fragments.iter().filter(|f| f[0] < HIDDEN) {
                count[f[0] as usize] += 1;
                sum[f[0] as usize] += Vec3::new(f[1] as f32 / s[0], f[2] as f32 / s[1], f[3] as f32 / s[2]);
            }
            let mut worst = 0.0f32;
            let mut differing = 0;
            for i in 0..(W * H) as usize {
                for c in 0..3 {
                    let bound = raster_bound(count[i], background[i][c] + sum[i][c], c);
                    let diff = (raster[i][c] - compute[i][c]).abs();
                    worst = worst.max(diff / bound);
                    differing += (diff > 0.0) as u32;
                    assert!(diff <= bound, "{} pixel {i} channel {c}: raster {} compute {} (k = {}, sum {}, bound {bound})",
                        kind.name(), raster[i][c], compute[i][c], count[i], sum[i][c]);
                }
            }
            eprintln!("splat {}: {differing} channel values differ; worst |raster - compute| / bound = {worst:.3}", kind.name());
        }
    }
}

/// The largest |raster − compute| for one channel of a pixel hit by `k` particles whose colours
/// plus the background sum to `total`.
///
/// The compute sum is exact in integers; each particle's quantisation is off by at most half a
/// step, `0.5 · E_max / I_max`. The rasterizer rounds to fp16 at every blend: at most 2^-11 of the
/// running sum (≤ `total`) per particle, plus 2^-11 of each particle's own colour on its way into
/// the blender (≤ 2^-11 · `total` in all). The composite's one fp16 add rounds once more. Below
/// 2^-14 halves are subnormal, with a fixed step of 2^-24: half of it per rounding.
pub(crate) fn raster_bound(k: u32, total: f32, channel: usize) -> f32 {
    let u = 2f32.powi(-11);
    let k = k as f32;
    let step = E_MAX / I_MAX[channel] as f32;
    k * (u * total + 0.5 * step) + 2.0 * u * total + (k + 2.0) * 2f32.powi(-25) + 1e-7
}

gpu_test! {
    /// Particles behind the camera, outside the frustum, past the far plane, behind the box or
    /// under the ground add nothing on either path; a few in plain view do.
    async fn culled_and_hidden_particles_contribute_nothing(gpu) {
        let camera = Camera::new(W, H);
        let mut rng = shoal::SplitMix64::new(5);
        let size = camera.particle_size();
        let mut hidden = Vec::new();
        let eye = Vec3::new(0.0, 2.5, 9.0);
        let box_centre = Vec3::new(1.35, 0.75, -0.15);
        let mut outside = Vec::new();
        for _ in 0..500 {
            // Behind the eye, far to each side, past the far plane.
            outside.push(eye + Vec3::new(rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0), rng.range_f32(0.5, 5.0)));
            outside.push(Vec3::new(rng.range_f32(30.0, 60.0) * if rng.next_f32() < 0.5 { -1.0 } else { 1.0 }, 1.0, 0.0));
            outside.push(Vec3::new(0.0, rng.range_f32(30.0, 60.0), 0.0));
            outside.push(Vec3::new(rng.range_f32(-5.0, 5.0), 1.0, -200.0));
            // Behind the box, along rays through its middle; and under the ground.
            let through = box_centre + Vec3::new(rng.range_f32(-0.4, 0.4), rng.range_f32(-0.4, 0.4), 0.0);
            hidden.push(eye + (through - eye) * rng.range_f32(1.4, 1.8));
            hidden.push(Vec3::new(rng.range_f32(-3.0, 3.0), rng.range_f32(-0.8, -0.1), rng.range_f32(-2.0, 2.0)));
        }
        // Off pixel edges: at an exact tie (window x = 80.0) the document's round(x - 0.5) rounds
        // half to even in WGSL while the rasterizer's top-left rule takes the pixel to the left.
        let visible = [Vec3::new(-2.0, 1.5, 1.0), Vec3::new(-1.0, 2.0, 0.5), Vec3::new(0.013, 2.2, 2.0)];
        let as_particle = |p: &Vec3| Particle { position: p.extend(size), color: Vec4::new(0.5, 0.25, 0.125, 0.0) };
        let particles: Vec<Particle> = outside.iter().chain(&hidden).chain(&visible).map(as_particle).collect();
        let data = SceneData { camera, geometry: scene::geometry(), particles };

        for packing in packings(&gpu) {
            let splat = Splat::new(&gpu, Some(packing)).expect("splat");
            let target = splat.target(W, H).expect("target");
            let scene = splat.upload(&data).expect("upload");
            let (words, fragments) = compute_frame(&splat, &target, &scene).await;
            let statuses: Vec<u32> = fragments.iter().map(|f| f[0]).collect();
            let (o, h) = (outside.len(), hidden.len());
            assert!(statuses[..o].iter().all(|&s| s == CULLED), "{packing:?}: outside the frustum is culled");
            assert!(statuses[o..o + h].iter().all(|&s| s == HIDDEN), "{packing:?}: behind geometry is hidden");
            let lit: Vec<usize> = statuses[o + h..].iter().map(|&s| s as usize).collect();
            assert!(lit.iter().all(|&s| s < words.len()), "{packing:?}: the controls are visible");
            for (i, w) in words.iter().enumerate() {
                assert_eq!(*w != [0, 0], lit.contains(&i), "{packing:?}: pixel {i} holds {w:?}");
            }
            // The rasterizer agrees: only the control pixels change from the opaque scene.
            let compute = target.read_hdr().await.expect("compute hdr");
            let args = (&target, &scene);
            splat.run(SplatGeometryArgs { target: args.0, scene: args.1 }).expect("geometry").wait().await.expect("wait");
            let background = target.read_hdr().await.expect("background");
            splat.run(SplatRasterArgs { target: args.0, scene: args.1 }).expect("raster").wait().await.expect("raster");
            let raster = target.read_hdr().await.expect("raster hdr");
            for i in 0..words.len() {
                let changed = |img: &[[f32; 4]]| img[i] != background[i];
                assert_eq!(changed(&raster), lit.contains(&i), "raster pixel {i}");
                assert_eq!(changed(&compute), lit.contains(&i), "compute pixel {i}");
            }
        }
    }
}

gpu_test! {
    /// Automatic choice: 64-bit where the adapter has it, else 2 x u32; asking for 64-bit where
    /// it is missing is the typed error, before anything runs.
    async fn the_packing_is_chosen_and_a_missing_int64_is_a_typed_error(gpu) {
        let auto = Splat::new(&gpu, None).expect("automatic choice");
        if gpu.has_int64_atomics() {
            assert_eq!(auto.packing(), Packing::Int64);
            assert_eq!(Splat::new(&gpu, Some(Packing::TwoU32)).expect("2 x u32").packing(), Packing::TwoU32);
        } else {
            assert_eq!(auto.packing(), Packing::TwoU32);
            let e = Splat::new(&gpu, Some(Packing::Int64)).expect_err("no 64-bit atomics here");
            assert!(matches!(&e, Error::MissingFeature { feature, .. } if feature.contains("SHADER_INT64_ATOMIC")), "{e}");
            assert!(e.to_string().contains("splat_int64.wgsl:splat_u64"), "{e}");
        }
        let wrong = auto.target(W + 1, H).expect("target");
        let scene = auto.upload(&SceneData::generate(SceneKind::Normal, W, H, 100, 1)).expect("upload");
        let e = auto.run(SplatFrameArgs { target: &wrong, scene: &scene }).expect_err("a scene for another size");
        assert!(matches!(e, Error::Length { .. }), "{e}");
    }
}

gpu_test! {
    /// A scene without particles (or without triangles) uploads and draws on both paths: the
    /// words stay zero, and the picture is the opaque scene alone, or black without it.
    async fn a_scene_without_particles_draws_the_rest(gpu) {
        let splat = Splat::new(&gpu, None).expect("splat");
        let target = splat.target(W, H).expect("target");
        let camera = Camera::new(W, H);
        let opaque = splat
            .upload(&SceneData { camera, geometry: scene::geometry(), particles: Vec::new() })
            .expect("upload a scene without particles");
        assert!(opaque.is_empty());
        assert_eq!(opaque.len(), 0);
        let (words, fragments) = compute_frame(&splat, &target, &opaque).await;
        assert!(words.iter().all(|w| *w == [0, 0]) && fragments.is_empty());
        let compute = target.read_hdr().await.expect("compute hdr");
        splat.run(SplatRasterArgs { target: &target, scene: &opaque }).expect("raster").wait().await.expect("raster");
        let raster = target.read_hdr().await.expect("raster hdr");
        assert_eq!(compute, raster, "nothing added on either path");
        assert!(compute.iter().any(|p| p[0] > 0.0), "the opaque scene is drawn");
        assert!(target.read_depth().await.expect("depth").iter().any(|&d| d < 1.0));

        let nothing = splat
            .upload(&SceneData { camera, geometry: Vec::new(), particles: Vec::new() })
            .expect("upload an empty scene");
        for compute in [true, false] {
            let (target, scene) = (&target, &nothing);
            let submission = if compute { splat.run(SplatFrameArgs { target, scene }) } else { splat.run(SplatRasterArgs { target, scene }) };
            submission.expect("render nothing").wait().await.expect("wait");
            let hdr = target.read_hdr().await.expect("hdr");
            assert!(hdr.iter().all(|p| p[..3] == [0.0; 3]), "black, compute = {compute}: {:?}", hdr[0]);
            assert!(target.read_depth().await.expect("depth").iter().all(|&d| d == 1.0), "cleared depth");
        }
    }
}

gpu_test! {
    /// The target's images are core images: a size the device cannot make is the core's typed
    /// error, and the HDR image can be sampled by a later pass.
    async fn target_images_are_core_images(gpu) {
        let splat = Splat::new(&gpu, None).expect("splat");
        let e = splat.target(0, H).expect_err("no pixels");
        assert!(matches!(e, Error::ImageSize { width: 0, .. }), "{e}");
        let target = splat.target(W, H).expect("target");
        assert_eq!((target.hdr().size(), target.hdr().format()), ([W, H], HDR_FORMAT));
        assert_eq!((target.depth().size(), target.depth().format()), ([W, H], DEPTH_FORMAT));
        assert!(target.hdr().usage().contains(wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::RENDER_ATTACHMENT));
    }
}

shoal_conformance::async_test! {
    /// The render passes are recorded by hand: a target, scene or batch of another `Gpu` is
    /// `Error::WrongGpu` before anything is recorded, not a panic inside wgpu-core.
    async fn targets_scenes_and_batches_of_another_gpu_are_typed_errors() {
        let (gpu, other) = (Gpu::new().await.expect("first"), Gpu::new().await.expect("second"));
        let splat = Splat::new(&gpu, None).expect("splat");
        let theirs = Splat::new(&other, None).expect("other splat");
        let data = SceneData::generate(SceneKind::ALL[0], W, H, 64, 3);
        let (target, scene) = (splat.target(W, H).expect("target"), splat.upload(&data).expect("scene"));
        let (their_target, their_scene) = (theirs.target(W, H).expect("target"), theirs.upload(&data).expect("scene"));
        let wrong = |e: Error, what: &str| {
            assert!(matches!(e, Error::WrongGpu { .. }), "{e}");
            assert!(e.to_string().contains(what), "{e} should name {what}");
        };
        wrong(splat.run(SplatRasterArgs { target: &their_target, scene: &scene }).expect_err("target"), "the splat target");
        wrong(splat.run(SplatFrameArgs { target: &target, scene: &their_scene }).expect_err("scene"), "the splat scene");
        let mut batch = other.commands();
        let geometry = SplatGeometryArgs { target: &target, scene: &scene };
        wrong(splat.record(&mut batch, geometry).expect_err("batch"), "the batch");
        splat.run(SplatRasterArgs { target: &target, scene: &scene }).expect("its own").wait().await.expect("wait");
    }
}

gpu_test! {
    /// The render pipelines are composed by the core's preprocessor: a mistake in the
    /// `splat::common` snippet they import is a WGSL error naming `splat_common.wgsl` and its
    /// own line (not a line past the end of `splat_raster.wgsl`), and the three pipelines build
    /// from the snippet as written.
    async fn an_error_in_splat_common_names_its_file_and_line_in_the_raster_pipelines(gpu) {
        raster::Pipelines::new(&gpu, raster::source(&COMMON)).expect("the pipelines as written");
        let common = COMMON;
        let text = common.text();
        let culled = "const SPLAT_CULLED: u32 = 0xFFFFFFFFu;";
        let line = text.lines().position(|l| l.trim() == culled).expect("the culled status") + 1;
        let cases = [
            (2, text.lines().take(2).chain(["fn broken( {"]).chain(text.lines().skip(2)).collect::<Vec<_>>().join("\n")),
            (line - 1, text.replace(culled, "const SPLAT_CULLED: u32 = -1.5;")),
        ];
        for (index, broken) in cases {
            let common = shoal::Source::new("edited/splat_common.wgsl", broken);
            match raster::Pipelines::new(&gpu, raster::source(&common)) {
                Err(Error::Wgsl { kernel, message }) => {
                    assert_eq!(kernel, "wgsl/splat_raster.wgsl", "{message}");
                    let at = format!("edited/splat_common.wgsl:{}:", index + 1);
                    assert!(message.contains(&at), "{at} in {message}");
                    assert!(!message.contains("--> wgsl/splat_raster.wgsl"), "{message}");
                }
                other => panic!("expected a WGSL error, got {other:?}"),
            }
        }
    }
}
