// Append/consume particles (the Direct3D 12 book, §13.5), then beyond the book: an age that makes particles
// die and emitters that append new ones.
//
// `particles_update` is the document's CS: each invocation consumes one particle from
// `particles_in`, integrates it (v += a·dt; p += v·dt) and appends it to `particles_out`, in no
// particular order; particles whose age reaches the lifetime are not appended. It is dispatched
// indirectly from the input's count (written on the GPU just before, no readback); surplus
// invocations of the last group find nothing to consume. `particles_emit` then appends
// `emit_per_emitter` new particles per emitter, each with an id and a velocity jitter hashed
// from that id, so the CPU twin makes the very same ones.

#import shoal::append(particles_in, Particle)
#import shoal::append(particles_out, Particle)
#import shoal::fold

override WG: u32 = 64;

// The document's Particle {Position, Velocity, Acceleration}, plus the age and an id that
// lets tests check that no particle is lost or duplicated.
struct Particle {
    position: vec3<f32>,
    velocity: vec3<f32>,
    acceleration: vec3<f32>,
    age: f32,
    id: u32,
}

struct Step {
    // The document's TimeStep, 1/60 by default.
    dt: f32,
    lifetime: f32,
    // The id of this step's first emitted particle.
    first_id: u32,
    emit_per_emitter: u32,
}

struct Emitter {
    position: vec3<f32>,
    velocity: vec3<f32>,
    acceleration: vec3<f32>,
    // Each component of an emitted velocity is jittered by up to ± spread.
    spread: f32,
}

@group(0) @binding(0) var<storage, read_write> particles_in: ShoalAppend_particles_in;
@group(0) @binding(1) var<storage, read_write> particles_out: ShoalAppend_particles_out;
@group(0) @binding(2) var<uniform> step: Step;
@group(0) @binding(3) var<storage, read> emitters: array<Emitter>;

@compute @workgroup_size(WG)
fn particles_update() {
    var p: Particle;
    if particles_in_consume(&p) {
        p.velocity += p.acceleration * step.dt;
        p.position += p.velocity * step.dt;
        p.age += step.dt;
        if p.age < step.lifetime {
            particles_out_append(p);
        }
    }
}

// A 32-bit integer hash (lowbias32): the same bits on every GPU and on the CPU.
fn hash(x: u32) -> u32 {
    var v = x;
    v ^= v >> 16u;
    v *= 0x7feb352du;
    v ^= v >> 15u;
    v *= 0x846ca68bu;
    v ^= v >> 16u;
    return v;
}

// A float in [0, 1) from the hash's top 24 bits (exact in f32).
fn unit(x: u32) -> f32 {
    return f32(hash(x) >> 8u) / 16777216.0;
}

// Its index is rebuilt from the work group (`shoal_linear_index`): past 65,535 groups (4,194,240
// particles a step with WG = 64) `.invocations` folds them over y.
@compute @workgroup_size(WG)
fn particles_emit(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) lidx: u32) {
    let k = shoal_linear_index(wid, nwg, lidx, WG);
    if k >= arrayLength(&emitters) * step.emit_per_emitter {
        return;
    }
    let e = emitters[k / step.emit_per_emitter];
    let id = step.first_id + k;
    let jitter = vec3<f32>(unit(3u * id), unit(3u * id + 1u), unit(3u * id + 2u)) * 2.0 - 1.0;
    var p: Particle;
    p.position = e.position;
    p.velocity = e.velocity + e.spread * jitter;
    p.acceleration = e.acceleration;
    p.age = 0.0;
    p.id = id;
    particles_out_append(p);
}
