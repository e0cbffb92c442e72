//! [`Compact`]: stream compaction of `u32` values by a flag buffer or a WGSL predicate, stable,
//! with the count left on the GPU beside ready-made indirect-dispatch arguments, so the next
//! kernel can run over exactly the kept elements with no readback in between; unique and the
//! stable two-way partition are compactions by predicates.
//!
//! A compaction is one [`Scan`] of the kept flags (an inclusive sum), whose `io` block
//! (`wgsl/compact.wgsl`) tests each element as it loads it and stores each where its count says:
//! one pass over the input, like the scan, on the scan's tiles for the adapter.

use shoal::{Buffer, Commands, DispatchArgs, Family, Gpu, Kernel, Record, Result, Usage};

use crate::buffers::{check_apart, check_disjoint, named};
use crate::scan::{Scan, ScanSpec, Tiling};
use crate::wgsl::{self, Op, Scratch, Uniforms};

/// The `io` block of a compaction by flags: `keep` and `keep4` read the flags, then the scan's
/// `io` block for compaction (`wgsl/compact.wgsl`, a snippet of [`crate::SNIPPETS`]).
pub(crate) const KEEP_FLAGS: shoal::Source = shoal::wgsl!("../wgsl/compact_flags.wgsl");

/// The rest of the `io` block of a compaction by a predicate, after its `keep`: `keep4` from
/// `keep`, then the scan's `io` block for compaction.
pub(crate) const KEEP_PREDICATE: shoal::Source = shoal::wgsl!("../wgsl/compact_predicate.wgsl");

/// The `io` block of a compaction by a predicate `expression` over `x` and `i`, named `path`:
/// `keep`, generated because it holds the user's expression (its errors name the line in it),
/// before [`KEEP_PREDICATE`].
fn keep_predicate(path: String, expression: &str) -> shoal::Source {
    let keep = format!("fn keep(x: u32, i: u32) -> bool {{\n    return {expression};\n}}");
    shoal::Source::new(path, format!("{keep}\n{}", KEEP_PREDICATE.text()))
}

/// The scan that compacts through `io` (an `io` block defining `fn keep(x: u32, i: u32) ->
/// bool`), tiled as `tiling`; its kernel for the smallest inputs compiled now, so a WGSL error
/// in `keep` is returned here.
fn compaction_scan(gpu: &Gpu, tiling: Tiling, io: shoal::Source) -> Result<Scan<u32>> {
    let scan = Scan::with_io(gpu, tiling, io)?;
    scan.prepare_hooked(ScanSpec::inclusive(Op::Sum))?;
    Ok(scan)
}

/// The sources a compaction compiles on a device described by `profile` (by flags, and by a
/// predicate), for the kernel variants' check.
pub(crate) fn variants(profile: &shoal::DeviceProfile) -> Result<Vec<(String, shoal::Source)>> {
    let tiling = Tiling::plan(profile);
    let expression = "x % 2u == 0u";
    let keeps = [
        ("flags", KEEP_FLAGS),
        (
            "predicate `x % 2u == 0u`",
            keep_predicate(format!("predicate `{expression}`"), expression),
        ),
    ];
    keeps
        .into_iter()
        .map(|(what, keep)| {
            let source = crate::scan::scan_source::<u32>(
                Op::Sum.into(),
                "scan_tiles",
                (tiling, profile.subgroups),
                false,
                Some(&keep),
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

/// A predicate and its negation, for a partition ([`PartitionArgs`]).
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
/// use shoal_kernels::{Compact, CompactArgs, CompactCount, Keep, Record};
/// let gpu = shoal::Gpu::blocking()?;
/// let values = gpu.buffer_from(&(0..100).collect::<Vec<u32>>())?;
/// let (kept, count) = (gpu.buffer_zeroed::<u32>(100)?, CompactCount::new(&gpu)?);
/// let compact = Compact::new(&gpu)?;
/// let keep = Keep::Predicate(&compact.predicate("x >= 90u")?);
/// compact.run(CompactArgs { values: &values, keep, output: &kept, count: &count, next_workgroup: 0 })?;
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
/// use shoal_kernels::{Compact, CompactArgs, CompactCount, Keep, Record, compact_cpu};
/// let gpu = shoal::Gpu::blocking()?;
/// let data: Vec<u32> = (0..1000).map(|i| i * 7 % 31).collect();
/// let values = gpu.buffer_from(&data)?;
/// let (kept, count) = (gpu.buffer_zeroed::<u32>(1000)?, CompactCount::new(&gpu)?);
/// let compact = Compact::new(&gpu)?;
/// let odd = compact.predicate("x % 2u == 1u")?; // a WGSL expression over `x`
/// let keep = Keep::Predicate(&odd);
/// compact.run(CompactArgs { values: &values, keep, output: &kept, count: &count, next_workgroup: 0 })?;
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
            flags: compaction_scan(gpu, tiling, KEEP_FLAGS)?,
            uniforms: Uniforms::default(),
            scratch: Scratch::default(),
        })
    }

    /// Compiles a predicate: `expression` is WGSL of type `bool` over `x: u32` (the value) and
    /// `i: u32` (its index). A WGSL error in it is an [`shoal::Error::Wgsl`] naming the line.
    pub fn predicate(&self, expression: &str) -> Result<Predicate> {
        let keep = keep_predicate(format!("predicate `{expression}`"), expression);
        Ok(Predicate {
            expression: expression.to_string(),
            scan: std::sync::Arc::new(compaction_scan(&self.gpu, self.tiling, keep)?),
        })
    }

    /// The predicate of unique: keeps the first value of every run of equal consecutive values
    /// (on sorted input, each distinct value once).
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// use shoal_kernels::{Compact, CompactArgs, CompactCount, Keep, Record};
    /// let gpu = shoal::Gpu::blocking()?;
    /// let values = gpu.buffer_from(&[1u32, 1, 2, 3, 3, 3, 1])?;
    /// let (out, count, compact) = (gpu.buffer_zeroed::<u32>(7)?, CompactCount::new(&gpu)?, Compact::new(&gpu)?);
    /// let keep = Keep::Predicate(&compact.unique()?);
    /// compact.run(CompactArgs { values: &values, keep, output: &out, count: &count, next_workgroup: 0 })?;
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
}

