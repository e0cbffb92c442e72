//! The CPU twin of `wgsl/particles.wgsl`: the same update, deaths and emissions. Order is not
//! part of the result (append/consume buffers keep none), so the twin returns the particles in
//! the order of their ids.

use glam::Vec3;

use super::{Emitter, Particle, Step};

fn hash(x: u32) -> u32 {
    let mut v = x;
    v ^= v >> 16;
    v = v.wrapping_mul(0x7feb_352d);
    v ^= v >> 15;
    v = v.wrapping_mul(0x846c_a68b);
    v ^= v >> 16;
    v
}

fn unit(x: u32) -> f32 {
    (hash(x) >> 8) as f32 / 16_777_216.0
}

/// One step: every particle integrated and aged (those reaching the lifetime dropped), then
/// the emitted ones added.
pub fn particles_step_cpu(
    particles: &[Particle],
    step: &Step,
    emitters: &[Emitter],
) -> Vec<Particle> {
    let mut out: Vec<Particle> = particles
        .iter()
        .filter_map(|p| {
            let mut p = *p;
            p.velocity += p.acceleration * step.dt;
            p.position += p.velocity * step.dt;
            p.age += step.dt;
            (p.age < step.lifetime).then_some(p)
        })
        .collect();
    for k in 0..emitters.len() as u32 * step.emit_per_emitter {
        let e = &emitters[(k / step.emit_per_emitter) as usize];
        let id = step.first_id.wrapping_add(k);
        let jitter = Vec3::new(unit(3 * id), unit(3 * id + 1), unit(3 * id + 2)) * 2.0 - Vec3::ONE;
        out.push(Particle {
            position: e.position,
            velocity: e.velocity + e.spread * jitter,
            acceleration: e.acceleration,
            age: 0.0,
            id,
        });
    }
    out.sort_by_key(|p| p.id);
    out
}
