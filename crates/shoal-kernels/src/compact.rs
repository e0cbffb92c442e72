//! [`Compact`]: stream compaction of `u32` values by a flag buffer or a WGSL predicate, stable,
//! with the count left on the GPU beside ready-made indirect-dispatch arguments, so the next
//! kernel can run over exactly the kept elements with no readback in between; unique and the
//! stable two-way partition are compactions by predicates.
//!
//! A compaction is one [`Scan`] of the kept flags (an inclusive sum), whose `io` block
//! (`wgsl/compact.wgsl`) tests each element as it loads it and stores each where its count says:
//! one pass over the input, like the scan, on the scan's tiles for the adapter.

use shoal::{Buffer, Commands, DispatchArgs, Gpu, Result, Usage};

use crate::buffers::{check_apart, check_disjoint, named};
use crate::scan::{Scan, ScanSpec, Tiling};
use crate::wgsl::{self, Op, Scratch, Uniforms};

/// The `io` block of the scan's kernels (`wgsl/compact.wgsl`, a snippet of [`crate::SNIPPETS`]),
/// after a `keep` function.
const IO: &str = "#import compact::io";
/// The `keep` and `keep4` functions of a compaction by flags.
const KEEP_FLAGS: &str = "fn keep(x: u32, i: u32) -> bool {
    return flags[i] != 0u;
}
fn keep4(q: u32) -> vec4<bool> {
    return flags4[q] != vec4(0u);
}";

/// `keep` and `keep4` for a predicate `expression` over `x` and `i`.
fn keep_predicate(expression: &str) -> String {
    format!(
        "fn keep(x: u32, i: u32) -> bool {{
    return {expression};
}}
fn keep4(q: u32) -> vec4<bool> {{
    let x = values4[q];
    let i = 4u * q;
    return vec4(keep(x.x, i), keep(x.y, i + 1u), keep(x.z, i + 2u), keep(x.w, i + 3u));
}}"
    )
}

/// The scan that compacts by `keep` (WGSL defining `fn keep(x: u32, i: u32) -> bool`), tiled as
/// `tiling`; its kernel for the smallest inputs compiled now, so a WGSL error in `keep` is
/// returned here.
fn compaction_scan(gpu: &Gpu, tiling: Tiling, path: String, keep: &str) -> Result<Scan<u32>> {
    let scan = Scan::with_io(gpu, tiling, compaction_io(path, keep))?;
    scan.prepare_hooked(ScanSpec::inclusive(Op::Sum))?;
    Ok(scan)
}

/// The `io` block of a compaction by `keep`, shown in messages as `path`.
fn compaction_io(path: String, keep: &str) -> shoal::Source {
    shoal::Source::new(path, format!("{keep}\n{IO}"))
}

/// The sources a compaction compiles on a device described by `profile` (by flags, and by a
/// predicate), for the kernel variants' check.
pub(crate) fn variants(profile: &shoal::DeviceProfile) -> Result<Vec<(String, shoal::Source)>> {
    let tiling = Tiling::plan(profile);
    let keeps = [
        ("flags", KEEP_FLAGS.to_string()),
        ("predicate `x % 2u == 0u`", keep_predicate("x % 2u == 0u")),
    ];
    keeps
        .into_iter()
        .map(|(what, keep)| {
            let io = compaction_io(format!("compaction by {what}"), &keep);
            let source = crate::scan::scan_source::<u32>(
                Op::Sum.into(),
                "scan_tiles",
                (tiling, profile.subgroups),
                false,
                Some(&io),
            )?;
            Ok((format!("{tiling:?}, by {what}"), source))
        })
        .collect()
}

