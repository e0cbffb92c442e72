//! [`ScanKernels`]: the compiled kernels of `wgsl/scan.wgsl` for one value type, specialised
//! per operation through the preprocessor's `#block`s, and the recording of tile passes that the
//! scan strategies and [`Reduce`](crate::Reduce) are built from.

use std::sync::Mutex;

use shoal::{Buffer, Commands, Error, Gpu, Kernel, Result};

use super::blocks::{
    GROUP_REDUCE_PORTABLE, LANE_PORTABLE, NARROW, ONE_SUBGROUP_GROUP, ONE_SUBGROUP_REDUCE,
    ordered_fold, own_blocks, vector_words_block,
};
use super::{MAX_COARSENING, SOURCE, Tiling};
use crate::buffers::{check_apart, named};
use crate::compiled::Compiled;
use crate::operator::Operation;
use crate::value::{Shape, Value};
use crate::wgsl::{self, Uniforms};

/// A compiled kernel of the family: operation, entry point, work-group size, wide stores, span,
/// and whether it reads and stores through the family's `io` block.
type KernelKey = (Operation, &'static str, u32, bool, u32, bool);

/// The bindings of an `io` block ([`ScanKernels::with_io`]) for one run, by name: the kernels
/// that read elements and store results through the block bind those they use.
pub(crate) type Hooks<'a> = Option<&'a [(&'static str, &'a dyn shoal::Bindable)]>;

/// A buffer of `T` seen as vec4s for `input4`, and one for `output4`.
type Wide<T> = (Buffer<<T as Value>::Wide>, Buffer<<T as Value>::Wide>);

/// One level of the multi-level scan: its length, its tile totals and their scan.
pub(super) type Level<T> = (u32, Buffer<T>, Buffer<T>);

/// The kernels of `scan.wgsl` for one value type, compiled per operation on first use.
#[derive(Debug)]
pub(crate) struct ScanKernels<T: Value> {
    gpu: Gpu,
    wg: u32,
    tiling: Tiling,
    subgroups: bool,
    kernels: Compiled<KernelKey>,
    /// Bound as `input4` and `output4` for buffers too short to hold one vec4.
    stand_ins: Mutex<Option<[Buffer<T::Wide>; 2]>>,
    /// A family's `io` block: where the bottom level reads elements and stores results.
    io: Option<shoal::Source>,
    pub(crate) uniforms: Uniforms,
    _element: std::marker::PhantomData<fn() -> T>,
}

impl<T: Value> ScanKernels<T> {
    pub(crate) fn new(gpu: &Gpu, tiling: Tiling) -> Result<Self> {
        let per = tiling.per_invocation;
        if !(1..=MAX_COARSENING).contains(&per) {
            return Err(Error::Override {
                kernel: SOURCE.path().to_string(),
                message: format!(
                    "elements per invocation must be 1 to {MAX_COARSENING} (they are held in registers), not {per}"
                ),
            });
        }
        let wg = if tiling.one_subgroup {
            if T::SHAPE == Shape::Struct {
                return Err(Error::Override {
                    kernel: SOURCE.path().to_string(),
                    message: format!(
                        "one-subgroup tiles move values with subgroup shuffles, which take scalars and vectors; `{}` is a struct: use shared-memory tiles (Tiling::for_value)",
                        T::WGSL
                    ),
                });
            }
            Tiling::one_subgroup_workgroup(gpu, &SOURCE)?
        } else {
            tiling.shared_workgroup(gpu, &SOURCE, 256)?
        };
        if wg * per < 2 {
            // Each level of a multi-level scan is one element per tile of the level below: with
            // one-element tiles the levels would never shrink.
            return Err(Error::Override {
                kernel: SOURCE.path().to_string(),
                message: format!(
                    "a tile must hold at least 2 elements (work-group size × elements per invocation), not {wg} × {per}"
                ),
            });
        }
        Ok(Self {
            gpu: gpu.clone(),
            wg,
            tiling,
            subgroups: gpu.has_subgroups(),
            kernels: Compiled::default(),
            stand_ins: Mutex::new(None),
            io: None,
            uniforms: Uniforms::default(),
            _element: std::marker::PhantomData,
        })
    }

    /// The same kernels reading elements and storing results through `io` (the `io` block of
    /// `scan.wgsl`) where a run passes [`Hooks`].
    pub(crate) fn with_io(mut self, io: shoal::Source) -> Self {
        self.io = Some(io);
        self
    }

    /// How many kernels are compiled so far (for the warm-up's tests).
    #[cfg(test)]
    pub(crate) fn built(&self) -> usize {
        self.kernels.all().len()
    }

    /// The kernels compiled so far, in the order they were compiled.
    pub(crate) fn compiled(&self) -> Vec<&Kernel> {
        self.kernels.all()
    }

    pub(crate) fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// `input` and `output` as vec4s for the kernels' `input4` and `output4` (a buffer shorter
    /// than one vec4 is replaced by a stand-in: the kernels then move its elements one by one).
    pub(crate) fn wide(&self, input: &Buffer<T>, output: Option<&Buffer<T>>) -> Result<Wide<T>> {
        let mut kept = self.stand_ins.lock().map_err(|_| wgsl::poisoned())?;
        let stand_ins = match &*kept {
            Some(s) => s.clone(),
            None => {
                let s = [self.gpu.buffer_zeroed(1)?, self.gpu.buffer_zeroed(1)?];
                *kept = Some(s.clone());
                s
            }
        };
        let [read, write] = stand_ins;
        let view = |b: &Buffer<T>, stand_in: Buffer<T::Wide>| {
            let v = b.view_as::<T::Wide>();
            if v.is_empty() { stand_in } else { v }
        };
        Ok((
            view(input, read),
            output.map_or(write.clone(), |o| view(o, write)),
        ))
    }

    /// Whether a scan of `n` elements stores through `output4` (see [`own_blocks`]): scalars,
    /// in whole vec4s, unless an `io` block stores them.
    pub(super) fn wide_store(&self, n: u32, hooked: bool) -> bool {
        T::SHAPE == Shape::Scalar
            && !(hooked && self.io.is_some())
            && self.tiling.per_invocation.is_multiple_of(4)
            && n.is_multiple_of(4)
            && n >= 4
    }

    /// Binds `input`, `output`, the views of [`wide`](Self::wide) as `input4` and `output4`,
    /// and the `hooks`, each where `kernel` uses it (a kernel variant stores through one of
    /// `output`, `output4`; one with the `io` block may use neither `input` nor `output`).
    pub(super) fn bind_io<'a>(
        kernel: &Kernel,
        mut dispatch: shoal::Dispatch<'a>,
        (input, output): (&'a Buffer<T>, Option<&'a Buffer<T>>),
        (input4, output4): &'a Wide<T>,
        hooks: Hooks<'a>,
    ) -> shoal::Dispatch<'a> {
        let uses = |name: &str| kernel.reflection().bindings.iter().any(|b| b.name == name);
        for &(name, buffer) in hooks.unwrap_or(&[]) {
            if uses(name) {
                dispatch = dispatch.bind(name, buffer);
            }
        }
        if uses("input") {
            dispatch = dispatch.bind("input", input);
        }
        if let Some(output) = output
            && uses("output")
        {
            dispatch = dispatch.bind("output", output);
        }
        if uses("input4") {
            dispatch = dispatch.bind("input4", input4);
        }
        if uses("output4") {
            dispatch = dispatch.bind("output4", output4);
        }
        dispatch
    }

    /// The lengths of the levels above `n` elements: each level holds the totals of the one
    /// below, `span` tiles to a total, until `span` tiles are left.
    pub(crate) fn level_lens(&self, n: u32, span: u32) -> Vec<u32> {
        let tile = self.tile() * span;
        std::iter::successors(Some(n), |&len| (len > tile).then(|| len.div_ceil(tile)))
            .skip(1)
            .collect()
    }

    /// Elements per tile of the coarsened kernels.
    pub(crate) fn tile(&self) -> u32 {
        self.wg * self.tiling.per_invocation
    }

    /// The work-group size of the coarsened kernels.
    pub(crate) fn workgroup(&self) -> u32 {
        self.wg
    }

    /// Entry point `entry` for `op`, with `wg` invocations per work group (and `span` tiles per
    /// work group for `reduce_tiles`; 1 elsewhere).
    pub(crate) fn kernel(
        &self,
        op: Operation,
        entry: &'static str,
        wg: u32,
        wide_store: bool,
        span: u32,
        hooked: bool,
    ) -> Result<Kernel> {
        let key = (op, entry, wg, wide_store, span, hooked);
        self.kernels.get_or_build(key, || self.build(key))
    }

    /// Compiles the kernel of `key` (see [`kernel`](Self::kernel)).
    fn build(&self, (op, entry, wg, wide_store, span, hooked): KernelKey) -> Result<Kernel> {
        let io = self.io.as_ref().filter(|_| hooked);
        let source = scan_source::<T>(op, entry, (self.tiling, self.subgroups), wide_store, io)?;
        wgsl::builder(&self.gpu, source)
            .entry(entry)
            .constant("WG", wg)
            .constant("SPAN", span)
            .build()
    }

    /// Records `partials[g] = reduce(tiles g × span .. (g + 1) × span of input)` for every
    /// `span` tiles of `n` elements.
    pub(crate) fn record_reduce_tiles(
        &self,
        commands: &mut Commands,
        op: Operation,
        (input, n): (&Buffer<T>, u32),
        partials: &Buffer<T>,
        span: u32,
        hooks: Hooks<'_>,
    ) -> Result<()> {
        let kernel = self.kernel(op, "reduce_tiles", self.wg, false, span, hooks.is_some())?;
        let params = self.uniforms.get(&self.gpu, [n, 0, 0, 0])?;
        let groups = n.div_ceil(self.tile() * span).max(1);
        let wide = self.wide(input, None)?;
        let dispatch = kernel.bind("params", &params).bind("partials", partials);
        Self::bind_io(&kernel, dispatch, (input, None), &wide, hooks)
            .invocations(groups as u64 * self.wg as u64)
            .record(commands)
    }

    /// Records scanning `n` elements of `input` into `output`, each tile starting from
    /// `carries[tile]` when given.
    pub(super) fn record_scan_tiles(
        &self,
        commands: &mut Commands,
        op: Operation,
        (input, output, n): (&Buffer<T>, &Buffer<T>, u32),
        inclusive: bool,
        carries: Option<&Buffer<T>>,
        hooks: Hooks<'_>,
    ) -> Result<()> {
        let hooked = hooks.is_some();
        let kernel = self.kernel(
            op,
            "scan_tiles",
            self.wg,
            self.wide_store(n, hooked),
            1,
            hooked,
        )?;
        let params = self.uniforms.get(
            &self.gpu,
            [n, inclusive as u32, carries.is_some() as u32, 0],
        )?;
        let groups = n.div_ceil(self.tile()).max(1);
        let wide = self.wide(input, Some(output))?;
        let dispatch = kernel
            .bind("params", &params)
            .bind("carries", carries.unwrap_or(input));
        Self::bind_io(&kernel, dispatch, (input, Some(output)), &wide, hooks)
            .invocations(groups as u64 * self.wg as u64)
            .record(commands)
    }
}

