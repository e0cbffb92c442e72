//! [`Compact`]: stream compaction of `u32` values by a flag buffer or a WGSL predicate, stable,
//! with the count left on the GPU beside ready-made indirect-dispatch arguments, so the next
//! kernel can run over exactly the kept elements with no readback in between; unique and the
//! stable two-way partition are compactions by predicates.

use shoal::{Buffer, Commands, DispatchArgs, Gpu, Kernel, Result, Usage};

use crate::scan::{Scan, ScanSpec, Strategy, is_swiftshader, shared_tiles};
use crate::wgsl::{self, Op, Scratch, Uniforms};

const SOURCE: shoal::Source = shoal::wgsl!("../wgsl/compact.wgsl");
/// Elements per invocation: 16 in work groups of up to 256 invocations, or
/// `SOFTWARE_PER` in the small work groups of a software adapter (see [`Tiling`](crate::Tiling)),
/// [`ROLLED_PER`](crate::ROLLED_PER) on SwiftShader. Up to [`BITS`], `scatter_tiles` keeps a bit
/// per element in two words (the `marks` block of `compact.wgsl`); above it [`ROLLED_MARKS`].
const PER: u32 = 16;
/// The most elements per invocation `scatter_tiles` keeps one bit each for.
const BITS: u32 = 64;
// Measured on llvmpipe (GL, 2^20 values, half kept): 13.6x the copy kernel with 256 x 16, 4.8x
// with 8 x 64 (4.4x to 5.1x for 8 to 32 invocations of 64 to 128 elements).
const SOFTWARE_PER: u32 = 64;

/// The `marks` block for more than [`BITS`] elements per invocation, too many for the bits: the
/// writing loop tests each element again. On SwiftShader, which pays a fixed cost per invocation,
/// 512 elements per invocation this way took 9.6x the copy kernel against 13.3x for 64 with the
/// bits (2^20, half kept).
const ROLLED_MARKS: &str = "fn count_own(start: u32) -> vec2<u32> {
    let half = PER / 2u;
    var a = 0u;
    var b = 0u;
    for (var j = 0u; j < half; j++) {
        a += kept(start + j);
        b += kept(start + half + j);
    }
    return vec2(a, b);
}
fn write_own(start: u32, at: u32) {
    var to = at;
    for (var i = start; i < min(start + PER, params.n); i++) {
        let v = values[i];
        if keep(v, i) {
            output[to] = v;
            to += 1u;
        }
    }
}";

/// The count and scatter kernels of `source` (the file, or it with a predicate) for tiles of
/// `wg` invocations × `per` elements.
fn tile_kernels(gpu: &Gpu, source: shoal::Source, wg: u32, per: u32) -> Result<(Kernel, Kernel)> {
    let source = if per > BITS {
        source.block(
            "marks",
            shoal::Source::new("compact.rs: ROLLED_MARKS", ROLLED_MARKS),
        )
    } else {
        source
    };
    let build = |entry| {
        wgsl::builder(gpu, source.clone())
            .entry(entry)
            .constant("WG", wg)
            .constant("PER", per)
            .build()
    };
    Ok((build("count_tiles")?, build("scatter_tiles")?))
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
    count: Kernel,
    scatter: Kernel,
}

/// The count and the indirect arguments a compaction leaves on the GPU.
///
/// Layout: `[count, x, y, z]`: bind it whole to read the count in a kernel, and pass it to
/// [`shoal::Dispatch::indirect`] at [`CompactCount::ARGS_OFFSET`] to run one invocation per kept
/// element (x folds over y beyond the device's group limit: rebuild the index with
/// `shoal_linear_index` and check it against the count).
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{Compact, CompactCount, Keep};
/// let gpu = shoal::Gpu::blocking()?;
/// let values = gpu.buffer_from(&(0..100).collect::<Vec<u32>>())?;
/// let (kept, count) = (gpu.buffer_zeroed::<u32>(100)?, CompactCount::new(&gpu)?);
/// let compact = Compact::new(&gpu)?;
/// compact.run(&values, Keep::Predicate(&compact.predicate("x >= 90u")?), &kept, &count)?;
/// assert_eq!(pollster::block_on(count.read())?, 10); // also on the GPU, for an indirect dispatch
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct CompactCount {
    /// `[count, x, y, z]`, with `Usage::STORAGE | Usage::INDIRECT`.
    pub buffer: Buffer<u32>,
}

