use shoal_conformance::gpu_test;

use super::cpu::particles_step_cpu;
use super::*;

/// `n` particles with ids 0..n, spread-out states and ages.
fn initial(n: u32) -> Vec<Particle> {
    (0..n)
        .map(|i| {
            let f = i as f32;
            Particle {
                position: Vec3::new((f * 0.37).sin() * 10.0, (f * 0.11).cos() * 5.0, f * 0.01),
                velocity: Vec3::new((f * 0.7).cos(), 2.0 + (f * 0.3).sin(), -0.5),
                acceleration: Vec3::new(0.0, -9.8, 0.1 * (f * 0.05).sin()),
                age: (i % 50) as f32 * 0.01,
                id: i,
            }
        })
        .collect()
}

/// Sorts by id, and checks the ids are distinct (none duplicated).
fn by_id(mut v: Vec<Particle>) -> Vec<Particle> {
    v.sort_by_key(|p| p.id);
    assert!(
        v.windows(2).all(|w| w[0].id < w[1].id),
        "a particle was duplicated"
    );
    v
}

async fn run_against_cpu(
    gpu: &Gpu,
    start: Vec<Particle>,
    capacity: u64,
    settings: ParticleSettings,
    batches: &[u32],
) {
    let particles = Particles::new(
        gpu,
        ParticlesParams {
            initial: &start,
            capacity,
            settings: settings.clone(),
        },
    )
    .expect("particles");
    let mut want = by_id(start);
    for &steps in batches {
        // The GPU's steps of this batch, one by one on the CPU, each with its own first id.
        let emitted = settings.emitters.len() as u32 * settings.emit_per_emitter;
        let first = particles.next_step();
        for s in 0..steps {
            want = particles_step_cpu(
                &want,
                &Step {
                    first_id: first.first_id + s * emitted,
                    ..first
                },
                &settings.emitters,
            );
        }
        let mut commands = gpu.commands();
        for _ in 0..steps {
            particles
                .record(&mut commands, ParticlesStep)
                .expect("record");
        }
        commands.submit().expect("submit");
        let count = particles.count().await.expect("count");
        let got = by_id(particles.read().await.expect("read"));
        assert_eq!(
            count as usize,
            want.len(),
            "count after {} particles expected",
            want.len()
        );
        let got_ids: Vec<u32> = got.iter().map(|p| p.id).collect();
        let want_ids: Vec<u32> = want.iter().map(|p| p.id).collect();
        assert_eq!(
            got_ids, want_ids,
            "the same particles live (none lost, none duplicated)"
        );
        for (g, w) in got.iter().zip(&want) {
            let e = (g.position - w.position)
                .abs()
                .max_element()
                .max((g.velocity - w.velocity).abs().max_element());
            // A few f32 multiply-adds per step; the GPU may fuse them.
            assert!(
                e < 1e-4 && g.age == w.age && g.acceleration == w.acceleration,
                "particle {}: gpu {g:?} cpu {w:?}",
                g.id
            );
        }
    }
}

gpu_test! {
    /// The document's update alone: nothing dies, nothing is born, 10 steps in two batches.
    async fn document_update_matches_cpu(gpu) {
        run_against_cpu(&gpu, initial(1000), 1000, ParticleSettings::default(), &[1, 9]).await;
    }

    /// Ages, deaths and two emitters over 12 steps: the live set and every state match the CPU.
    async fn births_and_deaths_match_cpu(gpu) {
        let settings = ParticleSettings {
            lifetime: 0.1,
            emit_per_emitter: 37,
            emitters: vec![Emitter::fountain(Vec3::ZERO), Emitter::fountain(Vec3::new(5.0, 0.0, 0.0))],
            ..ParticleSettings::default()
        };
        run_against_cpu(&gpu, initial(777), 2000, settings, &[3, 1, 8]).await;
    }

    /// An empty start with emitters fills up step by step; a count of zero dispatches nothing.
    async fn empty_start(gpu) {
        let settings = ParticleSettings { emit_per_emitter: 5, emitters: vec![Emitter::fountain(Vec3::ZERO)], ..ParticleSettings::default() };
        run_against_cpu(&gpu, Vec::new(), 100, settings, &[1, 4]).await;
    }

    /// Emitting past the capacity is reported as a typed overflow, not lost silently.
    async fn overflow_is_reported(gpu) {
        let settings = ParticleSettings { emit_per_emitter: 30, emitters: vec![Emitter::fountain(Vec3::ZERO)], ..ParticleSettings::default() };
        let particles = Particles::new(&gpu, ParticlesParams { initial: &initial(50), capacity: 64, settings }).expect("particles");
        particles.run(ParticlesStep).expect("step");
        match particles.count().await {
            Err(Error::AppendOverflow { capacity, attempted, .. }) => assert_eq!((capacity, attempted), (64, 80)),
            other => panic!("expected AppendOverflow, got {other:?}"),
        }
    }

    /// Both kernels survive `.invocations`' fold past 65,535 work groups (4,194,240 particles a
    /// step): the emission rebuilt its index from `gid.x` alone, and would have emitted some
    /// particles twice and others never there (now refused by Shoal for such a kernel).
    async fn both_kernels_can_be_folded(gpu) {
        let [update, emit] = Particles::compile(&gpu, &shoal::wgsl!("../../wgsl/particles.wgsl"), 64).expect("kernels");
        assert!(update.reflection().fold_safe, "particles_update");
        assert!(emit.reflection().fold_safe, "particles_emit");
    }

    /// Two emitters of `u32::MAX` particles each: the per-step count overflowed a u32 (a panic
    /// in debug) and would have been a dispatch of billions of invocations. More than the
    /// capacity per step is refused when the system is made.
    async fn emission_counts_near_u32_max_are_refused(gpu) {
        for (emitters, per) in [(2, u32::MAX), (1, u32::MAX), (3, 30)] {
            let settings = ParticleSettings { emit_per_emitter: per, emitters: vec![Emitter::fountain(Vec3::ZERO); emitters], ..ParticleSettings::default() };
            let e = Particles::new(&gpu, ParticlesParams { initial: &[], capacity: 64, settings }).expect_err("more than the capacity per step");
            assert!(matches!(&e, Error::InvalidParameter { parameter, .. } if parameter == "emit_per_emitter"), "{e}");
            assert!(e.to_string().contains("capacity of 64"), "{e}");
        }
    }
}