/// `scan.wgsl` as kernel `entry` of a scan of `T` values combined by `op` is compiled in
/// `tiling` (`subgroups`: whether the device has subgroup operations), storing through
/// `output4` where `wide_store`, reading and storing through `io` where given: the one place the
/// family's blocks are chosen, for [`ScanKernels::kernel`] and the kernel variants' check.
pub(crate) fn scan_source<T: Value>(
    op: Operation,
    entry: &str,
    (tiling, subgroups): (Tiling, bool),
    wide_store: bool,
    io: Option<&shoal::Source>,
) -> Result<shoal::Source> {
    let scalar = T::SHAPE == Shape::Scalar;
    let mut blocks: Vec<(&str, shoal::Source)> = vec![
        ("value", Operation::value_block::<T>().into()),
        ("op", op.op_block::<T>(SOURCE.path(), subgroups)?),
    ];
    blocks.extend(own_blocks(
        tiling.per_invocation,
        T::SHAPE,
        wide_store,
        io.is_some() && !scalar,
    ));
    if !scalar {
        blocks.push(("wide", NARROW));
    } else if io.is_some() {
        blocks.push(("wide_input", "".into()));
    }
    if let Some(io) = io {
        blocks.push(("io", io.clone()));
    }
    match T::SHAPE {
        // A scalar keeps the `words` block as written.
        Shape::Scalar => {}
        Shape::Vector(n) => blocks.push(("words", vector_words_block(n).into())),
        // A struct cannot travel through the look-back's atomics: it has no such kernel.
        Shape::Struct => blocks.extend([("words", "".into()), ("lookback", "".into())]),
    }
    // The document's kernel keeps its own work-group size and shared memory.
    let one_subgroup = tiling.one_subgroup && entry != "scan_workgroup";
    if one_subgroup {
        blocks.push(("group", ONE_SUBGROUP_GROUP));
    } else if !subgroups {
        blocks.push(("lane", LANE_PORTABLE));
    }
    if op.ordered() {
        // In order, through the work-group scan; no commutative reduction is compiled.
        blocks.extend(ordered_fold(tiling.per_invocation));
        blocks.push(("group_reduce", "".into()));
    } else if one_subgroup {
        blocks.push(("group_reduce", ONE_SUBGROUP_REDUCE));
    } else if !subgroups {
        blocks.push(("group_reduce", GROUP_REDUCE_PORTABLE));
    }
    Ok(blocks
        .into_iter()
        .fold(SOURCE, |source, (name, text)| source.block(name, text)))
}

