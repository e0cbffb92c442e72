//! The 2D wave equation (the Direct3D 12 book, exercise 5), WGSL in `wgsl/waves.wgsl`: the book's `Waves` class
//! on the GPU, with the previous, current and next height solutions as `r32float` images.
//!
//! Each step computes next = k1·prev + k2·curr + k3·(sum of the 4 neighbours) with
//! k1 = (μdt − 2)/(μdt + 2), k2 = (4 − 8e)/(μdt + 2), k3 = 2e/(μdt + 2), e = c²dt²/dx², and
//! rotates the images (the border stays at zero, as in the book's class). A single-invocation
//! kernel disturbs the surface. The explicit scheme is stable only for c·dt/dx ≤ 1/√2: other
//! parameters are refused with [`shoal::Error::InvalidParameter`].
//!
//! ```
//! # fn main() -> Result<(), shoal::Error> {
//! use shoal_kernels::{Record, WaveParams, Waves, WavesDisturbArgs, WavesStep};
//! let gpu = shoal::Gpu::blocking()?;
//! let params = WaveParams { width: 64, height: 64, ..WaveParams::default() };
//! let waves = Waves::new(&gpu, params)?;
//! waves.run(WavesDisturbArgs { x: 32, y: 32, magnitude: 1.0 })?;
//! let mut commands = gpu.commands();
//! for _ in 0..10 {
//!     waves.record(&mut commands, WavesStep)?;
//! }
//! commands.submit()?;
//! let heights = waves.read_blocking()?;
//! assert!(heights.iter().any(|h| *h != 0.0)); // the ripple spreads
//! # Ok(()) }
//! ```

pub mod cpu;

use encase::ShaderType;
use shoal::wgpu::TextureFormat;
use std::sync::{Mutex, PoisonError};

use shoal::{Buffer, Commands, Error, Family, Gpu, Image, Kernel, Record, Result, Source};

/// The document's grid: 512 x 512.
pub const DOCUMENT_SIZE: u32 = 512;

/// The surface's size and physical parameters, [`WaveParams::default`] holding the document
/// demo's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaveParams {
    /// Texels across the grid, at least 3 (the document's [`DOCUMENT_SIZE`]).
    pub width: u32,
    /// Texels down the grid, at least 3.
    pub height: u32,
    /// Grid spacing dx.
    pub spatial_step: f32,
    /// Time step dt.
    pub time_step: f32,
    /// Wave speed c.
    pub speed: f32,
    /// Damping μ.
    pub damping: f32,
}

impl Default for WaveParams {
    fn default() -> Self {
        Self {
            width: DOCUMENT_SIZE,
            height: DOCUMENT_SIZE,
            spatial_step: 1.0,
            time_step: 0.03,
            speed: 4.0,
            damping: 0.2,
        }
    }
}

impl WaveParams {
    /// k1, k2, k3, or why the parameters break the scheme.
    pub fn constants(&self) -> Result<[f32; 3]> {
        let Self {
            spatial_step: dx,
            time_step: dt,
            speed: c,
            damping: mu,
            ..
        } = *self;
        let bad = |parameter: &str, value: f32, rule: String| {
            Err(Error::InvalidParameter {
                kernel: "Waves".into(),
                parameter: parameter.into(),
                value: value.to_string(),
                rule,
            })
        };
        if !(dx > 0.0 && dx.is_finite()) {
            return bad("spatial_step", dx, "must be a finite number > 0".into());
        }
        if !(dt > 0.0 && dt.is_finite()) {
            return bad("time_step", dt, "must be a finite number > 0".into());
        }
        if !(mu >= 0.0 && mu.is_finite()) {
            return bad("damping", mu, "must be a finite number >= 0".into());
        }
        let courant = c * dt / dx;
        if !(c >= 0.0 && courant <= std::f32::consts::FRAC_1_SQRT_2) {
            return bad(
                "speed",
                c,
                format!(
                    "the explicit scheme is stable only for c dt / dx <= 1/sqrt(2) = 0.7071, and c dt / dx = {courant}; \
                     lower the speed or the time step, or raise the spacing (dt <= {:.5} here)",
                    std::f32::consts::FRAC_1_SQRT_2 * dx / c
                ),
            );
        }
        let d = mu * dt + 2.0;
        let e = c * c * dt * dt / (dx * dx);
        let k = [(mu * dt - 2.0) / d, (4.0 - 8.0 * e) / d, 2.0 * e / d];
        // Each finite alone, damping times time step can still overflow (d = inf, k1 = NaN).
        if !k.iter().all(|k| k.is_finite()) {
            return bad(
                "damping",
                mu,
                format!(
                    "damping x time step + 2 = {d} must be finite, and so must the scheme's \
                     constants ({k:?}): lower the damping or the time step"
                ),
            );
        }
        Ok(k)
    }
}