impl CompactCount {
    /// Byte offset of the `DispatchArgs` in [`CompactCount::buffer`].
    pub const ARGS_OFFSET: u64 = 4;

    /// A count buffer for `gpu`.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Ok(Self {
            buffer: gpu.buffer_zeroed_with::<u32>(4, Usage::STORAGE | Usage::INDIRECT)?,
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

/// Stream compaction: three passes (count per tile, scan of the counts, scatter).
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
/// compact.run(&values, Keep::Predicate(&odd), &kept, &count)?;
/// let cpu = compact_cpu(&data, |x, _| x % 2 == 1);
/// assert_eq!(kept.read_blocking()?[..cpu.len()], cpu[..]);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Compact {
    gpu: Gpu,
    wg: u32,
    per: u32,
    flags_count: Kernel,
    flags_scatter: Kernel,
    scan: Scan<u32>,
    uniforms: Uniforms,
    scratch: Scratch,
}

impl Compact {
    /// Compaction for `gpu`, with the flag kernels compiled.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        let (wg, per) = shared_tiles(gpu, 256, PER, SOFTWARE_PER);
        let per = if is_swiftshader(gpu) {
            crate::ROLLED_PER
        } else {
            per
        };
        Self::with_tiles(gpu, wg, per)
    }

    /// Compaction with `tiling` forced: smaller tiles cross more work groups for the same input.
    /// Compaction shares values through shared memory, so `tiling.one_subgroup` is refused, and
    /// each invocation's elements are an even number up to
    /// [`MAX_COARSENING`](crate::MAX_COARSENING) (it counts them in halves): an
    /// [`Error::Override`](shoal::Error::Override) otherwise, as is a work-group size the device
    /// cannot run.
    pub fn with_tiling(gpu: &Gpu, tiling: crate::Tiling) -> Result<Self> {
        let refuse = |message: String| {
            Err(shoal::Error::Override {
                kernel: SOURCE.path().to_string(),
                message,
            })
        };
        if tiling.one_subgroup {
            return refuse("compaction shares values through shared memory: one-subgroup tiles are not offered".into());
        }
        let per = tiling.per_invocation;
        if !(2..=crate::MAX_COARSENING).contains(&per) || !per.is_multiple_of(2) {
            return refuse(format!(
                "compaction takes an even number of elements per invocation from 2 to {}, not {per}",
                crate::MAX_COARSENING
            ));
        }
        let wg = tiling.shared_workgroup(gpu, &SOURCE, 256)?;
        Self::with_tiles(gpu, wg, per)
    }

    /// The kernels for tiles of `wg` invocations × `per` elements.
    fn with_tiles(gpu: &Gpu, wg: u32, per: u32) -> Result<Self> {
        let (flags_count, flags_scatter) = tile_kernels(gpu, SOURCE, wg, per)?;
        Ok(Self {
            gpu: gpu.clone(),
            wg,
            per,
            flags_count,
            flags_scatter,
            scan: Scan::new(gpu)?,
            uniforms: Uniforms::default(),
            scratch: Scratch::default(),
        })
    }

    /// Compiles a predicate: `expression` is WGSL of type `bool` over `x: u32` (the value) and
    /// `i: u32` (its index). A WGSL error in it is an [`shoal::Error::Wgsl`] naming the line.
    pub fn predicate(&self, expression: &str) -> Result<Predicate> {
        let body = format!("fn keep(x: u32, i: u32) -> bool {{\n    return {expression};\n}}");
        let source = SOURCE.block(
            "keep",
            shoal::Source::new(format!("predicate `{expression}`"), body),
        );
        let (count, scatter) = tile_kernels(&self.gpu, source, self.wg, self.per)?;
        Ok(Predicate {
            expression: expression.to_string(),
            count,
            scatter,
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
    /// compact.run(&values, Keep::Predicate(&compact.unique()?), &out, &count)?;
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
        if kept.raw() == rejected.raw() || kept_count.buffer.raw() == rejected_count.buffer.raw() {
            return Err(shoal::Error::BindingKind {
                kernel: "partition".into(),
                binding: "rejected".into(),
                expected:
                    "buffers other than the kept ones (each side has its own output and count)"
                        .into(),
                got: "the same buffer for both sides".into(),
            });
        }
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

    fn scratch(&self, name: &'static str, len: u64) -> Result<Buffer<u32>> {
        self.scratch.get(&self.gpu, name, len)
    }

    /// Records compacting `values` into the front of `output` (at least as long), keeping what
    /// `keep` says, and writing the count and the arguments for a next kernel of
    /// `next_workgroup` invocations per group into `count`.
    pub fn record(
        &self,
        commands: &mut Commands,
        values: &Buffer<u32>,
        keep: Keep<'_>,
        output: &Buffer<u32>,
        count: &CompactCount,
        next_workgroup: u32,
    ) -> Result<()> {
        let n = wgsl::count_u32("compact", values.len())?;
        wgsl::at_least("compact: output buffer", values.len(), output.len())?;
        let (counter, scatter, flags) = match keep {
            Keep::Flags(f) => {
                wgsl::at_least("compact: flags buffer", values.len(), f.len())?;
                (&self.flags_count, &self.flags_scatter, f)
            }
            Keep::Predicate(p) => (&p.count, &p.scatter, values),
        };
        // With nothing to scan, the count and the arguments are all zero.
        commands.clear(&count.buffer);
        if n == 0 {
            return Ok(());
        }
        let tiles = n.div_ceil(self.wg * self.per);
        let counts = self.scratch("counts", tiles as u64)?;
        let offsets = self.scratch("offsets", tiles as u64)?;
        let max_x = self.gpu.limits().max_compute_work_group_count[0];
        let params = self
            .uniforms
            .get(&self.gpu, [n, tiles, next_workgroup, max_x])?;
        let groups = tiles as u64 * self.wg as u64;
        // A predicate kernel reads no flags, so reflection gives it no such binding.
        let by_flags = matches!(keep, Keep::Flags(_));
        fn with_flags<'a>(
            d: shoal::Dispatch<'a>,
            flags: &'a Buffer<u32>,
            by_flags: bool,
        ) -> shoal::Dispatch<'a> {
            if by_flags { d.bind("flags", flags) } else { d }
        }
        with_flags(
            counter
                .bind("params", &params)
                .bind("values", values)
                .bind("tile_counts", &counts),
            flags,
            by_flags,
        )
        .invocations(groups)
        .record(commands)?;
        self.scan.record(
            commands,
            &counts,
            &offsets,
            ScanSpec::exclusive(Op::Sum).with_strategy(Strategy::MultiLevel),
        )?;
        with_flags(
            scatter.bind("params", &params).bind("values", values),
            flags,
            by_flags,
        )
        .bind("tile_offsets", &offsets)
        .bind("output", output)
        .bind("count_args", &count.buffer)
        .invocations(groups)
        .record(commands)
    }

    /// Compacts and submits; returns nothing to read until the caller reads `output` or `count`.
    pub fn run(
        &self,
        values: &Buffer<u32>,
        keep: Keep<'_>,
        output: &Buffer<u32>,
        count: &CompactCount,
    ) -> Result<shoal::Submission> {
        let mut commands = self.gpu.commands();
        self.record(&mut commands, values, keep, output, count, 0)?;
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
