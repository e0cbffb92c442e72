//! Structs checked field by field: `#[derive(shoal::Element)]` records each field's name, offset
//! and type, and binding a buffer of it to a WGSL struct compares them with naga's members by
//! name. The particle of the issue that asked for it, with its fields swapped, missing, extra,
//! renamed and retyped: the stride check alone passed the first two.

use shoal::glam::Vec2;
use shoal::{Error, Gpu};

use crate::gpu_test;

const STEP: &str = "
struct Particle { pos: vec2<f32>, vel: vec2<f32>, life: u32, generation: u32 }
@group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
@compute @workgroup_size(64)
fn step(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&particles) { return; }
    var p = particles[id.x];
    p.pos += p.vel;
    p.life -= 1u;
    p.generation += 1u;
    particles[id.x] = p;
}";

/// The Rust twin of the WGSL `Particle`, field for field.
#[derive(shoal::Element, Clone, Copy, Debug, PartialEq)]
struct Particle {
    pos: Vec2,
    vel: Vec2,
    life: u32,
    generation: u32,
}

/// The mistakes, each a struct a user could write for the WGSL `Particle`.
mod wrong {
    use shoal::glam::Vec2;

    /// `generation` before `life`: the same stride, so the stride check passed it.
    #[derive(shoal::Element, Clone, Copy)]
    pub(super) struct Swapped {
        pub(super) pos: Vec2,
        pub(super) vel: Vec2,
        pub(super) generation: u32,
        pub(super) life: u32,
    }

    /// No `generation`: 20 bytes, which round to WGSL's 24-byte stride.
    #[derive(shoal::Element, Clone, Copy)]
    pub(super) struct Missing {
        pub(super) pos: Vec2,
        pub(super) vel: Vec2,
        pub(super) life: u32,
    }

    /// An `age` the WGSL does not have.
    #[derive(shoal::Element, Clone, Copy)]
    pub(super) struct Extra {
        pub(super) pos: Vec2,
        pub(super) vel: Vec2,
        pub(super) life: u32,
        pub(super) generation: u32,
        pub(super) age: u32,
    }

    /// `lifetime` where the WGSL says `life`.
    #[derive(shoal::Element, Clone, Copy)]
    pub(super) struct Renamed {
        pub(super) pos: Vec2,
        pub(super) vel: Vec2,
        pub(super) lifetime: u32,
        pub(super) generation: u32,
    }

    /// `life` as a float.
    #[derive(shoal::Element, Clone, Copy)]
    pub(super) struct Retyped {
        pub(super) pos: Vec2,
        pub(super) vel: Vec2,
        pub(super) life: f32,
        pub(super) generation: u32,
    }
}

fn particles(n: usize) -> Vec<Particle> {
    (0..n)
        .map(|i| Particle {
            pos: Vec2::new(i as f32, -(i as f32)),
            vel: Vec2::new(0.5, (i % 7) as f32),
            life: 10 + i as u32,
            generation: (i % 3) as u32,
        })
        .collect()
}

/// The CPU twin of `step`.
fn step(p: Particle) -> Particle {
    Particle {
        pos: p.pos + p.vel,
        life: p.life.wrapping_sub(1),
        generation: p.generation.wrapping_add(1),
        ..p
    }
}

/// Binds `items` to `particles` and returns the error, which must be a `StructField` naming
/// `member` and every one of `words`.
fn refused<T: shoal::Element>(gpu: &Gpu, items: &[T], member: &str, words: &[&str]) {
    let k = gpu
        .kernel(shoal::Source::new("particles.wgsl", STEP))
        .expect("kernel");
    let buffer = gpu.buffer_from(items).expect("buffer");
    let e = k
        .bind("particles", &buffer)
        .invocations(items.len() as u64)
        .run()
        .expect_err("a struct that differs from the WGSL's");
    assert!(
        matches!(&e, Error::StructField(m) if m.member == member && m.wgsl_struct == "Particle"
            && m.binding == "particles" && m.kernel == "particles.wgsl:step"),
        "{e:?}"
    );
    let message = e.to_string();
    for word in words {
        assert!(message.contains(word), "`{message}` should say `{word}`");
    }
}

gpu_test! {
    async fn a_derived_struct_that_matches_runs(gpu) {
    let k = gpu.kernel(shoal::Source::new("particles.wgsl", STEP)).expect("kernel");
    for n in [1usize, 2, 63, 64, 65, 100, 257] {
        let start = particles(n);
        let buffer = gpu.buffer_from(&start).expect("buffer");
        k.bind("particles", &buffer).invocations(n as u64).run().expect("step");
        let got = buffer.read().await.expect("read");
        let want: Vec<Particle> = start.into_iter().map(step).collect();
        assert_eq!(got, want, "{n} particles");
    }
    }

    async fn swapped_missing_extra_renamed_and_retyped_fields_are_errors(gpu) {
    let (pos, vel) = (Vec2::ONE, Vec2::ZERO);
    let swapped = wrong::Swapped { pos, vel, generation: 0, life: 1 };
    refused(&gpu, &[swapped; 3], "life", &["`u32` at byte 16", "`u32` at byte 20", "Swapped", "order"]);
    let missing = wrong::Missing { pos, vel, life: 1 };
    refused(&gpu, &[missing; 3], "generation", &["`u32` at byte 20", "missing", "add a field `generation`"]);
    let extra = wrong::Extra { pos, vel, life: 1, generation: 0, age: 2 };
    refused(&gpu, &[extra; 3], "age", &["no member of that name", "`u32` at byte 24", "remove the field `age`"]);
    let renamed = wrong::Renamed { pos, vel, lifetime: 1, generation: 0 };
    refused(&gpu, &[renamed; 3], "life", &["field `lifetime`", "rename the field `lifetime` to `life`"]);
    let retyped = wrong::Retyped { pos, vel, life: 1.0, generation: 0 };
    refused(&gpu, &[retyped; 3], "life", &["`u32` at byte 16", "`f32` at byte 16", "Retyped"]);
    }

    async fn a_uniform_struct_is_checked_by_its_members(gpu) {
    #[derive(shoal::Element, Clone, Copy)]
    struct Params { count: u32, scale: f32 }
    let k = gpu
        .kernel(shoal::Source::new(
            "scale.wgsl",
            "struct Params { scale: f32, count: u32 }
            @group(0) @binding(0) var<uniform> params: Params;
            @group(0) @binding(1) var<storage, read_write> out: array<f32>;
            @compute @workgroup_size(64)
            fn scale(@builtin(global_invocation_id) id: vec3<u32>) {
                if id.x < params.count { out[id.x] = params.scale * f32(id.x); }
            }",
        ))
        .expect("kernel");
    let params = gpu.uniform(&Params { count: 3, scale: 2.0 }).expect("uniform");
    let out = gpu.buffer_zeroed::<f32>(3).expect("out");
    let e = k.bind("params", &params).bind("out", &out).invocations(3).run().expect_err("swapped");
    assert!(matches!(&e, Error::StructField(m) if m.member == "scale" && m.wgsl_struct == "Params"), "{e:?}");
    }
}
