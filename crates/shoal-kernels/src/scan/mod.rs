//! Scans (prefix sums, minima, maxima, or any associative [`Operator`](crate::Operator)) of any
//! length, the document's work-group scan they are built on, and the [`Reduce`](crate::Reduce)
//! that shares their up-sweep.
//!
//! - [`WorkgroupScan`]: the OpenGL compute-shader lesson's kernel as it stands: 2 × WG elements per work group
//!   in shared memory, a barrier after each of the log2(2 × WG) steps, WG planned from the
//!   device (1024 on lavapipe and llvmpipe, 256 in the browser). Each block is scanned on its own.
//! - [`Scan`]: any length, two strategies ([`Strategy`]):
//!   *multi-level reduce-then-scan* (reduce tiles, scan the tile totals the same way, then scan
//!   each tile from its total's offset; work groups never wait on each other) and *single-pass
//!   decoupled look-back* (each tile publishes its total and then its inclusive prefix in one
//!   pass; a work group whose predecessor has published nothing reduces that tile itself, so
//!   nothing relies on work groups making progress concurrently).

pub(crate) mod blocks;
mod cpu;
mod kernels;
mod tiling;
mod workgroup;

use std::sync::Mutex;

use shoal::{Buffer, Commands, Error, Family, Gpu, Kernel, Record, Result};

use crate::operator::Operation;
use crate::value::{Shape, Value};
use crate::wgsl;

pub use cpu::{scan_by, scan_cpu, workgroup_scan_cpu};
use kernels::Level;
pub(crate) use kernels::{Hooks, ScanKernels, check_pair, grow_levels, scan_source};
#[cfg(test)]
pub(crate) use tiling::is_software;
pub use tiling::{MAX_COARSENING, ROLLED_PER, SOFTWARE_WORKGROUP, Tiling, VALUE_PER};
pub use workgroup::{WorkgroupScan, WorkgroupScanArgs};

/// The WGSL of the scan family.
pub(crate) const SOURCE: shoal::Source = shoal::wgsl!("../../wgsl/scan.wgsl");

/// Elements each invocation of the coarsened kernels owns, unless chosen otherwise: enough that a
/// software adapter pays its barriers once per 4096 elements (with 256 invocations).
pub(crate) const PER: u32 = 16;

/// How a [`Scan`] crosses work groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    /// [`Strategy::LookBack`] when the input spans more than one tile (it reads the input once
    /// and was the faster of the two on every adapter measured: lavapipe, llvmpipe GL,
    /// SwiftShader), else one dispatch of the multi-level kernels (the two are the same for one
    /// tile). Struct values always take the multi-level kernels (the look-back's atomics carry
    /// scalars and vectors only).
    #[default]
    Auto,
    /// Reduce tiles, scan their totals (recursively), scan tiles from their offsets:
    /// 2 + 2 × (levels − 1) dispatches, input read twice, no work group waits for another.
    MultiLevel,
    /// One dispatch: tiles numbered in start order publish their total and inclusive prefix (flag
    /// and value in the same atomic words); a work group looks back over its predecessors and
    /// computes any missing total from the input itself rather than wait.
    ///
    /// A request, honoured where the tiling allows: on a software adapter with work groups
    /// narrower than [`SOFTWARE_WORKGROUP`] the scan takes [`MultiLevel`](Self::MultiLevel)
    /// instead (see [`Scan::strategy_for`]), where the look-back's time grows with the square of
    /// the tile count (2^20 elements in tiles of 1 × 2 ran for minutes). The result is the
    /// same; falling back rather than refusing keeps a strategy chosen for one adapter valid on
    /// every other.
    LookBack,
}

/// What a [`Scan`] computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ScanSpec {
    /// The operation: a built-in [`Op`](crate::Op) or an [`Operator`](crate::Operator).
    pub op: Operation,
    /// Inclusive (`out[i]` includes `in[i]`) or exclusive (starts with the identity).
    pub inclusive: bool,
    /// How to cross work groups.
    pub strategy: Strategy,
}

impl ScanSpec {
    /// An inclusive scan with `op` (an [`Op`](crate::Op) or an [`Operator`](crate::Operator)).
    pub fn inclusive(op: impl Into<Operation>) -> Self {
        Self {
            op: op.into(),
            inclusive: true,
            strategy: Strategy::Auto,
        }
    }