/// Which elements to keep.
#[derive(Debug, Clone, Copy)]
pub enum Keep<'a> {
    /// Where `flags[i] != 0` (a `u32` per element).
    Flags(&'a Buffer<u32>),
    /// Where a predicate holds, created with [`Compact::predicate`].
    Predicate(&'a Predicate),
}

/// A predicate and its negation, for [`Compact::record_partition`].
#[derive(Debug, Clone)]
pub struct Partition {
    keep: Predicate,
    reject: Predicate,
}

/// A WGSL predicate over a `u32` named `x`, e.g. `x % 3u == 0u`, compiled once.
#[derive(Debug, Clone)]
pub struct Predicate {
    expression: String,
    scan: std::sync::Arc<Scan<u32>>,
}

/// The count and the indirect arguments a compaction leaves on the GPU.
///
/// Layout: `[count, x, y, z]`: bind it whole to read the count in a kernel, and pass it to
/// [`shoal::Dispatch::indirect`] at [`CompactCount::ARGS_OFFSET`] to run one invocation per kept
/// element (x folds over y beyond the device's group limit: rebuild the index with
/// `shoal_linear_index` and check it against the count). Either way no group runs when nothing
/// is kept: an empty input leaves `[0, 0, 0, 0]`, an input of which nothing is kept
/// `[0, 0, 1, 1]`.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{Compact, CompactCount, Keep};
/// let gpu = shoal::Gpu::blocking()?;
/// let values = gpu.buffer_from(&(0..100).collect::<Vec<u32>>())?;
/// let (kept, count) = (gpu.buffer_zeroed::<u32>(100)?, CompactCount::new(&gpu)?);
/// let compact = Compact::new(&gpu)?;
/// compact.run(&values, Keep::Predicate(&compact.predicate("x >= 90u")?), &kept, &count, 0)?;
/// assert_eq!(pollster::block_on(count.read())?, 10); // also on the GPU, for an indirect dispatch
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct CompactCount {
    /// `[count, x, y, z]`, with `Usage::STORAGE | Usage::INDIRECT`: at least
    /// [`CompactCount::LEN`] `u32`s (a shorter one is refused when recorded).
    pub buffer: Buffer<u32>,
}

impl CompactCount {
    /// Byte offset of the `DispatchArgs` in [`CompactCount::buffer`].
    pub const ARGS_OFFSET: u64 = 4;

    /// The `u32`s [`CompactCount::buffer`] holds at least: the count and the three dispatch
    /// arguments. A shorter buffer is an [`shoal::Error::Length`] when a compaction (or
    /// reduce-by-key, or run-length encoding) that would write it is recorded.
    pub const LEN: u64 = 4;

    /// An [`shoal::Error::Length`] naming `kernel` unless the buffer holds the count and the
    /// dispatch arguments ([`CompactCount::LEN`] `u32`s): the kernels would drop the arguments
    /// of a shorter one, and [`read_args`](Self::read_args) fail later.
    pub(crate) fn check(&self, kernel: &str) -> Result<()> {
        wgsl::at_least(
            &format!("{kernel}: the CompactCount's buffer ([count, x, y, z], 4 u32s)"),
            Self::LEN,
            self.buffer.len(),
        )
    }

    /// A count buffer for `gpu`.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Ok(Self {
            buffer: gpu.buffer_zeroed_with::<u32>(Self::LEN, Usage::STORAGE | Usage::INDIRECT)?,
        })
    }

    /// Reads the count back (a synchronisation point: use only where the host needs it).
    pub async fn read(&self) -> Result<u32> {
        Ok(self
            .buffer
            .read_range(0..1)
            .await?
            .first()
            .copied()
            .unwrap_or(0))
    }

    /// Reads the indirect arguments back.
    pub async fn read_args(&self) -> Result<DispatchArgs> {
        let v = self.buffer.read_range(1..4).await?;
        Ok(DispatchArgs::new(v[0], v[1], v[2]))
    }
}

/// Stream compaction: one scan of the kept flags that stores each kept value at its count.
///
/// The whole output is written: the kept values in order at the front, then the rejected ones,
/// the last first (every element is stored unconditionally, at one place or the other: a
/// software adapter pays for a branch in every lane whether it is taken or not).
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{Compact, CompactCount, Keep, compact_cpu};
/// let gpu = shoal::Gpu::blocking()?;
/// let data: Vec<u32> = (0..1000).map(|i| i * 7 % 31).collect();
/// let values = gpu.buffer_from(&data)?;
/// let (kept, count) = (gpu.buffer_zeroed::<u32>(1000)?, CompactCount::new(&gpu)?);
/// let compact = Compact::new(&gpu)?;
/// let odd = compact.predicate("x % 2u == 1u")?; // a WGSL expression over `x`
/// compact.run(&values, Keep::Predicate(&odd), &kept, &count, 0)?;
/// let cpu = compact_cpu(&data, |x, _| x % 2 == 1);
/// let out = kept.read_blocking()?;
/// assert_eq!(out[..cpu.len()], cpu[..]);
/// assert_eq!(out[999], 0); // the first even value, rejected, is last
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Compact {
    gpu: Gpu,
    tiling: Tiling,
    flags: Scan<u32>,
    uniforms: Uniforms,
    scratch: Scratch,
}

impl Compact {
    /// The `Gpu` the compaction runs on.
    pub(crate) fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// How many kernels the flags' scan has compiled so far (for the warm-up's tests).
    #[cfg(test)]
    pub(crate) fn kernels_built(&self) -> usize {
        self.flags.kernels_built()
    }