#[derive(Debug, Clone, Copy, ShaderType)]
struct WaveUniform {
    k1: f32,
    k2: f32,
    k3: f32,
}

#[derive(Debug, Clone, Copy, ShaderType)]
struct Disturbance {
    x: u32,
    y: u32,
    magnitude: f32,
}

/// A wave surface on the GPU: both kernels, three height images and the constants.
#[derive(Debug)]
pub struct Waves {
    gpu: Gpu,
    update: Kernel,
    disturb: Kernel,
    images: [Image; 3],
    /// Which image is the previous, current and next solution. A step rotates them, and
    /// `Record::record` takes `&self` (a batch is recorded without borrowing the family mutably,
    /// and the family stays `Sync`): the lock is held for the whole step, so steps recorded at
    /// once from two threads rotate in turn.
    roles: Mutex<[usize; 3]>,
    params: WaveParams,
    k: [f32; 3],
    uniform: Buffer<WaveUniform>,
}

impl Waves {
    /// A flat `params.width` x `params.height` surface (at least 3 x 3) with `params`. Its
    /// kernels are compiled here, so there is nothing to `prepare`.
    pub fn new(gpu: &Gpu, params: WaveParams) -> Result<Self> {
        Self::from_source(gpu, shoal::wgsl!("../wgsl/waves.wgsl"), params)
    }

    /// A surface like [`Waves::new`] whose kernels are compiled from `source`, an edited copy of
    /// `wgsl/waves.wgsl` with the same entry points and bindings (hot reload). A WGSL error is
    /// [`Error::Wgsl`] naming the source's file and line.
    pub fn from_source(gpu: &Gpu, source: impl Into<Source>, params: WaveParams) -> Result<Self> {
        let WaveParams { width, height, .. } = params;
        let k = params.constants()?;
        if width < 3 || height < 3 {
            return Err(Error::InvalidParameter {
                kernel: "Waves".into(),
                parameter: "size".into(),
                value: format!("{width}x{height}"),
                rule: "the grid needs an interior: at least 3x3".into(),
            });
        }
        let [update, disturb] = Self::compile(gpu, &source.into())?;
        let image = || gpu.image_zeroed(width, height, TextureFormat::R32Float);
        Ok(Self {
            gpu: gpu.clone(),
            update,
            disturb,
            images: [image()?, image()?, image()?],
            roles: Mutex::new([0, 1, 2]),
            params,
            k,
            uniform: gpu.uniform(&WaveUniform {
                k1: k[0],
                k2: k[1],
                k3: k[2],
            })?,
        })
    }

    fn compile(gpu: &Gpu, source: &Source) -> Result<[Kernel; 2]> {
        let build = |entry: &str| gpu.kernel_builder(source.clone()).entry(entry).build();
        Ok([build("waves_update")?, build("waves_disturb")?])
    }

    /// Recompiles both kernels from `source` (an edited `wgsl/waves.wgsl`), keeping the
    /// surface. On an error the old kernels stay.
    pub fn set_source(&mut self, source: impl Into<Source>) -> Result<()> {
        [self.update, self.disturb] = Self::compile(&self.gpu, &source.into())?;
        Ok(())
    }