/// Makes sure `kept[i]` holds at least `lens[i]` elements (as `len_of` measures it), replacing or
/// adding levels made by `make`: scratch that grows to the largest input seen and is reused.
pub(crate) fn grow_levels<B>(
    kept: &mut Vec<B>,
    lens: &[u32],
    len_of: impl Fn(&B) -> u64,
    make: impl Fn(u64) -> Result<B>,
) -> Result<()> {
    for (i, &len) in lens.iter().enumerate() {
        let len = len as u64;
        match kept.get_mut(i) {
            Some(level) if len_of(level) >= len => {}
            Some(level) => *level = make(len)?,
            None => kept.push(make(len)?),
        }
    }
    Ok(())
}

/// Checks a scan's buffers: both of `gpu` (the primitive's), `output` other than `input` and at
/// least as long.
pub(crate) fn check_pair<T: Value>(
    gpu: &Gpu,
    what: &str,
    input: &Buffer<T>,
    output: &Buffer<T>,
) -> Result<u32> {
    let n = wgsl::count_u32(what, input.len())?;
    // Owners first: buffers of two devices can compare equal.
    let buffers = [named("input", input), named("output", output)];
    let why = "the kernels read one while writing the other";
    check_apart(gpu, what, &buffers, why)?;
    wgsl::at_least(&format!("{what}: output buffer"), input.len(), output.len())?;
    Ok(n)
}
