//! The simulations' registry entries: each advanced through `record` (steps into one batch)
//! and `run` (one more step alone), against its CPU twin.

use shoal::{Gpu, Record};

use super::{Outcome, err, max_error};
use crate::{
    BoidsStepArgs, ParticlesParams, ParticlesStep, WaveParams, WavesDisturbArgs, WavesStep,
};
use crate::{boids, particles, waves};

pub(super) async fn flock(gpu: &Gpu) -> Outcome {
    let start = boids::document_flock(512);
    let flock = crate::Boids::new(gpu, &start).map_err(err)?;
    let times = [0.0f32, 0.5, 1.0];
    // Two steps recorded into a batch, the third run on its own.
    let mut commands = gpu.commands();
    for &t in &times[..2] {
        flock
            .record(&mut commands, BoidsStepArgs { time: t })
            .map_err(err)?;
    }
    commands.submit().map_err(err)?;
    flock.run(BoidsStepArgs { time: times[2] }).map_err(err)?;
    let got = flock.read().await.map_err(err)?;
    let want = times.iter().fold(start, |members, &t| {
        boids::cpu::boids_step_cpu(&members, &boids::Params::at(t, flock.rules()))
    });
    // Relative to max(1, |cpu|): sums over 512 members in the same order, fused on the GPU.
    let worst = max_error(got.iter().zip(&want).flat_map(|(g, w)| {
        [(g.position, w.position), (g.velocity, w.velocity)]
            .map(|(a, b)| ((a - b).abs() / b.abs().max(glam::Vec3::ONE)).max_element())
    }));
    if worst < 1e-3 {
        Ok(format!(
            "{} members, 3 steps: within {worst:.1e} of the CPU",
            got.len()
        ))
    } else {
        Err(format!(
            "a member differs from the CPU by {worst} (relative)"
        ))
    }
}

pub(super) async fn surface(gpu: &Gpu) -> Outcome {
    let size = 64;
    let params = WaveParams {
        width: size,
        height: size,
        ..WaveParams::default()
    };
    let surface = crate::Waves::new(gpu, params).map_err(err)?;
    let mut cpu = waves::cpu::WavesCpu::new(size, size, surface.constants());
    let mut commands = gpu.commands();
    let disturb = WavesDisturbArgs {
        x: 20,
        y: 30,
        magnitude: 1.0,
    };
    surface.record(&mut commands, disturb).map_err(err)?;
    cpu.disturb(20, 30, 1.0);
    for _ in 0..20 {
        surface.record(&mut commands, WavesStep).map_err(err)?;
        cpu.step();
    }
    commands.submit().map_err(err)?;
    surface.run(WavesStep).map_err(err)?;
    cpu.step();
    let got = surface.read().await.map_err(err)?;
    let scale = cpu.curr.iter().fold(1e-6f32, |m, h| m.max(h.abs()));
    let worst = max_error(
        got.iter()
            .zip(&cpu.curr)
            .map(|(g, w)| (g - w).abs() / scale),
    );
    if worst < 1e-4 {
        Ok(format!(
            "{size}x{size}, 21 steps: every height within {worst:.1e} (relative) of the CPU"
        ))
    } else {
        Err(format!(
            "a height differs from the CPU by {worst} (relative)"
        ))
    }
}

pub(super) async fn fountain(gpu: &Gpu) -> Outcome {
    let start: Vec<particles::Particle> = (0..300u32)
        .map(|i| particles::Particle {
            position: glam::Vec3::new(i as f32 * 0.1, 0.0, 0.0),
            velocity: glam::Vec3::new(0.0, 1.0 + (i % 7) as f32, 0.0),
            acceleration: glam::Vec3::new(0.0, -9.8, 0.0),
            age: (i % 30) as f32 * 0.01,
            id: i,
        })
        .collect();
    let settings = crate::ParticleSettings {
        lifetime: 0.3,
        emit_per_emitter: 25,
        emitters: vec![particles::Emitter::fountain(glam::Vec3::ZERO)],
        ..crate::ParticleSettings::default()
    };
    let params = ParticlesParams {
        initial: &start,
        capacity: 1000,
        settings: settings.clone(),
    };
    let system = crate::Particles::new(gpu, params).map_err(err)?;
    let mut want = start.clone();
    let mut commands = gpu.commands();
    for _ in 0..3 {
        want = particles::cpu::particles_step_cpu(&want, &system.next_step(), &settings.emitters);
        system.record(&mut commands, ParticlesStep).map_err(err)?;
    }
    commands.submit().map_err(err)?;
    want = particles::cpu::particles_step_cpu(&want, &system.next_step(), &settings.emitters);
    system.run(ParticlesStep).map_err(err)?;
    let count = system.count().await.map_err(err)?;
    let mut got = system.read().await.map_err(err)?;
    got.sort_by_key(|p| p.id);
    want.sort_by_key(|p| p.id);
    let ids = |v: &[particles::Particle]| v.iter().map(|p| p.id).collect::<Vec<_>>();
    if count as usize != want.len() || ids(&got) != ids(&want) {
        return Err(format!(
            "{count} particles live, the CPU has {}, or their ids differ",
            want.len()
        ));
    }
    let worst = max_error(got.iter().zip(&want).map(|(g, w)| {
        (g.position - w.position)
            .abs()
            .max((g.velocity - w.velocity).abs())
            .max_element()
    }));
    if worst < 1e-4 {
        Ok(format!(
            "{count} particles after 4 steps: the CPU's ids, states within {worst:.1e}"
        ))
    } else {
        Err(format!("a particle differs from the CPU by {worst}"))
    }
}