    /// The parameters.
    pub fn params(&self) -> &WaveParams {
        &self.params
    }

    /// k1, k2, k3.
    pub fn constants(&self) -> [f32; 3] {
        self.k
    }

    /// The current solution (an `r32float` image).
    pub fn current(&self) -> &Image {
        &self.images[self.roles()[1]]
    }

    /// The previous solution.
    pub fn previous(&self) -> &Image {
        &self.images[self.roles()[0]]
    }

    /// Which image is the previous, current and next solution now.
    fn roles(&self) -> [usize; 3] {
        // A poisoned lock still holds valid roles: they are written only after a step recorded.
        *self.roles.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Reads the current heights back, row by row.
    pub async fn read(&self) -> Result<Vec<f32>> {
        self.current().read().await
    }

    /// Reads the previous heights back.
    pub async fn read_previous(&self) -> Result<Vec<f32>> {
        self.previous().read().await
    }

    /// Reads the current heights back, blocking (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn read_blocking(&self) -> Result<Vec<f32>> {
        pollster::block_on(self.read())
    }
}

/// One update of the surface: next = k1·prev + k2·curr + k3·(neighbours), then the images
/// rotate. Many steps go into one batch by recording this once per step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WavesStep;

/// A disturbance of the current surface at an interior texel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WavesDisturbArgs {
    /// Column, 1..=width − 2.
    pub x: u32,
    /// Row, 1..=height − 2.
    pub y: u32,
    /// Height added (finite); its neighbours get half.
    pub magnitude: f32,
}

impl Family for Waves {
    fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The update kernel, then the disturbance.
    fn kernels(&self) -> Vec<&Kernel> {
        vec![&self.update, &self.disturb]
    }
}

impl Record<WavesStep> for Waves {
    /// Records one update and rotates the images.
    fn record(&self, commands: &mut Commands, _: WavesStep) -> Result<()> {
        let mut roles = self.roles.lock().map_err(|_| crate::wgsl::poisoned())?;
        let [prev, curr, next] = roles.map(|r| &self.images[r]);
        self.update
            .bind("prev", prev)
            .bind("curr", curr)
            .bind("next", next)
            .bind("wave", &self.uniform)
            .invocations_2d(curr.size())
            .record(commands)?;
        let [p, c, n] = *roles;
        *roles = [c, n, p];
        Ok(())
    }
}

impl Record<WavesDisturbArgs> for Waves {
    /// Records a disturbance of the current surface. A position outside the interior or a
    /// magnitude that is not finite is [`Error::InvalidParameter`].
    fn record(&self, commands: &mut Commands, args: WavesDisturbArgs) -> Result<()> {
        let WavesDisturbArgs { x, y, magnitude } = args;
        if !magnitude.is_finite() {
            return Err(Error::InvalidParameter {
                kernel: "Waves".into(),
                parameter: "disturbance magnitude".into(),
                value: magnitude.to_string(),
                rule: "must be a finite number".into(),
            });
        }
        // Held while recording, so a step recorded at once on another thread does not rotate
        // the surface from under the disturbance.
        let roles = self.roles.lock().map_err(|_| crate::wgsl::poisoned())?;
        let current = &self.images[roles[1]];
        let [w, h] = current.size();
        if !(1..w - 1).contains(&x) || !(1..h - 1).contains(&y) {
            return Err(Error::InvalidParameter {
                kernel: "Waves".into(),
                parameter: "disturbance position".into(),
                value: format!("({x}, {y})"),
                rule: format!(
                    "must be an interior texel of the {w}x{h} grid, 1..={} x 1..={}",
                    w - 2,
                    h - 2
                ),
            });
        }
        // Its own small uniform, so several disturbances recorded in one batch keep theirs.
        let disturbance = self.gpu.uniform(&Disturbance { x, y, magnitude })?;
        self.disturb
            .bind("surface", current)
            .bind("disturbance", &disturbance)
            .groups([1, 1, 1])
            .record(commands)
    }
}

#[cfg(test)]
mod tests;
