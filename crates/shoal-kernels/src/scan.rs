//! Scans (prefix sums, minima, maxima) of any length, the document's work-group scan they are
//! built on, and the [`Reduce`](crate::Reduce) that shares their up-sweep.
//!
//! - [`WorkgroupScan`]: the document's kernel (000) as it stands: 2 × WG elements per work group
//!   in shared memory, a barrier after each of the log2(2 × WG) steps, WG planned from the
//!   device (1024 on lavapipe and llvmpipe, 256 in the browser). Each block is scanned on its own.
//! - [`Scan`]: any length, two strategies ([`Strategy`]):
//!   *multi-level reduce-then-scan* (reduce tiles, scan the tile totals the same way, then scan
//!   each tile from its total's offset; work groups never wait on each other) and *single-pass
//!   decoupled look-back* (each tile publishes its total and then its inclusive prefix in one
//!   pass; a work group whose predecessor has published nothing reduces that tile itself, so
//!   nothing relies on work groups making progress concurrently).

use std::collections::HashMap;
use std::sync::Mutex;

use shoal::{Buffer, Commands, Error, Gpu, Kernel, Result};

use crate::wgsl::{self, Op, Scalar, Uniforms};

/// The WGSL of the scan family.
pub(crate) const SOURCE: shoal::Source = shoal::wgsl!("../../../wgsl/scan.wgsl");

/// Elements each invocation of the coarsened kernels owns, unless chosen otherwise: enough that a
/// software adapter pays its barriers once per 4096 elements (with 256 invocations).
pub(crate) const PER: u32 = 16;

/// The most elements an invocation holds in registers.
pub const MAX_COARSENING: u32 = 64;

/// How the coarsened scan and reduce kernels cut their input into tiles, one per work group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tiling {
    /// Elements each invocation loads, holds in registers and stores (1 to [`MAX_COARSENING`]).
    pub per_invocation: u32,
    /// Work groups of exactly one subgroup, which share values with subgroup operations and
    /// never wait at a barrier (needs [`Gpu::subgroup_size`]); otherwise work groups of up to 256
    /// invocations, sharing values through shared memory.
    pub one_subgroup: bool,
}

impl Tiling {
    /// What Shoal picks for `gpu`: one-subgroup work groups of 32 elements per invocation where
    /// the subgroup size is fixed (on lavapipe a barrier costs more than the loads around it),
    /// else 16 elements per invocation in work groups of up to 256.
    pub fn for_gpu(gpu: &Gpu) -> Self {
        match Self::one_subgroup_size(gpu) {
            Some(s) if s >= 4 => Self {
                per_invocation: 32,
                one_subgroup: true,
            },
            _ => Self {
                per_invocation: PER,
                one_subgroup: false,
            },
        }
    }

    /// The work-group size of one-subgroup tiles: the device's fixed subgroup size, where it has
    /// one and may run a work group that large.
    fn one_subgroup_size(gpu: &Gpu) -> Option<u32> {
        gpu.subgroup_size()
            .filter(|&s| s <= gpu.max_workgroup_1d(1024))
    }

    /// [`one_subgroup_size`](Self::one_subgroup_size), or the typed error of `source`'s kernels
    /// asking for one-subgroup tiles on a device without them.
    pub(crate) fn one_subgroup_workgroup(gpu: &Gpu, source: &shoal::Source) -> Result<u32> {
        Self::one_subgroup_size(gpu).ok_or_else(|| Error::MissingFeature {
            kernel: source.path().to_string(),
            feature: "SUBGROUP with one fixed subgroup size (for one-subgroup tiles)".into(),
            adapter: gpu.adapter_details().to_string(),
        })
    }

    /// The same tiling with `per` elements per invocation.
    pub fn with_per_invocation(mut self, per: u32) -> Self {
        self.per_invocation = per;
        self
    }
}

/// How a [`Scan`] crosses work groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    /// [`Strategy::LookBack`] when the input spans more than one tile (it reads the input once
    /// and was the faster of the two on every adapter measured: lavapipe, llvmpipe GL,
    /// SwiftShader), else one dispatch of the multi-level kernels (the two are the same for one
    /// tile).
    #[default]
    Auto,
    /// Reduce tiles, scan their totals (recursively), scan tiles from their offsets:
    /// 2 + 2 × (levels − 1) dispatches, input read twice, no work group waits for another.
    MultiLevel,
    /// One dispatch: tiles numbered in start order publish their total and inclusive prefix (flag
    /// and value in the same atomic words); a work group looks back over its predecessors and
    /// computes any missing total from the input itself rather than wait.
    LookBack,
}

