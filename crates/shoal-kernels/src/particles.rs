//! Append/consume particles (the Direct3D 12 book, §13.5), WGSL in `wgsl/particles.wgsl`.
//!
//! Each step consumes every particle from one [`AppendBuffer`] and appends it, integrated with
//! the document's update (`v += a·dt; p += v·dt`, dt = 1/60 by default), to the other; the two
//! then swap. Beyond the document, particles age and die at a lifetime, and emitters append new
//! ones. The update is dispatched indirectly from the count the GPU holds, so a batch of many
//! steps runs without a readback.
//!
//! ```
//! # fn main() -> Result<(), shoal::Error> {
//! use shoal_kernels::particles::Emitter;
//! use shoal_kernels::{ParticleSettings, Particles, ParticlesParams, ParticlesStep, Record};
//! let gpu = shoal::Gpu::blocking()?;
//! let settings = ParticleSettings {
//!     lifetime: 2.0,
//!     emit_per_emitter: 100,
//!     emitters: vec![Emitter::fountain(shoal::glam::Vec3::ZERO)],
//!     ..ParticleSettings::default()
//! };
//! let params = ParticlesParams { initial: &[], capacity: 2_000, settings };
//! let particles = Particles::new(&gpu, params)?;
//! let mut commands = gpu.commands();
//! for _ in 0..10 {
//!     particles.record(&mut commands, ParticlesStep)?;
//! }
//! commands.submit()?;
//! println!("{} particles alive", particles.count_blocking()?);
//! # Ok(()) }
//! ```

pub mod cpu;

use encase::ShaderType;
use glam::Vec3;
use std::sync::{Mutex, PoisonError};

use shoal::{
    AppendBuffer, Buffer, Commands, DispatchArgs, Error, Family, Gpu, Kernel, Record, Result,
    Source, Usage,
};

/// The document's time step.
pub const DOCUMENT_TIME_STEP: f32 = 1.0 / 60.0;

/// A particle: the document's {position, velocity, acceleration}, plus its age and an id.
#[derive(Debug, Clone, Copy, PartialEq, Default, ShaderType)]
pub struct Particle {
    /// Where it is.
    pub position: Vec3,
    /// Its velocity.
    pub velocity: Vec3,
    /// Its constant acceleration.
    pub acceleration: Vec3,
    /// Time lived; it dies when this reaches the lifetime.
    pub age: f32,
    /// A unique number (emitted particles get the next free ones).
    pub id: u32,
}

/// A source of new particles.
#[derive(Debug, Clone, Copy, PartialEq, ShaderType)]
pub struct Emitter {
    /// Where new particles start.
    pub position: Vec3,
    /// Their mean velocity.
    pub velocity: Vec3,
    /// Their acceleration.
    pub acceleration: Vec3,
    /// Each velocity component is jittered by up to ± this.
    pub spread: f32,
}

impl Emitter {
    /// A fountain at `position`: upwards at 5 units/s, ±1.5 jitter, gravity.
    pub fn fountain(position: Vec3) -> Self {
        Self {
            position,
            velocity: Vec3::new(0.0, 5.0, 0.0),
            acceleration: Vec3::new(0.0, -9.8, 0.0),
            spread: 1.5,
        }
    }
}

/// What one step reads: the WGSL `Step` uniform.
#[derive(Debug, Clone, Copy, PartialEq, ShaderType)]
pub struct Step {
    /// The time step.
    pub dt: f32,
    /// Particles whose age reaches this die.
    pub lifetime: f32,
    /// The id of the step's first emitted particle.
    pub first_id: u32,
    /// New particles per emitter per step.
    pub emit_per_emitter: u32,
}

/// How the particles live.
#[derive(Debug, Clone, PartialEq)]
pub struct ParticleSettings {
    /// The time step (the document's 1/60).
    pub dt: f32,
    /// Age at which particles die (`f32::MAX`: never, as in the document).
    pub lifetime: f32,
    /// New particles per emitter per step.
    pub emit_per_emitter: u32,
    /// The emitters.
    pub emitters: Vec<Emitter>,
}

impl ParticleSettings {
    /// Particles one step emits: emitters × `emit_per_emitter` (without overflow).
    pub fn emitted(&self) -> u64 {
        (self.emitters.len() as u64).saturating_mul(self.emit_per_emitter as u64)
    }
}

