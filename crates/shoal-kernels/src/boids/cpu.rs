//! The CPU twin of `wgsl/boids.wgsl`: the same rules, in f32, summed in the same order (member
//! 0, 1, 2, …), to be read beside the WGSL.

use glam::Vec3;

use super::{Member, Params};

/// The document's speed clamp.
const MAX_SPEED: f32 = 10.0;
/// The document's mix of the new velocity with the old.
const VELOCITY_MIX: f32 = 0.4;

fn rule1(my_position: Vec3, their_position: Vec3, params: &Params) -> Vec3 {
    let d = my_position - their_position;
    if d.dot(d) < params.closest_allowed_dist {
        d
    } else {
        Vec3::ZERO
    }
}

fn rule2(my_position: Vec3, my_velocity: Vec3, their_position: Vec3, their_velocity: Vec3) -> Vec3 {
    let d = their_position - my_position;
    let dv = their_velocity - my_velocity;
    dv / (d.dot(d) + 10.0)
}

/// The new state of member `global_id` after one step (what one invocation of either kernel
/// writes).
pub fn boids_member_cpu(members_in: &[Member], global_id: usize, params: &Params) -> Member {
    let me = members_in[global_id];
    let mut acceleration = Vec3::ZERO;
    let mut flock_center = Vec3::ZERO;
    for (k, them) in members_in.iter().enumerate() {
        flock_center += them.position;
        if k != global_id {
            acceleration += rule1(me.position, them.position, params) * params.rule1_weight;
            acceleration +=
                rule2(me.position, me.velocity, them.position, them.velocity) * params.rule2_weight;
        }
    }
    let flock_center = flock_center / members_in.len() as f32;
    let position = me.position + me.velocity * params.timestep;
    acceleration += (params.goal - me.position).normalize() * params.rule3_weight;
    acceleration += (flock_center - me.position).normalize() * params.rule4_weight;
    let mut velocity = me.velocity + acceleration * params.timestep;
    if velocity.length() > MAX_SPEED {
        velocity = velocity.normalize() * MAX_SPEED;
    }
    // GLSL/WGSL `mix(a, b, t)` is `a·(1 − t) + b·t`.
    let velocity = me.velocity * (1.0 - VELOCITY_MIX) + velocity * VELOCITY_MIX;
    Member { position, velocity }
}

/// One step of the whole flock.
pub fn boids_step_cpu(members_in: &[Member], params: &Params) -> Vec<Member> {
    (0..members_in.len())
        .map(|i| boids_member_cpu(members_in, i, params))
        .collect()
}