    /// Compaction for `gpu`, tiled as its [`Scan`]'s ([`Tiling::for_gpu`]), with the flag
    /// kernels compiled.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Self::with_tiling(gpu, Tiling::for_gpu(gpu))
    }

    /// Compaction with `tiling` forced: smaller tiles cross more work groups for the same input.
    /// A tiling the device cannot run is a typed error, as for [`Scan::with_tiling`].
    pub fn with_tiling(gpu: &Gpu, tiling: Tiling) -> Result<Self> {
        Ok(Self {
            gpu: gpu.clone(),
            tiling,
            flags: compaction_scan(gpu, tiling, "compaction by flags".into(), KEEP_FLAGS)?,
            uniforms: Uniforms::default(),
            scratch: Scratch::default(),
        })
    }

    /// Compiles a predicate: `expression` is WGSL of type `bool` over `x: u32` (the value) and
    /// `i: u32` (its index). A WGSL error in it is an [`shoal::Error::Wgsl`] naming the line.
    pub fn predicate(&self, expression: &str) -> Result<Predicate> {
        let keep = keep_predicate(expression);
        let path = format!("predicate `{expression}`");
        Ok(Predicate {
            expression: expression.to_string(),
            scan: std::sync::Arc::new(compaction_scan(&self.gpu, self.tiling, path, &keep)?),
        })
    }

    /// The predicate of unique: keeps the first value of every run of equal consecutive values
    /// (on sorted input, each distinct value once).
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// use shoal_kernels::{Compact, CompactCount, Keep};
    /// let gpu = shoal::Gpu::blocking()?;
    /// let values = gpu.buffer_from(&[1u32, 1, 2, 3, 3, 3, 1])?;
    /// let (out, count, compact) = (gpu.buffer_zeroed::<u32>(7)?, CompactCount::new(&gpu)?, Compact::new(&gpu)?);
    /// compact.run(&values, Keep::Predicate(&compact.unique()?), &out, &count, 0)?;
    /// assert_eq!(out.read_blocking()?[..4], [1, 2, 3, 1]);
    /// # Ok(()) }
    /// ```
    pub fn unique(&self) -> Result<Predicate> {
        self.predicate("i == 0u || x != values[i - 1u]")
    }

    /// A stable two-way partition by `expression` (WGSL over `x` and `i`, as in
    /// [`predicate`](Self::predicate)): the predicate and its negation, compiled once.
    pub fn partition(&self, expression: &str) -> Result<Partition> {
        Ok(Partition {
            keep: self.predicate(expression)?,
            reject: self.predicate(&format!("!({expression})"))?,
        })
    }

    /// Records partitioning `values`: those where `partition` holds into the front of `kept`,
    /// the others into the front of `rejected`, each in input order, with their counts (and
    /// indirect arguments for a next kernel of `next_workgroup` invocations per group).
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// use shoal_kernels::{Compact, CompactCount};
    /// let gpu = shoal::Gpu::blocking()?;
    /// let values = gpu.buffer_from(&[5u32, 12, 7, 30, 1])?;
    /// let compact = Compact::new(&gpu)?;
    /// let small = compact.partition("x < 10u")?;
    /// let (kept, rejected) = (gpu.buffer_zeroed::<u32>(5)?, gpu.buffer_zeroed::<u32>(5)?);
    /// let counts = (CompactCount::new(&gpu)?, CompactCount::new(&gpu)?);
    /// let mut commands = gpu.commands();
    /// compact.record_partition(&mut commands, &values, &small, (&kept, &rejected), (&counts.0, &counts.1), 0)?;
    /// commands.submit()?;
    /// assert_eq!(kept.read_blocking()?[..3], [5, 7, 1]);
    /// assert_eq!(rejected.read_blocking()?[..2], [12, 30]);
    /// # Ok(()) }
    /// ```
    pub fn record_partition(
        &self,
        commands: &mut Commands,
        values: &Buffer<u32>,
        partition: &Partition,
        (kept, rejected): (&Buffer<u32>, &Buffer<u32>),
        (kept_count, rejected_count): (&CompactCount, &CompactCount),
        next_workgroup: u32,
    ) -> Result<()> {
        let commands = &mut commands.labelled("partition");
        // Each side is one compaction: the values, its output and its count in one dispatch, so
        // three wgpu buffers. The second clears its count and writes its output after the first
        // wrote its own: the two sides' outputs and counts may be slices of one wgpu buffer (the
        // kept values in one half, the rejected in the other), not the same memory.
        let values_ = named("values", values);
        let (k, r) = (named("kept", kept), named("rejected", rejected));
        let (kc, rc) = (
            named("kept count", &kept_count.buffer),
            named("rejected count", &rejected_count.buffer),
        );
        let why = "a side's compaction reads the values while writing its output and count";
        check_apart(&self.gpu, "partition", &[values_, k, kc], why)?;
        check_apart(&self.gpu, "partition", &[values_, r, rc], why)?;
        let why = "the second side writes its output and count after the first wrote its own";
        check_disjoint(&self.gpu, "partition", &[k, r, kc, rc], why)?;
        kept_count.check("partition: kept")?;
        rejected_count.check("partition: rejected")?;
        // Both outputs checked before either side is recorded: an error leaves the batch as it was.
        wgsl::at_least("partition: kept", values.len(), kept.len())?;
        wgsl::at_least("partition: rejected", values.len(), rejected.len())?;
        let keep = Keep::Predicate(&partition.keep);
        self.record(commands, values, keep, kept, kept_count, next_workgroup)?;
        let reject = Keep::Predicate(&partition.reject);
        self.record(
            commands,
            values,
            reject,
            rejected,
            rejected_count,
            next_workgroup,
        )
    }

    /// Records compacting `values` into the front of `output` (at least as long), keeping what
    /// `keep` says, and writing the count and the arguments for a next kernel of
    /// `next_workgroup` invocations per group into `count`. The rest of `output`'s first
    /// `values.len()` elements receives the rejected values, the last first.
    pub fn record(
        &self,
        commands: &mut Commands,
        values: &Buffer<u32>,
        keep: Keep<'_>,
        output: &Buffer<u32>,
        count: &CompactCount,
        next_workgroup: u32,
    ) -> Result<()> {
        let commands = &mut commands.labelled("compact");
        // The output and the count are written while the values (and flags) are read: all
        // apart, checked before the count's clear is recorded.
        let why = "the kernels read the values and flags while writing the output and the count";
        let outputs = [named("output", output), named("count", &count.buffer)];
        let flags = match &keep {
            Keep::Flags(f) => Some(named("flags", *f)),
            Keep::Predicate(_) => None,
        };
        for input in std::iter::once(named("values", values)).chain(flags) {
            check_apart(&self.gpu, "compact", &[input, outputs[0], outputs[1]], why)?;
        }
        let n = wgsl::count_u32("compact", values.len())?;
        wgsl::at_least("compact: output buffer", values.len(), output.len())?;
        count.check("compact")?;
        let (scan, flags) = match keep {
            Keep::Flags(f) => {
                wgsl::at_least("compact: flags buffer", values.len(), f.len())?;
                (&self.flags, f)
            }
            Keep::Predicate(p) => (&*p.scan, values),
        };
        // With nothing to scan, the count and the arguments are all zero.
        commands.clear(&count.buffer);
        let max_x = self.gpu.limits().max_compute_work_group_count[0];
        let compaction = self
            .uniforms
            .get(&self.gpu, [next_workgroup, max_x, 0, 0])?;
        let values4 = self.scratch.vec4s(&self.gpu, values)?;
        let flags4 = self.scratch.vec4s(&self.gpu, flags)?;
        let hooks: [(&'static str, &dyn shoal::Bindable); 7] = [
            ("compaction", &compaction),
            ("values", values),
            ("flags", flags),
            ("values4", &values4),
            ("flags4", &flags4),
            ("kept", output),
            ("count_args", &count.buffer),
        ];
        scan.record_hooked(commands, n, ScanSpec::inclusive(Op::Sum), &hooks)
    }

    /// Compacts and submits (the arguments of [`record`](Self::record): `next_workgroup` 0
    /// where no kernel follows); returns nothing to read until the caller reads `output` or
    /// `count`.
    pub fn run(
        &self,
        values: &Buffer<u32>,
        keep: Keep<'_>,
        output: &Buffer<u32>,
        count: &CompactCount,
        next_workgroup: u32,
    ) -> Result<shoal::Submission> {
        let mut commands = self.gpu.commands();
        self.record(&mut commands, values, keep, output, count, next_workgroup)?;
        commands.submit()
    }
}

impl Predicate {
    /// The WGSL expression.
    pub fn expression(&self) -> &str {
        &self.expression
    }
}

/// The CPU twin of [`Compact`]: the kept values in order.
pub fn compact_cpu(values: &[u32], keep: impl Fn(u32, usize) -> bool) -> Vec<u32> {
    values
        .iter()
        .enumerate()
        .filter(|&(i, &x)| keep(x, i))
        .map(|(_, &x)| x)
        .collect()
}

#[cfg(test)]
mod tests;