/// What one [`Compact`] reads and writes.
#[derive(Debug, Clone, Copy)]
pub struct CompactArgs<'a> {
    /// The values to compact.
    pub values: &'a Buffer<u32>,
    /// Which to keep: by flags or by a predicate of this [`Compact`].
    pub keep: Keep<'a>,
    /// At least as long as `values`: the kept values at the front, in order, then the rejected
    /// ones, the last first.
    pub output: &'a Buffer<u32>,
    /// Where the count of kept values and the next kernel's dispatch arguments go.
    pub count: &'a CompactCount,
    /// Invocations per work group of the kernel that runs next over the kept values (its
    /// indirect arguments in `count`); 0 where none follows.
    pub next_workgroup: u32,
}

/// What one stable two-way partition ([`Compact::partition`]) reads and writes.
#[derive(Debug, Clone, Copy)]
pub struct PartitionArgs<'a> {
    /// The values to partition.
    pub values: &'a Buffer<u32>,
    /// The predicate and its negation, from [`Compact::partition`].
    pub partition: &'a Partition,
    /// At least as long as `values`: those where the predicate holds at the front, in order.
    pub kept: &'a Buffer<u32>,
    /// At least as long as `values`: the others at the front, in order.
    pub rejected: &'a Buffer<u32>,
    /// The count of kept values and the next kernel's dispatch arguments.
    pub kept_count: &'a CompactCount,
    /// The count of rejected values and the next kernel's dispatch arguments.
    pub rejected_count: &'a CompactCount,
    /// Invocations per work group of the kernel that runs next over each side (0 where none).
    pub next_workgroup: u32,
}

impl Family for Compact {
    fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The compaction by flags' kernels compiled so far (its first is compiled with the family,
    /// the others on first use). A predicate's kernels are its own
    /// ([`Predicate::kernels`]).
    fn kernels(&self) -> Vec<&Kernel> {
        self.flags.kernels()
    }
}

impl Record<CompactArgs<'_>> for Compact {
    /// Records compacting `values` into the front of `output` (at least as long), keeping what
    /// `keep` says, and writing the count and the arguments for a next kernel of
    /// `next_workgroup` invocations per group into `count`. The rest of `output`'s first
    /// `values.len()` elements receives the rejected values, the last first.
    fn record(&self, commands: &mut Commands, args: CompactArgs<'_>) -> Result<()> {
        let CompactArgs {
            values,
            keep,
            output,
            count,
            next_workgroup,
        } = args;
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
}

impl Record<PartitionArgs<'_>> for Compact {
    /// Records partitioning `values`: those where `partition` holds into the front of `kept`,
    /// the others into the front of `rejected`, each in input order, with their counts (and
    /// indirect arguments for a next kernel of `next_workgroup` invocations per group).
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// use shoal_kernels::{Compact, CompactCount, PartitionArgs, Record};
    /// let gpu = shoal::Gpu::blocking()?;
    /// let values = gpu.buffer_from(&[5u32, 12, 7, 30, 1])?;
    /// let compact = Compact::new(&gpu)?;
    /// let small = compact.partition("x < 10u")?;
    /// let (kept, rejected) = (gpu.buffer_zeroed::<u32>(5)?, gpu.buffer_zeroed::<u32>(5)?);
    /// let counts = (CompactCount::new(&gpu)?, CompactCount::new(&gpu)?);
    /// let mut commands = gpu.commands();
    /// compact.record(&mut commands, PartitionArgs {
    ///     values: &values,
    ///     partition: &small,
    ///     kept: &kept,
    ///     rejected: &rejected,
    ///     kept_count: &counts.0,
    ///     rejected_count: &counts.1,
    ///     next_workgroup: 0,
    /// })?;
    /// commands.submit()?;
    /// assert_eq!(kept.read_blocking()?[..3], [5, 7, 1]);
    /// assert_eq!(rejected.read_blocking()?[..2], [12, 30]);
    /// # Ok(()) }
    /// ```
    fn record(&self, commands: &mut Commands, args: PartitionArgs<'_>) -> Result<()> {
        let PartitionArgs {
            values,
            partition,
            kept,
            rejected,
            kept_count,
            rejected_count,
            next_workgroup,
        } = args;
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
        let keep = CompactArgs {
            values,
            keep: Keep::Predicate(&partition.keep),
            output: kept,
            count: kept_count,
            next_workgroup,
        };
        self.record(commands, keep)?;
        let reject = CompactArgs {
            values,
            keep: Keep::Predicate(&partition.reject),
            output: rejected,
            count: rejected_count,
            next_workgroup,
        };
        self.record(commands, reject)
    }
}

impl Predicate {
    /// The WGSL expression.
    pub fn expression(&self) -> &str {
        &self.expression
    }

    /// The predicate's kernels compiled so far: its compaction scan's (the first compiled with
    /// the predicate, the others on first use).
    pub fn kernels(&self) -> Vec<&Kernel> {
        self.scan.kernels()
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