    /// An exclusive scan with `op` (an [`Op`](crate::Op) or an [`Operator`](crate::Operator)).
    pub fn exclusive(op: impl Into<Operation>) -> Self {
        Self {
            op: op.into(),
            inclusive: false,
            strategy: Strategy::Auto,
        }
    }

    /// The same scan with `strategy` forced.
    pub fn with_strategy(mut self, strategy: Strategy) -> Self {
        self.strategy = strategy;
        self
    }
}

/// Scans of any length: inclusive or exclusive, sum, min or max of `u32`, `i32`, `f32` and their
/// vectors, or any associative [`Operator`](crate::Operator) over any [`Value`] (a struct too).
///
/// Compiles its kernels on first use of each operation and keeps its scratch buffers, so build
/// one and run it many times. Every run ([`ScanArgs`]) can be recorded into a [`Commands`] batch
/// with other work ([`Record::record`]), or submitted on its own ([`Record::run`]).
/// [`Family::kernels`] lists the kernels compiled so far.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{Op, Record, Scan, ScanArgs, ScanSpec, scan_cpu};
/// let gpu = shoal::Gpu::blocking()?;
/// let values: Vec<u32> = (0..5000).map(|i| i % 7).collect();
/// let (input, output) = (gpu.buffer_from(&values)?, gpu.buffer_zeroed::<u32>(5000)?);
/// let spec = ScanSpec::inclusive(Op::Sum);
/// Scan::<u32>::new(&gpu)?.run(ScanArgs { input: &input, output: &output, spec })?;
/// assert_eq!(output.read_blocking()?, scan_cpu(&values, Op::Sum, true));
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Scan<T: Value> {
    kernels: ScanKernels<T>,
    /// Per level of the multi-level scan: tile totals and their scan.
    levels: Mutex<Vec<(Buffer<T>, Buffer<T>)>>,
    /// The look-back's tile counter and tile states.
    state: Mutex<Option<Buffer<u32>>>,
    /// What [`record_hooked`](Self::record_hooked) binds as input and output (its `io` block
    /// reads and writes through its hooks instead): one element, made on first use.
    stand_in: Mutex<Option<Buffer<T>>>,
}

