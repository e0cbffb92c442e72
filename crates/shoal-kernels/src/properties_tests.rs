//! Property tests of the kernel families' parameters (issue 15): σ that are NaN, infinite, zero
//! or huge, work-group sizes from 0 to `u32::MAX`, particle capacities and emission counts near
//! `u32::MAX` and `u64::MAX`, wave grids and steps of any size, scan tilings of any coarsening.
//! Each gives a working object (whose result is checked where it is quick) or a typed error,
//! never a panic and never a wgpu error. Native only; the runner and knobs are
//! `shoal_conformance::property`'s.

use glam::Vec3;
use shoal::{Error, Gpu};
use shoal_conformance::property::proptest::prelude::*;
use shoal_conformance::property::proptest::test_runner::{TestCaseError, TestCaseResult};
use shoal_conformance::property::{check_cases, ensure};

use crate::boids::document_flock;
use crate::particles::Emitter;
use crate::{
    Bilateral, BilateralParams, BlurArgs, BlurParams, Boids, BoidsStepArgs, GaussianBlur, Op,
    ParticleSettings, Particles, ParticlesParams, ParticlesStep, RayTraceSceneArgs, RayTracer,
    Record, Scan, ScanArgs, ScanSpec, Scene, Tiling, WaveParams, Waves, WavesDisturbArgs, scan_cpu,
};

/// Inputs per property: each builds pipelines, which takes a while on a software adapter.
const CASES: u32 = 12;

fn gpu() -> Gpu {
    shoal_conformance::harness::gpu()
}

/// A float that is often special.
fn float() -> impl Strategy<Value = f32> {
    prop_oneof![
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(0.0f32),
        Just(-1.0f32),
        Just(f32::MIN_POSITIVE),
        Just(f32::MAX),
        0.01f32..10.0,
    ]
}

fn u32_special() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0u32),
        1u32..300,
        Just(1024),
        Just(1025),
        Just(u32::MAX - 1),
        Just(u32::MAX)
    ]
}

/// `Ok`, or a typed error other than `Error::Wgpu`.
fn typed<T>(what: &str, r: &shoal::Result<T>) -> TestCaseResult {
    ensure(!matches!(r, Err(Error::Wgpu { .. })), || {
        format!("{what}: {:?}", r.as_ref().err())
    })
}

#[test]
fn blur_and_bilateral_parameters_give_filters_or_typed_errors() {
    let gpu = gpu();
    let wg = prop_oneof![Just(None), u32_special().prop_map(Some)];
    check_cases(
        "blur parameters",
        CASES,
        (float(), wg, float(), float()),
        |(sigma, workgroup_size, spatial, range)| {
            let blur = GaussianBlur::new(
                &gpu,
                BlurParams {
                    sigma,
                    workgroup_size,
                },
            );
            typed("GaussianBlur::new", &blur)?;
            ensure(blur.is_err() || sigma > 0.0 && sigma <= 7.5, || {
                format!("sigma {sigma} accepted")
            })?;
            let weights = blur.as_ref().map_or(&[][..], |b| b.weights());
            ensure(weights.iter().all(|w| w.is_finite()), || {
                format!("sigma {sigma} gave weights {weights:?}")
            })?;
            let bilateral = Bilateral::new(
                &gpu,
                BilateralParams {
                    spatial_sigma: spatial,
                    range_sigma: range,
                },
            );
            typed("Bilateral::new", &bilateral)?;
            ensure(
                bilateral.is_err() || spatial > 0.0 && range.is_finite() && range > 0.0,
                || format!("sigmas {spatial}, {range} accepted"),
            )?;
            let finite = bilateral.as_ref().map_or(true, |b| {
                let (s, r) = b.params().coefficients();
                s.is_finite() && r.is_finite()
            });
            ensure(finite, || {
                format!("sigmas {spatial}, {range}: coefficients not finite")
            })
        },
    );
}

