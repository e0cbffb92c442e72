//! Boids flocking (the OpenGL compute-shader lesson's "Compute Shader Boids"), WGSL in `wgsl/boids.wgsl`.
//!
//! The document's flock: 64 work groups of 256 members = 16384 members of `{position, velocity}`
//! (two `vec3` laid out at offsets 0 and 16), double-buffered so one buffer is read while the
//! other is written; four rules with the document's weights (separation below a *squared*
//! distance of 50 with weight 0.18, velocity matching 0.05, the goal 0.17, the flock centre
//! 0.02), timestep 0.4, speed clamped to 10, the new velocity mixed 0.4 with the old one. The
//! goal moves as in the document's `update`, from a time the caller passes, so runs repeat
//! exactly.
//!
//! [`Boids`] runs the document's tiled kernel (shared-memory tiles, two barriers per tile) or
//! the naive kernel that reads every member from memory ([`Variant`]); [`cpu::boids_step_cpu`]
//! is the twin. A step is the [`Record`] operation on [`BoidsStepArgs`]: a frame's steps go
//! into one batch with `record`, one step alone with `run`.
//!
//! ```
//! # fn main() -> Result<(), shoal::Error> {
//! use shoal_kernels::{Boids, BoidsStepArgs, Record, boids};
//! let gpu = shoal::Gpu::blocking()?;
//! // The document's flock is boids::DOCUMENT_FLOCK_SIZE (16384) members; a small one here.
//! let flock = Boids::new(&gpu, &boids::document_flock(512))?;
//! let dt = 1.0 / 60.0;
//! for frame in 0..3 {
//!     flock.run(BoidsStepArgs { time: frame as f32 * dt })?;
//! }
//! let members = flock.read_blocking()?;
//! assert_eq!(members.len(), 512);
//! # Ok(()) }
//! ```

pub mod cpu;

use encase::ShaderType;
use glam::Vec3;
use std::sync::{Mutex, PoisonError};

use shoal::{Buffer, Commands, Error, Family, Gpu, Kernel, Record, Result, Source};

/// Members per work group and per shared-memory tile (the document's `WORKGROUP_SIZE`).
pub const WORKGROUP_SIZE: u32 = 256;

/// The document's flock: `NUM_WORKGROUPS` 64 × `WORKGROUP_SIZE` 256.
pub const DOCUMENT_FLOCK_SIZE: usize = 64 * WORKGROUP_SIZE as usize;

/// One member of the flock, laid out as the document's `FlockMember` (each `vec3` padded to 16).
#[derive(Debug, Clone, Copy, PartialEq, Default, ShaderType)]
pub struct Member {
    /// Where the member is.
    pub position: Vec3,
    /// Where it is going, per unit of time.
    pub velocity: Vec3,
}

/// The rule constants: the document's uniforms, [`Rules::default`] holding its values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rules {
    /// Rule 1 applies when the *squared* distance is below this (the document compares
    /// `dot(d, d)` with 50).
    pub closest_allowed_dist: f32,
    /// Weight of rule 1, keeping apart.
    pub rule1_weight: f32,
    /// Weight of rule 2, matching velocities.
    pub rule2_weight: f32,
    /// Weight of rule 3, flying to the goal.
    pub rule3_weight: f32,
    /// Weight of rule 4, flying to the centre of the flock.
    pub rule4_weight: f32,
    /// The integration step.
    pub timestep: f32,
}

impl Default for Rules {
    fn default() -> Self {
        Self {
            closest_allowed_dist: 50.0,
            rule1_weight: 0.18,
            rule2_weight: 0.05,
            rule3_weight: 0.17,
            rule4_weight: 0.02,
            timestep: 0.4,
        }
    }
}