impl<T: Value> Scan<T> {
    /// A scan for `gpu`, tiled as [`Tiling::for_value`] plans: the work-group size from its
    /// limits and subgroup size, subgroup operations where it has them (and the value moves
    /// through them).
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Self::with_tiling(gpu, Tiling::for_value::<T>(gpu))
    }

    /// A scan with `tiling` forced (a typed error where the device cannot run it), e.g.
    /// `Tiling::for_gpu(gpu).with_per_invocation(3)`: smaller tiles mean more work groups and
    /// more levels for the same input, which is how the tests cross thousands of work groups
    /// cheaply.
    pub fn with_tiling(gpu: &Gpu, tiling: Tiling) -> Result<Self> {
        Ok(Self {
            kernels: ScanKernels::new(gpu, tiling)?,
            levels: Mutex::new(Vec::new()),
            state: Mutex::new(None),
            stand_in: Mutex::new(None),
        })
    }

    /// A scan tiled as `tiling` whose bottom level reads elements and stores results through
    /// `io` (the `io` block of `scan.wgsl`) in [`record_hooked`](Self::record_hooked) runs.
    pub(crate) fn with_io(gpu: &Gpu, tiling: Tiling, io: shoal::Source) -> Result<Self> {
        Ok(Self {
            kernels: ScanKernels::new(gpu, tiling)?.with_io(io),
            levels: Mutex::new(Vec::new()),
            state: Mutex::new(None),
            stand_in: Mutex::new(None),
        })
    }

    /// Compiles the kernel a hooked scan of a few elements takes, so that a WGSL error in the
    /// `io` block is returned now (the other kernels compile on first use).
    pub(crate) fn prepare_hooked(&self, spec: ScanSpec) -> Result<()> {
        let k = &self.kernels;
        k.kernel(
            spec.op,
            "scan_tiles",
            k.workgroup(),
            k.wide_store(1, true),
            1,
            true,
        )
        .map(drop)
    }

    /// Records the scan of `n` elements that the `io` block reads and stores, with `hooks`
    /// bound where its kernels use them.
    pub(crate) fn record_hooked(
        &self,
        commands: &mut Commands,
        n: u32,
        spec: ScanSpec,
        hooks: &[(&'static str, &dyn shoal::Bindable)],
    ) -> Result<()> {
        let commands = &mut commands.labelled("scan");
        if n == 0 {
            return Ok(());
        }
        let stand_in = {
            let mut kept = self.stand_in.lock().map_err(|_| wgsl::poisoned())?;
            match &*kept {
                Some(b) => b.clone(),
                None => kept
                    .insert(self.kernels.gpu().buffer_zeroed::<T>(1)?)
                    .clone(),
            }
        };
        let io = (&stand_in, &stand_in);
        match self.strategy_for(spec, n as u64) {
            Strategy::LookBack => self.record_lookback(commands, io, n, spec, Some(hooks)),
            _ => self.record_multilevel(commands, io, n, spec, Some(hooks)),
        }
    }

    /// How many kernels are compiled so far (for the warm-up's tests).
    #[cfg(test)]
    pub(crate) fn kernels_built(&self) -> usize {
        self.kernels.built()
    }

    /// Elements per tile (one work group's share): WG × elements per invocation.
    pub fn tile(&self) -> u32 {
        self.kernels.tile()
    }

    /// The strategy `spec` resolves to for `n` elements: [`Strategy::Auto`] takes the look-back
    /// for inputs of more than one tile (of scalars or vectors), else the multi-level kernels.
    ///
    /// On a software adapter whose work groups are narrower than [`SOFTWARE_WORKGROUP`]
    /// invocations (one SIMD row of llvmpipe) every strategy, a forced [`Strategy::LookBack`]
    /// too, resolves to the multi-level kernels: there the look-back's time grows with the
    /// square of the tile count although each tile looks back one or two steps (measured on
    /// lavapipe with tiles of 2 × 2, where the multi-level kernels and the look-back in tiles of
    /// 8 invocations stay linear). The time goes into executing the look-back loop at all: a
    /// kernel that leaves the loop before its first step is linear again, one that takes one
    /// step without polling or folding is not. A forced look-back falls back rather than
    /// failing because the result is the same and a strategy picked on a GPU stays valid on a
    /// software adapter.
    pub fn strategy_for(&self, spec: ScanSpec, n: u64) -> Strategy {
        let narrow = self.kernels.workgroup() < SOFTWARE_WORKGROUP
            && tiling::is_software(self.kernels.gpu());
        match spec.strategy {
            Strategy::Auto if n > self.tile() as u64 && T::SHAPE != Shape::Struct && !narrow => {
                Strategy::LookBack
            }
            Strategy::Auto => Strategy::MultiLevel,
            Strategy::LookBack if narrow => Strategy::MultiLevel,
            forced => forced,
        }
    }

    /// The multi-level scratch for `n` elements: per level above the input, its tile totals and
    /// their scan, grown as needed and kept.
    fn levels_for(&self, n: u32) -> Result<Vec<Level<T>>> {
        let lens = self.kernels.level_lens(n, 1);
        let mut kept = self.levels.lock().map_err(|_| wgsl::poisoned())?;
        let gpu = self.kernels.gpu();
        grow_levels(
            &mut kept,
            &lens,
            |(p, _)| p.len(),
            |len| Ok((gpu.buffer_zeroed::<T>(len)?, gpu.buffer_zeroed::<T>(len)?)),
        )?;
        Ok(lens
            .iter()
            .zip(kept.iter())
            .map(|(&len, (p, o))| (len, p.clone(), o.clone()))
            .collect())
    }

    /// The multi-level scan; `hooks` apply to the bottom level (the input and the output).
    fn record_multilevel(
        &self,
        commands: &mut Commands,
        (input, output): (&Buffer<T>, &Buffer<T>),
        n: u32,
        spec: ScanSpec,
        hooks: Hooks<'_>,
    ) -> Result<()> {
        let k = &self.kernels;
        let levels = self.levels_for(n)?;
        let Some((top_len, top_partials, top_offsets)) = levels.last() else {
            return k.record_scan_tiles(
                commands,
                spec.op,
                (input, output, n),
                spec.inclusive,
                None,
                hooks,
            );
        };
        // Up: the totals of each level's tiles become the next level.
        let mut below = (input, n);
        for (i, (len, partials, _)) in levels.iter().enumerate() {
            let level_hooks = if i == 0 { hooks } else { None };
            k.record_reduce_tiles(commands, spec.op, below, partials, 1, level_hooks)?;
            below = (partials, *len);
        }
        // Top: one tile, scanned exclusively into offsets.
        k.record_scan_tiles(
            commands,
            spec.op,
            (top_partials, top_offsets, *top_len),
            false,
            None,
            None,
        )?;
        // Down: each level's tiles start from the offsets of the level above.
        for i in (0..levels.len() - 1).rev() {
            let (len, partials, offsets) = &levels[i];
            k.record_scan_tiles(
                commands,
                spec.op,
                (partials, offsets, *len),
                false,
                Some(&levels[i + 1].2),
                None,
            )?;
        }
        k.record_scan_tiles(
            commands,
            spec.op,
            (input, output, n),
            spec.inclusive,
            Some(&levels[0].2),
            hooks,
        )
    }

    fn record_lookback(
        &self,
        commands: &mut Commands,
        (input, output): (&Buffer<T>, &Buffer<T>),
        n: u32,
        spec: ScanSpec,
        hooks: Hooks<'_>,
    ) -> Result<()> {
        let k = &self.kernels;
        if T::SHAPE == Shape::Struct {
            return Err(Error::Override {
                kernel: SOURCE.path().to_string(),
                message: format!(
                    "the look-back carries values through 32-bit atomics, which a struct (`{}`) does not fit: use Strategy::MultiLevel or Auto",
                    T::WGSL
                ),
            });
        }
        let tiles = n.div_ceil(self.tile());
        let words = 1 + 4 * T::SHAPE.words() as u64 * tiles as u64;
        wgsl::check_scratch(k.gpu(), "look-back state", words)?;
        let state = {
            let mut kept = self.state.lock().map_err(|_| wgsl::poisoned())?;
            match &*kept {
                Some(s) if s.len() >= words => s.clone(),
                _ => {
                    let s = k.gpu().buffer_zeroed::<u32>(words)?;
                    *kept = Some(s.clone());
                    s
                }
            }
        };
        // Stale states from the previous run would be read as published: start from zero.
        commands.clear(&state);
        let (wg, wide_store) = (k.workgroup(), k.wide_store(n, hooks.is_some()));
        let kernel = k.kernel(spec.op, "scan_lookback", wg, wide_store, 1, hooks.is_some())?;
        let params = k
            .uniforms
            .get(k.gpu(), [n, spec.inclusive as u32, 0, tiles])?;
        let wide = k.wide(input, Some(output))?;
        let dispatch = kernel.bind("params", &params).bind("tile_state", &state);
        ScanKernels::<T>::bind_io(&kernel, dispatch, (input, Some(output)), &wide, hooks)
            .invocations(tiles as u64 * k.workgroup() as u64)
            .record(commands)
    }
}

/// What one [`Scan`] reads and writes: every element of `input` scanned into the first
/// `input.len()` elements of `output`.
#[derive(Debug, Clone, Copy)]
pub struct ScanArgs<'a, T: Value> {
    /// The elements to scan.
    pub input: &'a Buffer<T>,
    /// Where the scan goes: another buffer than `input`, at least as long.
    pub output: &'a Buffer<T>,
    /// The operation, inclusive or exclusive, and the strategy.
    pub spec: ScanSpec,
}

impl<T: Value> Family for Scan<T> {
    fn gpu(&self) -> &Gpu {
        self.kernels.gpu()
    }

    /// The kernels compiled so far (they are compiled on first use of each operation, tile
    /// level and strategy).
    fn kernels(&self) -> Vec<&Kernel> {
        self.kernels.compiled()
    }
}

impl<T: Value> Record<ScanArgs<'_, T>> for Scan<T> {
    /// Records the scan of every element of `input` into the first `input.len()` elements of
    /// `output`, after what `commands` already holds.
    fn record(&self, commands: &mut Commands, args: ScanArgs<'_, T>) -> Result<()> {
        let ScanArgs {
            input,
            output,
            spec,
        } = args;
        let commands = &mut commands.labelled("scan");
        let n = check_pair(self.kernels.gpu(), "scan", input, output)?;
        if n == 0 {
            return Ok(());
        }
        match self.strategy_for(spec, n as u64) {
            Strategy::LookBack => self.record_lookback(commands, (input, output), n, spec, None),
            _ => self.record_multilevel(commands, (input, output), n, spec, None),
        }
    }
}

#[cfg(test)]
mod tests;
