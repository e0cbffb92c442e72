// Boids flocking (the OpenGL compute-shader lesson's "Compute Shader Boids"): every member of the flock reads every other
// member once per step, so the step is O(N²). `boids_tiled` is the document's kernel: a work
// group copies one tile of WG members into shared memory, waits, lets every invocation run the
// two intra-member rules over the tile, waits again, and moves to the next tile. `boids_naive`
// is the same arithmetic reading every member straight from the storage buffer, the baseline
// that shows what the shared tile buys.
//
// Both visit the members in index order and add in the same order as the CPU twin
// (`crates/shoal-kernels/src/boids/cpu.rs`), so the three differ only by rounding.

// Members of one tile: the document's local_size_x = 256 (WebGPU allows 256, so it fits everywhere).
override WG: u32 = 256;

// The document's speed clamp and low-pass mix are literals in its shader, not uniforms.
const MAX_SPEED: f32 = 10.0;
const VELOCITY_MIX: f32 = 0.4;

// The document's `flock_member`: two vec3 at offsets 0 and 16 (std430 and WGSL agree), 32 bytes.
struct Member {
    position: vec3<f32>,
    velocity: vec3<f32>,
}

// The document's uniforms, with the goal the host computes from the caller's time.
struct Params {
    goal: vec3<f32>,
    closest_allowed_dist: f32,
    rule1_weight: f32,
    rule2_weight: f32,
    rule3_weight: f32,
    rule4_weight: f32,
    timestep: f32,
}

@group(0) @binding(0) var<storage, read> members_in: array<Member>;
@group(0) @binding(1) var<storage, read_write> members_out: array<Member>;
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> sh_members: array<Member, WG>;

// Rule 1: keep away from members that are too close. The document compares the *squared*
// distance with closest_allowed_dist (50), so members closer than √50 ≈ 7.07 push apart.
fn rule1(my_position: vec3<f32>, their_position: vec3<f32>) -> vec3<f32> {
    let d = my_position - their_position;
    if dot(d, d) < params.closest_allowed_dist {
        return d;
    }
    return vec3<f32>(0.0);
}

// Rule 2: match the velocity of the others, weighted by the inverse squared distance; the 10
// keeps the denominator from getting small.
fn rule2(my_position: vec3<f32>, my_velocity: vec3<f32>, their_position: vec3<f32>, their_velocity: vec3<f32>) -> vec3<f32> {
    let d = their_position - my_position;
    let dv = their_velocity - my_velocity;
    return dv / (dot(d, d) + 10.0);
}

// Rules 3 and 4 (goal and flock centre), the speed clamp and the mix with the old velocity.
fn finish(me: Member, acceleration_in: vec3<f32>, flock_center_sum: vec3<f32>, n: u32) -> Member {
    var acceleration = acceleration_in;
    let flock_center = flock_center_sum / f32(n);
    var new_me: Member;
    new_me.position = me.position + me.velocity * params.timestep;
    acceleration += normalize(params.goal - me.position) * params.rule3_weight;
    acceleration += normalize(flock_center - me.position) * params.rule4_weight;
    new_me.velocity = me.velocity + acceleration * params.timestep;
    if length(new_me.velocity) > MAX_SPEED {
        new_me.velocity = normalize(new_me.velocity) * MAX_SPEED;
    }
    new_me.velocity = mix(me.velocity, new_me.velocity, VELOCITY_MIX);
    return new_me;
}

// Dispatched as N / WG groups of WG; the host checks that N is a multiple of WG, so every
// invocation owns a member and every tile is full (no bound checks, barriers stay uniform).
@compute @workgroup_size(WG)
fn boids_tiled(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let global_id = gid.x;
    let local_id = lid.x;
    let n = arrayLength(&members_in);
    let me = members_in[global_id];
    var acceleration = vec3<f32>(0.0);
    var flock_center = vec3<f32>(0.0);
    for (var i = 0u; i < n / WG; i++) {
        sh_members[local_id] = members_in[i * WG + local_id];
        // Every member of the tile is in shared memory before anyone reads it.
        workgroupBarrier();
        for (var j = 0u; j < WG; j++) {
            let them = sh_members[j];
            flock_center += them.position;
            if i * WG + j != global_id {
                acceleration += rule1(me.position, them.position) * params.rule1_weight;
                acceleration += rule2(me.position, me.velocity, them.position, them.velocity) * params.rule2_weight;
            }
        }
        // Nobody overwrites the tile while another invocation still reads it.
        workgroupBarrier();
    }
    members_out[global_id] = finish(me, acceleration, flock_center, n);
}

// The baseline: the same sums, every member read from the storage buffer by every invocation.
@compute @workgroup_size(WG)
fn boids_naive(@builtin(global_invocation_id) gid: vec3<u32>) {
    let global_id = gid.x;
    let n = arrayLength(&members_in);
    let me = members_in[global_id];
    var acceleration = vec3<f32>(0.0);
    var flock_center = vec3<f32>(0.0);
    for (var k = 0u; k < n; k++) {
        let them = members_in[k];
        flock_center += them.position;
        if k != global_id {
            acceleration += rule1(me.position, them.position) * params.rule1_weight;
            acceleration += rule2(me.position, me.velocity, them.position, them.velocity) * params.rule2_weight;
        }
    }
    members_out[global_id] = finish(me, acceleration, flock_center, n);
}
