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

use crate::bilateral::{Bilateral, BilateralParams};
use crate::blur::{BlurParams, GaussianBlur};
use crate::particles::{Emitter, ParticleSettings, Particles};
use crate::waves::{WaveParams, Waves};
use crate::{Op, Scan, ScanSpec, Tiling, scan_cpu};

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
            )
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
            let made = Particles::new(&gpu, &[], capacity, settings);
            typed("Particles::new", &made)?;
            let Ok(mut particles) = made else {
                return Ok(());
            };
            let emitted = emitters as u64 * emit_per_emitter as u64;
            ensure(emitted <= capacity, || {
                format!("{emitted} per step accepted for capacity {capacity}")
            })?;
            particles
                .step()
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
                spatial_step,
                time_step,
                speed,
                damping,
            };
            let waves = Waves::new(&gpu, width, height, params);
            typed("Waves::new", &waves)
        },
    );
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
                scan.run(&input, &output, ScanSpec::inclusive(Op::Sum))?;
                output.read_blocking()
            };
            let got = run().map_err(|e| TestCaseError::fail(e.to_string()))?;
            ensure(got == scan_cpu(&values, Op::Sum, true), || {
                format!("scan of {n} with {per_invocation} per invocation")
            })
        },
    );
}