/// What one step reads besides the flock: the goal and the rules, as the WGSL `Params` uniform.
#[derive(Debug, Clone, Copy, PartialEq, ShaderType)]
pub struct Params {
    /// Where every member tries to fly (rule 3).
    pub goal: Vec3,
    /// See [`Rules::closest_allowed_dist`].
    pub closest_allowed_dist: f32,
    /// See [`Rules::rule1_weight`].
    pub rule1_weight: f32,
    /// See [`Rules::rule2_weight`].
    pub rule2_weight: f32,
    /// See [`Rules::rule3_weight`].
    pub rule3_weight: f32,
    /// See [`Rules::rule4_weight`].
    pub rule4_weight: f32,
    /// See [`Rules::timestep`].
    pub timestep: f32,
}

impl Params {
    /// The parameters of the step at `time`: `rules` and the goal [`goal_at`] `time`.
    pub fn at(time: f32, rules: &Rules) -> Self {
        Self {
            goal: goal_at(time),
            closest_allowed_dist: rules.closest_allowed_dist,
            rule1_weight: rules.rule1_weight,
            rule2_weight: rules.rule2_weight,
            rule3_weight: rules.rule3_weight,
            rule4_weight: rules.rule4_weight,
            timestep: rules.timestep,
        }
    }
}

/// The document's moving goal at `time` (its `update` adds each frame's `dt` to `totalTime`):
/// `(sin 0.34t, cos 0.29t, sin 0.12t · cos 0.5t) × (35, 25, 60)`.
pub fn goal_at(time: f32) -> Vec3 {
    let t = time;
    Vec3::new(
        (t * 0.34).sin(),
        (t * 0.29).cos(),
        (t * 0.12).sin() * (t * 0.5).cos(),
    ) * Vec3::new(35.0, 25.0, 60.0)
}

/// The document's starting flock of `n` members: its `randomFloat` generator (seed 0x13371337),
/// positions uniform in a cube of side 300 about the origin, velocities in a unit cube; x, y, z
/// drawn in that order (C++ leaves the order of constructor arguments open).
pub fn document_flock(n: usize) -> Vec<Member> {
    let mut seed: u32 = 0x1337_1337;
    let mut random_float = move || {
        seed = seed.wrapping_mul(16807);
        let tmp = seed ^ (seed >> 4) ^ (seed << 15);
        f32::from_bits((tmp >> 9) | 0x3F80_0000) - 1.0
    };
    let mut random_vec3 = move || {
        let (x, y, z) = (random_float(), random_float(), random_float());
        Vec3::new(x, y, z) - Vec3::splat(0.5)
    };
    (0..n)
        .map(|_| {
            let position = random_vec3() * 300.0;
            let velocity = random_vec3();
            Member { position, velocity }
        })
        .collect()
}

/// Which kernel a step runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Variant {
    /// The document's kernel: shared-memory tiles of 256 members, two barriers per tile.
    #[default]
    Tiled,
    /// Every member read from the storage buffer by every invocation: the baseline.
    Naive,
}

impl Variant {
    /// Both kernels, in the order [`Boids`] compiles them.
    pub const ALL: [Variant; 2] = [Variant::Tiled, Variant::Naive];

    /// The entry point of `wgsl/boids.wgsl` this kernel is.
    pub fn entry(self) -> &'static str {
        match self {
            Variant::Tiled => "boids_tiled",
            Variant::Naive => "boids_naive",
        }
    }
}

/// The source [`Boids::new`] compiles, `wgsl/boids.wgsl`: one module holding both kernels
/// ([`Variant::entry`]), each compiled with `WG` = [`WORKGROUP_SIZE`]. The rules and the goal
/// are a uniform, so no choice of the flock's changes the text.
pub fn source() -> Source {
    shoal::wgsl!("../wgsl/boids.wgsl")
}

/// A flock on the GPU: both kernels and the two member buffers.
#[derive(Debug)]
pub struct Boids {
    gpu: Gpu,
    tiled: Kernel,
    naive: Kernel,
    flock: [Buffer<Member>; 2],
    /// The buffer holding the latest state. A step advances it, and `Record::record` takes
    /// `&self` (a batch is recorded without borrowing the family mutably, and the family stays
    /// `Sync`): the lock is held for the whole step, so two steps recorded at once from two
    /// threads read and write different buffers in turn.
    current: Mutex<usize>,
    rules: Rules,
    variant: Variant,
}