impl Default for ParticleSettings {
    fn default() -> Self {
        Self {
            dt: DOCUMENT_TIME_STEP,
            lifetime: f32::MAX,
            emit_per_emitter: 0,
            emitters: Vec::new(),
        }
    }
}

/// What [`Particles`] are built with.
#[derive(Debug, Clone, PartialEq)]
pub struct ParticlesParams<'a> {
    /// The particles at the start, uploaded into the first buffer.
    pub initial: &'a [Particle],
    /// Particles each buffer holds: the live particles plus one step's emissions (going over is
    /// reported by [`Particles::count`]).
    pub capacity: u64,
    /// How the particles live.
    pub settings: ParticleSettings,
}

/// What a step moves: the buffer holding the live particles and the next free id.
#[derive(Debug, Clone, Copy)]
struct State {
    current: usize,
    next_id: u32,
}

/// Particles on the GPU: the two kernels, two append/consume buffers, the indirect arguments.
#[derive(Debug)]
pub struct Particles {
    gpu: Gpu,
    wg: u32,
    update: Kernel,
    emit: Kernel,
    buffers: [AppendBuffer<Particle>; 2],
    args: Buffer<DispatchArgs>,
    emitters: Buffer<Emitter>,
    settings: ParticleSettings,
    /// A step swaps the buffers and takes ids, and `Record::record` takes `&self` (a batch is
    /// recorded without borrowing the family mutably, and the family stays `Sync`): the lock is
    /// held for the whole step, so steps recorded at once from two threads advance in turn.
    state: Mutex<State>,
}

impl Particles {
    /// Uploads `params.initial` into buffers of `params.capacity` particles. Both kernels are
    /// compiled here, so there is nothing to `prepare`.
    pub fn new(gpu: &Gpu, params: ParticlesParams<'_>) -> Result<Self> {
        Self::from_source(gpu, shoal::wgsl!("../wgsl/particles.wgsl"), params)
    }

    /// Particles like [`Particles::new`] whose kernels are compiled from `source`, an edited
    /// copy of `wgsl/particles.wgsl` with the same entry points and bindings (hot reload). A
    /// WGSL error is [`Error::Wgsl`] naming the source's file and line.
    pub fn from_source(
        gpu: &Gpu,
        source: impl Into<Source>,
        params: ParticlesParams<'_>,
    ) -> Result<Self> {
        let ParticlesParams {
            initial,
            capacity,
            settings,
        } = params;
        if !(settings.dt > 0.0 && settings.dt.is_finite()) {
            return Err(Error::InvalidParameter {
                kernel: "Particles".into(),
                parameter: "dt".into(),
                value: settings.dt.to_string(),
                rule: "must be a finite number > 0".into(),
            });
        }
        // `age < NaN` is false: a NaN lifetime would kill every particle on its first step.
        if settings.lifetime.is_nan() || settings.lifetime <= 0.0 {
            return Err(Error::InvalidParameter {
                kernel: "Particles".into(),
                parameter: "lifetime".into(),
                value: settings.lifetime.to_string(),
                rule: "must be a number > 0 (f32::MAX or infinity: never)".into(),
            });
        }
        // One step's emissions must fit: more could never be kept, and near u32::MAX per
        // emitter they would be a dispatch of billions of invocations.
        let emitted = settings.emitted();
        if emitted > capacity {
            return Err(Error::InvalidParameter {
                kernel: "Particles".into(),
                parameter: "emit_per_emitter".into(),
                value: settings.emit_per_emitter.to_string(),
                rule: format!(
                    "{} emitters x {} particles = {emitted} per step, more than the capacity of {capacity}: emit fewer or make the buffers larger",
                    settings.emitters.len(),
                    settings.emit_per_emitter
                ),
            });
        }
        let wg = gpu.max_workgroup_1d(64);
        let [update, emit] = Self::compile(gpu, &source.into(), wg)?;
        let buffers = [
            gpu.append_buffer_from(initial, capacity)?,
            gpu.append_buffer(capacity)?,
        ];
        let emitters = if settings.emitters.is_empty() {
            gpu.buffer_zeroed(1)?
        } else {
            gpu.buffer_from(&settings.emitters)?
        };
        let next_id = initial
            .iter()
            .map(|p| p.id.saturating_add(1))
            .max()
            .unwrap_or(0);
        Ok(Self {
            gpu: gpu.clone(),
            wg,
            update,
            emit,
            buffers,
            args: gpu.buffer_zeroed_with(1, Usage::STORAGE | Usage::INDIRECT)?,
            emitters,
            settings,
            state: Mutex::new(State {
                current: 0,
                next_id,
            }),
        })
    }