#[test]
fn particle_capacities_and_emissions_give_systems_or_typed_errors() {
    let gpu = gpu();
    let capacity = prop_oneof![
        Just(0u64),
        1u64..200,
        Just(u32::MAX as u64),
        Just(u64::MAX - 1),
        Just(u64::MAX)
    ];
    let strategy = (capacity, u32_special(), 0usize..3, float());
    check_cases(
        "particle parameters",
        CASES,
        strategy,
        |(capacity, emit_per_emitter, emitters, dt)| {
            let settings = ParticleSettings {
                dt,
                emit_per_emitter,
                emitters: vec![Emitter::fountain(Vec3::ZERO); emitters],
                ..ParticleSettings::default()
            };
            let params = ParticlesParams {
                initial: &[],
                capacity,
                settings,
            };
            let made = Particles::new(&gpu, params);
            typed("Particles::new", &made)?;
            let Ok(particles) = made else {
                return Ok(());
            };
            let emitted = emitters as u64 * emit_per_emitter as u64;
            ensure(emitted <= capacity, || {
                format!("{emitted} per step accepted for capacity {capacity}")
            })?;
            particles
                .run(ParticlesStep)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            let count = particles.count_blocking();
            ensure(count == Ok(emitted), || {
                format!("{emitted} emitted, count {count:?}")
            })
        },
    );
}

#[test]
fn wave_sizes_and_steps_give_surfaces_or_typed_errors() {
    let gpu = gpu();
    let side = prop_oneof![
        Just(0u32),
        Just(2),
        Just(3),
        4u32..64,
        Just(gpu.device().limits().max_texture_dimension_2d + 1),
        Just(u32::MAX)
    ];
    let strategy = (side.clone(), side, float(), float(), float(), float());
    check_cases(
        "wave parameters",
        CASES,
        strategy,
        |(width, height, spatial_step, time_step, speed, damping)| {
            let params = WaveParams {
                width,
                height,
                spatial_step,
                time_step,
                speed,
                damping,
            };
            let waves = Waves::new(&gpu, params);
            typed("Waves::new", &waves)?;
            let k = waves.as_ref().map_or([0.0; 3], |w| w.constants());
            ensure(k.iter().all(|k| k.is_finite()), || {
                format!("{params:?} gave constants {k:?}")
            })
        },
    );
}