impl Boids {
    /// Compiles both kernels and uploads `members`, whose number must be a nonzero multiple of
    /// [`WORKGROUP_SIZE`] (every tile full, as in the document). Every member visits every other
    /// in a loop, so where the device ends loops past a budget ([`Gpu::loop_iteration_budget`]:
    /// llvmpipe) a flock too large for it is [`Error::InvalidParameter`] (at most 65,024 members
    /// there). Its kernels are compiled here, so there is nothing to `prepare`.
    pub fn new(gpu: &Gpu, members: &[Member]) -> Result<Self> {
        Self::from_source(gpu, source(), members)
    }

    /// A flock like [`Boids::new`] whose kernels are compiled from `source`, an edited copy of
    /// `wgsl/boids.wgsl` with the same entry points and bindings (hot reload). A WGSL error is
    /// [`Error::Wgsl`] naming the source's file and line.
    pub fn from_source(gpu: &Gpu, source: impl Into<Source>, members: &[Member]) -> Result<Self> {
        let n = members.len() as u64;
        let wg = WORKGROUP_SIZE as u64;
        if n == 0 || !n.is_multiple_of(wg) {
            return Err(Error::Length {
                what: format!(
                    "boids: the flock must be a nonzero multiple of the work-group size {wg} members"
                ),
                expected: n.div_ceil(wg).max(1) * wg,
                got: n,
            });
        }
        // The tiled kernel's loops: n / WG tiles of WG members, each inner loop entered once
        // per tile (counted as one more trip); the naive kernel's n trips are fewer.
        if let Some(budget) = gpu.loop_iteration_budget() {
            let trips = n + 2 * (n / wg);
            if trips > budget as u64 {
                let most = (budget as u64 * wg / (wg + 2)) / wg * wg;
                return Err(Error::InvalidParameter {
                    kernel: "Boids".into(),
                    parameter: "the flock's size".into(),
                    value: format!("{n} members"),
                    rule: format!(
                        "at most {most} members on this adapter: it ends a kernel's loops after \
                         {budget} iterations per invocation, and each member visits every other"
                    ),
                });
            }
        }
        let [tiled, naive] = Self::compile(gpu, &source.into())?;
        let flock = [gpu.buffer_from(members)?, gpu.buffer_zeroed(n)?];
        let rules = Rules::default();
        Ok(Self {
            gpu: gpu.clone(),
            tiled,
            naive,
            flock,
            current: Mutex::new(0),
            rules,
            variant: Variant::Tiled,
        })
    }

    fn compile(gpu: &Gpu, source: &Source) -> Result<[Kernel; 2]> {
        let build = |variant: Variant| {
            gpu.kernel_builder(source.clone())
                .entry(variant.entry())
                .constant("WG", WORKGROUP_SIZE)
                .build()
        };
        let [tiled, naive] = Variant::ALL;
        Ok([build(tiled)?, build(naive)?])
    }

    /// Recompiles both kernels from `source` (an edited `wgsl/boids.wgsl`), keeping the flock.
    /// On an error the old kernels stay.
    pub fn set_source(&mut self, source: impl Into<Source>) -> Result<()> {
        [self.tiled, self.naive] = Self::compile(&self.gpu, &source.into())?;
        Ok(())
    }