    fn compile(gpu: &Gpu, source: &Source, wg: u32) -> Result<[Kernel; 2]> {
        let build = |entry: &str| {
            gpu.kernel_builder(source.clone())
                .entry(entry)
                .constant("WG", wg)
                .build()
        };
        Ok([build("particles_update")?, build("particles_emit")?])
    }

    /// Recompiles both kernels from `source` (an edited `wgsl/particles.wgsl`), keeping the
    /// particles. On an error the old kernels stay.
    pub fn set_source(&mut self, source: impl Into<Source>) -> Result<()> {
        [self.update, self.emit] = Self::compile(&self.gpu, &source.into(), self.wg)?;
        Ok(())
    }

    /// The settings.
    pub fn settings(&self) -> &ParticleSettings {
        &self.settings
    }

    /// The [`Step`] the next recorded step will use.
    pub fn next_step(&self) -> Step {
        self.step_from(self.state().next_id)
    }

    /// The [`Step`] whose first emitted particle gets `first_id`.
    fn step_from(&self, first_id: u32) -> Step {
        Step {
            dt: self.settings.dt,
            lifetime: self.settings.lifetime,
            first_id,
            emit_per_emitter: self.settings.emit_per_emitter,
        }
    }

    /// The state now.
    fn state(&self) -> State {
        // A poisoned lock still holds a valid state: it is written only after a step recorded.
        *self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The buffer holding the live particles.
    pub fn buffer(&self) -> &AppendBuffer<Particle> {
        &self.buffers[self.state().current]
    }

    /// How many particles live ([`Error::AppendOverflow`] if a step appended past the capacity).
    pub async fn count(&self) -> Result<u64> {
        self.buffer().count().await
    }

    /// [`Particles::count`], blocking (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn count_blocking(&self) -> Result<u64> {
        pollster::block_on(self.count())
    }

    /// Reads the live particles back, in no particular order.
    pub async fn read(&self) -> Result<Vec<Particle>> {
        self.buffer().read().await
    }
}

/// One step of the particles: it takes nothing but the family's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ParticlesStep;

impl Family for Particles {
    fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The update kernel, then the emitter.
    fn kernels(&self) -> Vec<&Kernel> {
        vec![&self.update, &self.emit]
    }
}

impl Record<ParticlesStep> for Particles {
    /// Records one step: the input's count becomes the update's indirect group count, the
    /// update consumes and appends, the emitters append, and the buffers swap. The step's
    /// [`Step`] goes into a small uniform of its own, so many steps recorded into one batch each
    /// keep their first id; the batch runs without a readback.
    fn record(&self, commands: &mut Commands, _: ParticlesStep) -> Result<()> {
        let commands = &mut commands.labelled("particles");
        // At most the capacity (checked in `new`), which a u32 holds.
        let emitted = u32::try_from(self.settings.emitted()).unwrap_or(u32::MAX);
        let mut state = self.state.lock().map_err(|_| crate::wgsl::poisoned())?;
        let step = self.gpu.uniform(&self.step_from(state.next_id))?;
        let current = state.current;
        let (input, output) = (&self.buffers[current], &self.buffers[1 - current]);
        input.record_dispatch_args(commands, &self.args, self.wg)?;
        self.update
            .bind("particles_in", input)
            .bind("particles_out", output)
            .bind("step", &step)
            .indirect(&self.args, 0)
            .record(commands)?;
        if emitted > 0 {
            self.emit
                .bind("particles_out", output)
                .bind("step", &step)
                .bind("emitters", &self.emitters)
                .invocations(emitted as u64)
                .record(commands)?;
        }
        // Every particle of the input was consumed: its count is back to zero, ready to be the
        // next step's output.
        *state = State {
            current: 1 - current,
            next_id: state.next_id.wrapping_add(emitted),
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests;