/// What a [`Scan`] computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ScanSpec {
    /// The operation.
    pub op: Op,
    /// Inclusive (`out[i]` includes `in[i]`) or exclusive (starts with the identity).
    pub inclusive: bool,
    /// How to cross work groups.
    pub strategy: Strategy,
}

impl ScanSpec {
    /// An inclusive scan with `op`.
    pub fn inclusive(op: Op) -> Self {
        Self {
            op,
            inclusive: true,
            strategy: Strategy::Auto,
        }
    }

    /// An exclusive scan with `op`.
    pub fn exclusive(op: Op) -> Self {
        Self {
            op,
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

/// A compiled kernel of the family: operation, entry point, work-group size, wide stores.
type KernelKey = (Op, &'static str, u32, bool);

/// A buffer of `T` seen as vec4s for `input4`, and one for `output4`.
type Wide<T> = (Buffer<<T as Scalar>::Vec4>, Buffer<<T as Scalar>::Vec4>);

/// One level of the multi-level scan: its length, its tile totals and their scan.
type Level<T> = (u32, Buffer<T>, Buffer<T>);

/// The kernels of `scan.wgsl` for one element type, compiled per operation on first use.
#[derive(Debug)]
pub(crate) struct ScanKernels<T: Scalar> {
    gpu: Gpu,
    wg: u32,
    tiling: Tiling,
    subgroups: bool,
    kernels: Mutex<HashMap<KernelKey, Kernel>>,
    /// Bound as `input4` and `output4` for buffers too short to hold one vec4.
    stand_ins: Mutex<Option<[Buffer<T::Vec4>; 2]>>,
    pub(crate) uniforms: Uniforms,
    _element: std::marker::PhantomData<fn() -> T>,
}

impl<T: Scalar> ScanKernels<T> {
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
            Tiling::one_subgroup_workgroup(gpu, &SOURCE)?
        } else {
            wgsl::plan_workgroup(gpu, 256)
        };
        Ok(Self {
            gpu: gpu.clone(),
            wg,
            tiling,
            subgroups: gpu.has_subgroups(),
            kernels: Mutex::new(HashMap::new()),
            stand_ins: Mutex::new(None),
            uniforms: Uniforms::default(),
            _element: std::marker::PhantomData,
        })
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
        let view = |b: &Buffer<T>, stand_in: Buffer<T::Vec4>| {
            let v = b.view_as::<T::Vec4>();
            if v.is_empty() { stand_in } else { v }
        };
        Ok((
            view(input, read),
            output.map_or(write.clone(), |o| view(o, write)),
        ))
    }

    /// Whether a scan of `n` elements stores through `output4` (see [`own_block`]).
    fn wide_store(&self, n: u32) -> bool {
        self.tiling.per_invocation.is_multiple_of(4) && n.is_multiple_of(4) && n >= 4
    }

    /// Binds `output` and the views of [`wide`](Self::wide) as `input4` and `output4`, each
    /// where `kernel` uses it (a kernel variant stores through one of `output`, `output4`).
    fn bind_io<'a>(
        kernel: &Kernel,
        mut dispatch: shoal::Dispatch<'a>,
        output: Option<&'a Buffer<T>>,
        (input4, output4): &'a Wide<T>,
    ) -> shoal::Dispatch<'a> {
        let uses = |name: &str| kernel.reflection().bindings.iter().any(|b| b.name == name);
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

    /// The lengths of the levels above `n` elements: each level holds the tile totals of the one
    /// below, until one tile is left.
    pub(crate) fn level_lens(&self, n: u32) -> Vec<u32> {
        let tile = self.tile();
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

    /// Entry point `entry` for `op`, with `wg` invocations per work group.
    pub(crate) fn kernel(
        &self,
        op: Op,
        entry: &'static str,
        wg: u32,
        wide_store: bool,
    ) -> Result<Kernel> {
        let key = (op, entry, wg, wide_store);
        if let Some(k) = self.kernels.lock().map_err(|_| wgsl::poisoned())?.get(&key) {
            return Ok(k.clone());
        }
        let op_text = op.wgsl::<T>(self.subgroups);
        let own_text = own_block(self.tiling.per_invocation, wide_store);
        let mut blocks: Vec<(&str, &str)> = vec![("op", &op_text), ("own", &own_text)];
        // The document's kernel keeps its own work-group size and shared memory.
        if self.tiling.one_subgroup && entry != "scan_workgroup" {
            blocks.push(("group_reduce", ONE_SUBGROUP_REDUCE));
            blocks.push(("group", ONE_SUBGROUP_GROUP));
        } else if !self.subgroups {
            blocks.push(("lane", wgsl::LANE_PORTABLE));
            blocks.push(("group_reduce", GROUP_REDUCE_PORTABLE));
        }
        let source = blocks.into_iter().fold(SOURCE, |source, (name, text)| {
            source.block(name, text.to_string())
        });
        let kernel = wgsl::builder(&self.gpu, source)
            .entry(entry)
            .constant("WG", wg)
            .build()?;
        self.kernels
            .lock()
            .map_err(|_| wgsl::poisoned())?
            .insert(key, kernel.clone());
        Ok(kernel)
    }

    /// Records `partials[t] = reduce(tile t of input)` for every tile of `n` elements.
    pub(crate) fn record_reduce_tiles(
        &self,
        commands: &mut Commands,
        op: Op,
        input: &Buffer<T>,
        n: u32,
        partials: &Buffer<T>,
    ) -> Result<()> {
        let kernel = self.kernel(op, "reduce_tiles", self.wg, false)?;
        let params = self.uniforms.get(&self.gpu, [n, 0, 0, 0])?;
        let groups = n.div_ceil(self.tile()).max(1);
        let wide = self.wide(input, None)?;
        let dispatch = kernel
            .bind("params", &params)
            .bind("input", input)
            .bind("partials", partials);
        Self::bind_io(&kernel, dispatch, None, &wide)
            .invocations(groups as u64 * self.wg as u64)
            .record(commands)
    }

    /// Records scanning `n` elements of `input` into `output`, each tile starting from
    /// `carries[tile]` when given.
    fn record_scan_tiles(
        &self,
        commands: &mut Commands,
        op: Op,
        (input, output): (&Buffer<T>, &Buffer<T>),
        n: u32,
        inclusive: bool,
        carries: Option<&Buffer<T>>,
    ) -> Result<()> {
        let kernel = self.kernel(op, "scan_tiles", self.wg, self.wide_store(n))?;
        let params = self.uniforms.get(
            &self.gpu,
            [n, inclusive as u32, carries.is_some() as u32, 0],
        )?;
        let groups = n.div_ceil(self.tile()).max(1);
        let wide = self.wide(input, Some(output))?;
        let dispatch = kernel
            .bind("params", &params)
            .bind("input", input)
            .bind("carries", carries.unwrap_or(input));
        Self::bind_io(&kernel, dispatch, Some(output), &wide)
            .invocations(groups as u64 * self.wg as u64)
            .record(commands)
    }
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

/// The `own` block of `scan.wgsl` for `per` elements per invocation: `load_own` and `store_own`
/// unrolled, so that every index into the private array `own` is a constant and the array lives
/// in registers (a software adapter's compiler turns a dynamically indexed array into per-lane
/// memory accesses). Whole chunks load as vec4s when `per` is a multiple of 4; a chunk cut by the
/// end of the input loads element by element. Stores go through `output4` only when
/// `wide_store` (then `n` is a multiple of 4) and through `output` otherwise, never both: WebGPU
/// refuses one buffer bound writable twice in a dispatch.
fn own_block(per: u32, wide_store: bool) -> String {
    const LANES: [&str; 4] = ["x", "y", "z", "w"];
    let wide = per.is_multiple_of(4);
    let mut lines = vec![
        format!("const PER: u32 = {per}u;"),
        "fn own_start(tile: u32, id: u32) -> u32 { return (tile * WG + id) * PER; }".into(),
        "fn load_own(tile: u32, id: u32) -> T {".into(),
        "    let start = own_start(tile, id);".into(),
        "    var acc = identity();".into(),
        "    if start + PER <= params.n {".into(),
    ];
    for j in 0..per {
        let x = if wide {
            if j % 4 == 0 {
                lines.push(format!(
                    "        let v{} = input4[start / 4u + {}u];",
                    j / 4,
                    j / 4
                ));
            }
            format!("v{}.{}", j / 4, LANES[j as usize % 4])
        } else {
            format!("input[start + {j}u]")
        };
        lines.push(format!("        acc = combine(acc, {x}); own[{j}] = acc;"));
    }
    lines.push("    } else {".into());
    for j in 0..per {
        lines.push(format!(
            "        if start + {j}u < params.n {{ acc = combine(acc, input[start + {j}u]); }} own[{j}] = acc;"
        ));
    }
    lines.extend([
        "    }".into(),
        "    return acc;".into(),
        "}".into(),
        "fn store_own(tile: u32, id: u32, prefix: T) {".into(),
        "    let start = own_start(tile, id);".into(),
        "    let inclusive = params.inclusive != 0u;".into(),
    ]);
    // Element j of the result: prefix ⊕ own[j] inclusive, prefix ⊕ own[j - 1] exclusive.
    let value = |j: u32| {
        let inclusive = format!("combine(prefix, own[{j}])");
        let exclusive = match j {
            0 => "prefix".to_string(),
            _ => format!("combine(prefix, own[{}])", j - 1),
        };
        format!("select({exclusive}, {inclusive}, inclusive)")
    };
    if wide_store {
        // n is a multiple of 4 here, so even a chunk cut by the end holds whole vec4s.
        for k in 0..per / 4 {
            let v: Vec<String> = (4 * k..4 * k + 4).map(value).collect();
            lines.push(format!(
                "    if start + {}u <= params.n {{ output4[start / 4u + {k}u] = vec4<T>({}); }}",
                4 * k + 4,
                v.join(", ")
            ));
        }
    } else {
        for j in 0..per {
            lines.push(format!(
                "    if start + {j}u < params.n {{ output[start + {j}u] = {}; }}",
                value(j)
            ));
        }
    }
    lines.push("}".into());
    lines.join("\n")
}

/// The `group_reduce` block of a work group that is one subgroup.
const ONE_SUBGROUP_REDUCE: &str =
    "fn group_reduce(x: T, lane: Lane) -> T { return subgroup_combine(x); }";

/// The `group` block of a work group that is one subgroup (WG = the subgroup size): elements are
/// ordered by subgroup lane, the scan is Hillis-Steele over subgroup shuffles, and nothing
/// waits at a barrier.
const ONE_SUBGROUP_GROUP: &str = "fn rank(lane: Lane) -> u32 { return lane.sg_id; }
fn group_scan(x: T, lane: Lane) -> T {
    var inclusive = x;
    for (var d = 1u; d < WG; d <<= 1u) {
        let below = subgroupShuffleUp(inclusive, d);
        if lane.sg_id >= d {
            inclusive = combine(below, inclusive);
        }
    }
    group_total = subgroupShuffle(inclusive, WG - 1u);
    let before = subgroupShuffleUp(inclusive, 1u);
    return select(before, identity(), lane.sg_id == 0u);
}
fn first_u32(x: u32, lane: Lane) -> u32 { return subgroupBroadcast(x, 0u); }
fn first_t(x: T, lane: Lane) -> T { return subgroupBroadcast(x, 0u); }
fn group_sync() {}";

/// The portable `group_reduce` block: a tree in shared memory, log2(WG) barriers.
const GROUP_REDUCE_PORTABLE: &str = "fn group_reduce(x: T, lane: Lane) -> T {
    shared_data[lane.id] = x;
    workgroupBarrier();
    for (var s = WG / 2u; s > 0u; s >>= 1u) {
        if lane.id < s {
            shared_data[lane.id] = combine(shared_data[lane.id], shared_data[lane.id + s]);
        }
        workgroupBarrier();
    }
    let total = shared_data[0];
    workgroupBarrier();
    return total;
}";

/// Checks a scan's buffers: `output` other than `input` and at least as long.
pub(crate) fn check_pair<T: Scalar>(
    what: &str,
    input: &Buffer<T>,
    output: &Buffer<T>,
) -> Result<u32> {
    let n = wgsl::count_u32(what, input.len())?;
    if input.raw() == output.raw() {
        return Err(Error::BindingKind {
            kernel: what.to_string(),
            binding: "output".into(),
            expected:
                "a buffer other than the input (the kernels read one while writing the other)"
                    .into(),
            got: "the input buffer itself".into(),
        });
    }
    wgsl::at_least(&format!("{what}: output buffer"), input.len(), output.len())?;
    Ok(n)
}

/// Scans of any length: inclusive or exclusive, sum, min or max, of `u32`, `i32` or `f32`.
///
/// Compiles its kernels on first use of each operation and keeps its scratch buffers, so build
/// one and run it many times. Every run can be recorded into a [`Commands`] batch with other
/// work ([`Scan::record`]), or submitted on its own ([`Scan::run`]).
#[derive(Debug)]
pub struct Scan<T: Scalar> {
    kernels: ScanKernels<T>,
    /// Per level of the multi-level scan: tile totals and their scan.
    levels: Mutex<Vec<(Buffer<T>, Buffer<T>)>>,
    /// The look-back's tile counter and tile states.
    state: Mutex<Option<Buffer<u32>>>,
}

impl<T: Scalar> Scan<T> {
    /// A scan for `gpu`, tiled as [`Tiling::for_gpu`] plans: the work-group size from its limits
    /// and subgroup size, subgroup operations where it has them.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Self::with_tiling(gpu, Tiling::for_gpu(gpu))
    }

    /// A scan whose invocations own `per` elements each (1 to [`MAX_COARSENING`]), otherwise
    /// tiled as for the device: smaller tiles mean more work groups and more levels for the same
    /// input, which is how the tests cross thousands of work groups cheaply.
    pub fn with_coarsening(gpu: &Gpu, per: u32) -> Result<Self> {
        Self::with_tiling(gpu, Tiling::for_gpu(gpu).with_per_invocation(per))
    }

    /// A scan with `tiling` forced (a typed error where the device cannot run it).
    pub fn with_tiling(gpu: &Gpu, tiling: Tiling) -> Result<Self> {
        Ok(Self {
            kernels: ScanKernels::new(gpu, tiling)?,
            levels: Mutex::new(Vec::new()),
            state: Mutex::new(None),
        })
    }

    /// Elements per tile (one work group's share): WG × elements per invocation.
    pub fn tile(&self) -> u32 {
        self.kernels.tile()
    }

    /// The strategy `spec` resolves to for `n` elements: [`Strategy::Auto`] takes the look-back
    /// for inputs of more than one tile, else the multi-level kernels (one dispatch).
    pub fn strategy_for(&self, spec: ScanSpec, n: u64) -> Strategy {
        match spec.strategy {
            Strategy::Auto if n > self.tile() as u64 => Strategy::LookBack,
            Strategy::Auto => Strategy::MultiLevel,
            forced => forced,
        }
    }

    /// Records the scan of every element of `input` into the first `input.len()` elements of
    /// `output`, after what `commands` already holds.
    pub fn record(
        &self,
        commands: &mut Commands,
        input: &Buffer<T>,
        output: &Buffer<T>,
        spec: ScanSpec,
    ) -> Result<()> {
        let n = check_pair("scan", input, output)?;
        if n == 0 {
            return Ok(());
        }
        match self.strategy_for(spec, n as u64) {
            Strategy::LookBack => self.record_lookback(commands, input, output, n, spec),
            _ => self.record_multilevel(commands, input, output, n, spec),
        }
    }

    /// Scans `input` into `output` and submits the work (await [`shoal::Submission::wait`] or
    /// simply read `output`, which waits).
    pub fn run(
        &self,
        input: &Buffer<T>,
        output: &Buffer<T>,
        spec: ScanSpec,
    ) -> Result<shoal::Submission> {
        let mut commands = self.kernels.gpu().commands();
        self.record(&mut commands, input, output, spec)?;
        commands.submit()
    }

    /// The multi-level scratch for `n` elements: per level above the input, its tile totals and
    /// their scan, grown as needed and kept.
    fn levels_for(&self, n: u32) -> Result<Vec<Level<T>>> {
        let lens = self.kernels.level_lens(n);
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

    fn record_multilevel(
        &self,
        commands: &mut Commands,
        input: &Buffer<T>,
        output: &Buffer<T>,
        n: u32,
        spec: ScanSpec,
    ) -> Result<()> {
        let k = &self.kernels;
        let levels = self.levels_for(n)?;
        let Some((top_len, top_partials, top_offsets)) = levels.last() else {
            return k.record_scan_tiles(
                commands,
                spec.op,
                (input, output),
                n,
                spec.inclusive,
                None,
            );
        };
        // Up: the totals of each level's tiles become the next level.
        let mut below = (input, n);
        for (len, partials, _) in &levels {
            k.record_reduce_tiles(commands, spec.op, below.0, below.1, partials)?;
            below = (partials, *len);
        }
        // Top: one tile, scanned exclusively into offsets.
        k.record_scan_tiles(
            commands,
            spec.op,
            (top_partials, top_offsets),
            *top_len,
            false,
            None,
        )?;
        // Down: each level's tiles start from the offsets of the level above.
        for i in (0..levels.len() - 1).rev() {
            let (len, partials, offsets) = &levels[i];
            k.record_scan_tiles(
                commands,
                spec.op,
                (partials, offsets),
                *len,
                false,
                Some(&levels[i + 1].2),
            )?;
        }
        k.record_scan_tiles(
            commands,
            spec.op,
            (input, output),
            n,
            spec.inclusive,
            Some(&levels[0].2),
        )
    }

    fn record_lookback(
        &self,
        commands: &mut Commands,
        input: &Buffer<T>,
        output: &Buffer<T>,
        n: u32,
        spec: ScanSpec,
    ) -> Result<()> {
        let k = &self.kernels;
        let tiles = n.div_ceil(self.tile());
        let words = 1 + 4 * tiles as u64;
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
        let kernel = k.kernel(spec.op, "scan_lookback", k.workgroup(), k.wide_store(n))?;
        let params = k
            .uniforms
            .get(k.gpu(), [n, spec.inclusive as u32, 0, tiles])?;
        let wide = k.wide(input, Some(output))?;
        let dispatch = kernel
            .bind("params", &params)
            .bind("input", input)
            .bind("tile_state", &state);
        ScanKernels::<T>::bind_io(&kernel, dispatch, Some(output), &wide)
            .invocations(tiles as u64 * k.workgroup() as u64)
            .record(commands)
    }
}

/// The document's work-group scan (000), as it stands: each block of 2 × WG elements is scanned
/// on its own in shared memory, with WG the largest power of two the device allows up to 1024.
#[derive(Debug)]
pub struct WorkgroupScan<T: Scalar> {
    kernels: ScanKernels<T>,
    wg: u32,
}

impl<T: Scalar> WorkgroupScan<T> {
    /// The kernel planned for `gpu`.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Ok(Self {
            kernels: ScanKernels::new(
                gpu,
                Tiling {
                    per_invocation: PER,
                    one_subgroup: false,
                },
            )?,
            wg: wgsl::plan_workgroup(gpu, 1024),
        })
    }

    /// Elements per block: 2 × WG (2048 where 1024 invocations are allowed, as in the document).
    pub fn block(&self) -> u32 {
        2 * self.wg
    }

    /// Records the scan of each block of `input` into `output`.
    pub fn record(
        &self,
        commands: &mut Commands,
        input: &Buffer<T>,
        output: &Buffer<T>,
        op: Op,
        inclusive: bool,
    ) -> Result<()> {
        let n = check_pair("workgroup scan", input, output)?;
        if n == 0 {
            return Ok(());
        }
        let kernel = self.kernels.kernel(op, "scan_workgroup", self.wg, false)?;
        let params = self
            .kernels
            .uniforms
            .get(self.kernels.gpu(), [n, inclusive as u32, 0, 0])?;
        kernel
            .bind("params", &params)
            .bind("input", input)
            .bind("output", output)
            .invocations(n.div_ceil(self.block()) as u64 * self.wg as u64)
            .record(commands)
    }

    /// Scans each block and submits.
    pub fn run(
        &self,
        input: &Buffer<T>,
        output: &Buffer<T>,
        op: Op,
        inclusive: bool,
    ) -> Result<shoal::Submission> {
        let mut commands = self.kernels.gpu().commands();
        self.record(&mut commands, input, output, op, inclusive)?;
        commands.submit()
    }
}

/// The CPU twin of [`Scan`]: the document's sequential `prefixSum`, generic over the operation.
pub fn scan_cpu<T: Scalar>(input: &[T], op: Op, inclusive: bool) -> Vec<T> {
    let mut acc = op.identity::<T>();
    input
        .iter()
        .map(|&x| {
            let before = acc;
            acc = op.apply(acc, x);
            if inclusive { acc } else { before }
        })
        .collect()
}

/// The CPU twin of [`WorkgroupScan`]: each block of `block` elements scanned on its own.
pub fn workgroup_scan_cpu<T: Scalar>(input: &[T], block: usize, op: Op, inclusive: bool) -> Vec<T> {
    input
        .chunks(block.max(1))
        .flat_map(|c| scan_cpu(c, op, inclusive))
        .collect()
}