    /// Replaces the rule constants (the defaults are the document's). Every constant must be
    /// finite, the distance and the weights not negative and the timestep positive; otherwise
    /// [`Error::InvalidParameter`] names the constant and the rules in use stay.
    pub fn set_rules(&mut self, rules: Rules) -> Result<()> {
        let r = &rules;
        let checks = [
            ("closest_allowed_dist", r.closest_allowed_dist, 0.0),
            ("rule1_weight", r.rule1_weight, 0.0),
            ("rule2_weight", r.rule2_weight, 0.0),
            ("rule3_weight", r.rule3_weight, 0.0),
            ("rule4_weight", r.rule4_weight, 0.0),
            ("timestep", r.timestep, f32::MIN_POSITIVE),
        ];
        if let Some((name, value, min)) = checks
            .into_iter()
            .find(|&(_, v, min)| !(v.is_finite() && v >= min))
        {
            return Err(Error::InvalidParameter {
                kernel: "Boids".into(),
                parameter: name.into(),
                value: value.to_string(),
                rule: if min > 0.0 {
                    "must be a finite number > 0".into()
                } else {
                    "must be a finite number >= 0".into()
                },
            });
        }
        self.rules = rules;
        Ok(())
    }

    /// The rule constants in use.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Chooses the kernel the next steps run.
    pub fn set_variant(&mut self, variant: Variant) {
        self.variant = variant;
    }

    /// Members in the flock.
    pub fn len(&self) -> u64 {
        self.flock[0].len()
    }

    /// Whether the flock is empty (never: [`Boids::new`] refuses an empty flock).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The buffer holding the latest state (to draw it as instance data, say).
    pub fn members(&self) -> &Buffer<Member> {
        // A poisoned lock still holds a valid index: it is written only after a step recorded.
        let current = *self.current.lock().unwrap_or_else(PoisonError::into_inner);
        &self.flock[current]
    }

    /// Overwrites the flock (same number of members).
    pub fn write(&mut self, members: &[Member]) -> Result<()> {
        if members.len() as u64 != self.len() {
            return Err(Error::Length {
                what: "boids: writing the flock".into(),
                expected: self.len(),
                got: members.len() as u64,
            });
        }
        let current = *self
            .current
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner);
        self.flock[current].write(members)
    }

    /// Reads the latest state back.
    pub async fn read(&self) -> Result<Vec<Member>> {
        self.members().read().await
    }

    /// Reads the latest state back, blocking (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn read_blocking(&self) -> Result<Vec<Member>> {
        pollster::block_on(self.read())
    }
}

/// One step of the flock.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoidsStepArgs {
    /// The time the goal is at ([`goal_at`]); finite.
    pub time: f32,
}

impl Family for Boids {
    fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The tiled kernel, then the naive one.
    fn kernels(&self) -> Vec<&Kernel> {
        vec![&self.tiled, &self.naive]
    }
}

impl Record<BoidsStepArgs> for Boids {
    /// Records one step, with the goal at `time`, and makes its output the latest state.
    ///
    /// The step's parameters go into a small uniform of its own, so several steps recorded into
    /// one batch (or batches recorded before an earlier one is submitted) each keep their goal.
    /// A `time` that is not finite is [`Error::InvalidParameter`]: the goal would be NaN, and
    /// every member with it for good.
    fn record(&self, commands: &mut Commands, args: BoidsStepArgs) -> Result<()> {
        let time = args.time;
        let commands = &mut commands.labelled("boids");
        if !time.is_finite() {
            return Err(Error::InvalidParameter {
                kernel: "Boids".into(),
                parameter: "time".into(),
                value: time.to_string(),
                rule: "must be finite: the goal moves with it (goal_at)".into(),
            });
        }
        let params = self.gpu.uniform(&Params::at(time, &self.rules))?;
        let kernel = match self.variant {
            Variant::Tiled => &self.tiled,
            Variant::Naive => &self.naive,
        };
        let groups = (self.len() / WORKGROUP_SIZE as u64) as u32;
        let mut current = self.current.lock().map_err(|_| crate::wgsl::poisoned())?;
        let (read, write) = (&self.flock[*current], &self.flock[1 - *current]);
        kernel
            .bind("members_in", read)
            .bind("members_out", write)
            .bind("params", &params)
            .groups([groups, 1, 1])
            .record(commands)?;
        *current = 1 - *current;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