/// The parameters each accepted alone that once gave NaN: a blur's or a bilateral filter's sigma
/// so small that 2 sigma^2 is 0 (or its inverse infinite), a wave's damping times time step past
/// f32's range, a disturbance of infinite magnitude. Each is `InvalidParameter` naming it.
#[test]
fn parameters_that_would_give_nan_are_refused() {
    let gpu = gpu();
    let names = |r: shoal::Result<()>, parameter: &str| {
        let e = r.expect_err(parameter);
        assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
        assert!(
            e.to_string().contains(parameter),
            "{e} should name {parameter}"
        );
    };
    for sigma in [f32::MIN_POSITIVE, 1e-30] {
        let blur = GaussianBlur::new(
            &gpu,
            BlurParams {
                sigma,
                workgroup_size: None,
            },
        );
        names(blur.map(|_| ()), "sigma");
    }
    let tiny = [(1e-20, 0.15, "spatial_sigma"), (3.0, 1e-20, "range_sigma")];
    for (spatial_sigma, range_sigma, parameter) in tiny {
        let params = BilateralParams {
            spatial_sigma,
            range_sigma,
        };
        names(Bilateral::new(&gpu, params).map(|_| ()), parameter);
    }
    let params = WaveParams {
        spatial_step: 1.0,
        time_step: f32::MAX,
        speed: 0.0,
        damping: 2.0,
        width: 8,
        height: 8,
    };
    names(params.constants().map(|_| ()), "damping");
    names(Waves::new(&gpu, params).map(|_| ()), "damping");
    let small = WaveParams {
        width: 8,
        height: 8,
        ..WaveParams::default()
    };
    let waves = Waves::new(&gpu, small).expect("waves");
    for magnitude in [f32::NAN, f32::INFINITY] {
        names(
            waves.record(
                &mut gpu.commands(),
                WavesDisturbArgs {
                    x: 4,
                    y: 4,
                    magnitude,
                },
            ),
            "magnitude",
        );
    }
    // A boids step at a time that is not finite: the goal, then every member, NaN for good.
    let boids =
        Boids::new(&gpu, &document_flock(crate::boids::WORKGROUP_SIZE as usize)).expect("boids");
    for time in [f32::NAN, f32::INFINITY] {
        names(boids.run(BoidsStepArgs { time }).map(|_| ()), "time");
    }
    // A NaN or non-positive lifetime killed every particle on its first step.
    let particles = |lifetime| {
        let settings = ParticleSettings {
            lifetime,
            ..ParticleSettings::default()
        };
        let params = ParticlesParams {
            initial: &[],
            capacity: 16,
            settings,
        };
        Particles::new(&gpu, params).map(|_| ())
    };
    for lifetime in [f32::NAN, 0.0, -1.0] {
        names(particles(lifetime), "lifetime");
    }
    particles(f32::INFINITY).expect("an infinite lifetime: never");
    // Scenes the camera cannot frame, and too many spheres: every pixel was NaN, or spheres
    // were dropped.
    let tracer = RayTracer::new(&gpu).expect("ray tracer");
    let image = gpu
        .image_zeroed(4, 4, shoal::wgpu::TextureFormat::Rgba32Float)
        .expect("image");
    let scene = Scene::default();
    let scenes = [
        (
            Scene {
                look_at: scene.eye,
                ..scene
            },
            "look_at",
        ),
        (
            Scene {
                eye: Vec3::new(0.0, 5.0, 0.0),
                look_at: Vec3::ZERO,
                ..scene
            },
            "look_at",
        ),
        (
            Scene {
                fov_y: std::f32::consts::PI,
                ..scene
            },
            "fov_y",
        ),
        (
            Scene {
                fov_y: f32::NAN,
                ..scene
            },
            "fov_y",
        ),
        (
            Scene {
                eye: Vec3::new(f32::INFINITY, 0.0, 0.0),
                ..scene
            },
            "eye",
        ),
        (
            Scene {
                sphere_count: 5,
                ..scene
            },
            "sphere_count",
        ),
    ];
    for (bad, parameter) in scenes {
        let args = RayTraceSceneArgs {
            scene: &bad,
            image: &image,
        };
        names(tracer.run(args).map(|_| ()), parameter);
    }
    let args = RayTraceSceneArgs {
        scene: &scene,
        image: &image,
    };
    tracer.run(args).expect("the default scene");
    // Blur passes past the bound per call.
    let blur = GaussianBlur::new(&gpu, BlurParams::default()).expect("blur");
    names(
        blur.run(BlurArgs {
            image: &image,
            passes: crate::blur::MAX_PASSES + 1,
        })
        .map(|_| ()),
        "passes",
    );
    // The splat twin's pixel on an image with a side of 0 (it panicked in `clamp`).
    assert_eq!(crate::splat::twin::pixel([3.0, 3.0], 0, 0), [0, 0]);
}

#[test]
fn scan_tilings_give_correct_scans_or_typed_errors() {
    let gpu = gpu();
    let per = prop_oneof![Just(0u32), 1u32..70, Just(u32::MAX)];
    check_cases(
        "scan tilings",
        CASES,
        (per, any::<bool>(), 0usize..3000),
        |(per_invocation, one_subgroup, n)| {
            let scan = Scan::<u32>::with_tiling(
                &gpu,
                Tiling {
                    per_invocation,
                    one_subgroup,
                    workgroup: None,
                },
            );
            typed("Scan::with_tiling", &scan)?;
            let Ok(scan) = scan else { return Ok(()) };
            let values: Vec<u32> = (0..n as u32).map(|i| i % 7).collect();
            let run = || -> shoal::Result<Vec<u32>> {
                let (input, output) = (
                    gpu.buffer_from(&values)?,
                    gpu.buffer_zeroed::<u32>(n as u64)?,
                );
                scan.run(ScanArgs {
                    input: &input,
                    output: &output,
                    spec: ScanSpec::inclusive(Op::Sum),
                })?;
                output.read_blocking()
            };
            let got = run().map_err(|e| TestCaseError::fail(e.to_string()))?;
            ensure(got == scan_cpu(&values, Op::Sum, true), || {
                format!("scan of {n} with {per_invocation} per invocation")
            })
        },
    );
}
