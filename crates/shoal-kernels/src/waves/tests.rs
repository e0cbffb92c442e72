use shoal_conformance::gpu_test;

use super::cpu::{WavesCpu, energy};
use super::*;

/// Largest |gpu − cpu| relative to the largest height. The scheme is stable, so rounding
/// differences (fused multiply-adds on the GPU) stay near f32 epsilon times the step count.
const TOLERANCE: f32 = 1e-4;

fn worst(got: &[f32], want: &[f32]) -> (f32, usize) {
    let scale = want.iter().fold(0.0f32, |m, v| m.max(v.abs())).max(1e-6);
    let mut worst = (0.0f32, 0);
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let e = (g - w).abs() / scale;
        if e > worst.0 || e.is_nan() {
            worst = (e, i);
        }
    }
    worst
}

/// `n` steps recorded into one batch and submitted.
fn steps(waves: &Waves, n: u32) {
    let mut commands = waves.gpu.commands();
    for _ in 0..n {
        waves.record(&mut commands, WavesStep).expect("record");
    }
    commands.submit().expect("submit");
}

gpu_test! {
    /// The document's 512x512 grid with its defaults: two disturbances and k = 60 steps against
    /// the CPU, every texel, previous and current.
    async fn steps_match_cpu_512(gpu) {
        let size = DOCUMENT_SIZE;
        let params = WaveParams::default();
        let waves = Waves::new(&gpu, WaveParams { width: size, height: size, ..params }).expect("waves");
        let mut cpu = WavesCpu::new(size, size, waves.constants());
        waves.run(WavesDisturbArgs { x: 200, y: 300, magnitude: 1.0 }).expect("disturb");
        cpu.disturb(200, 300, 1.0);
        steps(&waves, 30);
        (0..30).for_each(|_| cpu.step());
        waves.run(WavesDisturbArgs { x: 1, y: 510, magnitude: -0.5 }).expect("disturb");
        cpu.disturb(1, 510, -0.5);
        steps(&waves, 30);
        (0..30).for_each(|_| cpu.step());
        let (got, got_prev) = (waves.read().await.expect("read"), waves.read_previous().await.expect("read"));
        for (what, g, w) in [("current", &got, &cpu.curr), ("previous", &got_prev, &cpu.prev)] {
            let (e, i) = worst(g, w);
            assert!(e < TOLERANCE, "{what}: texel ({}, {}): gpu {} cpu {} (relative error {e})", i % 512, i / 512, g[i], w[i]);
        }
        assert!(got.iter().any(|h| h.abs() > 1e-3), "the waves moved");
        assert!(got[..512].iter().all(|&h| h == 0.0), "the border stays at zero");
    }

    /// Parameters other than the demo's (dx = 2.5, dt = 0.05, c = 20, μ = 0.6, so dx² ≠ dx ≠ 1):
    /// the constants equal the book's formulas written out here, and 40 GPU steps equal the CPU
    /// twin stepping with those constants (not the surface's own), every texel.
    async fn constants_follow_the_formula_off_the_defaults(gpu) {
        let params = WaveParams { spatial_step: 2.5, time_step: 0.05, speed: 20.0, damping: 0.6, ..WaveParams::default() };
        let (dx, dt, c, mu) = (2.5f64, 0.05f64, 20.0f64, 0.6f64);
        let d = mu * dt + 2.0;
        let e = c * c * dt * dt / (dx * dx);
        let want = [(mu * dt - 2.0) / d, (4.0 - 8.0 * e) / d, 2.0 * e / d].map(|k| k as f32);
        let (w, h) = (64u32, 48u32);
        let waves = Waves::new(&gpu, WaveParams { width: w, height: h, ..params }).expect("waves (c dt / dx = 0.4)");
        for (i, (got, want)) in waves.constants().iter().zip(want).enumerate() {
            assert!((got - want).abs() <= 1e-6 * want.abs(), "k{}: {got}, want {want}", i + 1);
        }
        let mut cpu = WavesCpu::new(w, h, want);
        waves.run(WavesDisturbArgs { x: 20, y: 30, magnitude: 1.0 }).expect("disturb");
        cpu.disturb(20, 30, 1.0);
        steps(&waves, 40);
        (0..40).for_each(|_| cpu.step());
        let got = waves.read().await.expect("read");
        let (e, i) = worst(&got, &cpu.curr);
        assert!(e < TOLERANCE, "texel ({}, {}): gpu {} cpu {} (relative error {e})", i as u32 % w, i as u32 / w, got[i], cpu.curr[i]);
        assert!(got.iter().any(|h| h.abs() > 1e-3), "the waves moved");
    }

    /// With damping the energy falls; without, it stays (within the scheme's small drift).
    async fn energy_decays_with_damping(gpu) {
        let size = 96u32;
        let mut last = Vec::new();
        for damping in [0.0f32, 0.2, 1.0] {
            let params = WaveParams { damping, ..WaveParams::default() };
            let waves = Waves::new(&gpu, WaveParams { width: size, height: size, ..params }).expect("waves");
            waves.run(WavesDisturbArgs { x: 48, y: 48, magnitude: 1.0 }).expect("disturb");
            let mut energies = Vec::new();
            for _ in 0..4 {
                steps(&waves, 50);
                let (prev, curr) = (waves.read_previous().await.expect("read"), waves.read().await.expect("read"));
                energies.push(energy(&prev, &curr, size, params.speed, params.time_step, params.spatial_step));
            }
            if damping == 0.0 {
                assert!(energies[3] > 0.8 * energies[0] && energies[3] < 1.2 * energies[0], "undamped: {energies:?}");
            } else {
                assert!(energies.windows(2).all(|p| p[1] < p[0]), "damping {damping}: {energies:?}");
            }
            last.push(energies[3]);
        }
        assert!(last[2] < last[1] && last[1] < last[0], "more damping, less energy: {last:?}");
    }

    /// Parameters that break c·dt/dx ≤ 1/√2 (or make no sense) are typed errors that name the rule.
    async fn unstable_parameters_are_refused(gpu) {
        let base = WaveParams::default();
        let cases = [
            WaveParams { time_step: 0.2, ..base },
            WaveParams { speed: 40.0, ..base },
            WaveParams { spatial_step: 0.1, ..base },
            WaveParams { damping: -1.0, ..base },
            WaveParams { time_step: f32::NAN, ..base },
        ];
        for params in cases {
            match Waves::new(&gpu, WaveParams { width: 64, height: 64, ..params }) {
                Err(Error::InvalidParameter { kernel, .. }) => assert_eq!(kernel, "Waves"),
                other => panic!("{params:?}: expected InvalidParameter, got {other:?}"),
            }
        }
        let e = WaveParams { time_step: 0.2, ..base }.constants().expect_err("unstable");
        assert!(e.to_string().contains("1/sqrt(2)"), "{e}");
        // The boundary case is allowed.
        let edge = WaveParams { speed: 1.0, time_step: 0.7, spatial_step: 1.0, damping: 0.0, ..WaveParams::default() };
        assert!(edge.constants().is_ok());
        let waves = Waves::new(&gpu, WaveParams { width: 8, height: 8, ..base }).expect("waves");
        assert!(matches!(waves.run(WavesDisturbArgs { x: 0, y: 4, magnitude: 1.0 }), Err(Error::InvalidParameter { .. })));
        assert!(matches!(waves.run(WavesDisturbArgs { x: 4, y: 7, magnitude: 1.0 }), Err(Error::InvalidParameter { .. })));
    }
}

#[test]
fn document_constants() {
    let [k1, k2, k3] = WaveParams::default().constants().expect("stable");
    // dt = 0.03, c = 4, mu = 0.2, dx = 1: e = 0.0144, d = 2.006.
    let (e, d) = (0.0144f32, 2.006f32);
    assert!((k1 - (0.006 - 2.0) / d).abs() < 1e-6);
    assert!((k2 - (4.0 - 8.0 * e) / d).abs() < 1e-6);
    assert!((k3 - 2.0 * e / d).abs() < 1e-6);
}
