//! [`Histogram`]: counts of `u32` values per bin, with per-work-group shared-memory atomics merged
//! into the global counts.

use shoal::{Buffer, Commands, Error, Family, Gpu, Kernel, Record, Result};

use crate::buffers::{check_apart, named};
use crate::compiled::Compiled;
use crate::scan::SOFTWARE_WORKGROUP;

use crate::wgsl::{self, Scratch, Uniforms};

const SOURCE: shoal::Source = shoal::wgsl!("../wgsl/histogram.wgsl");
/// Values per invocation on a GPU: 16, in work groups of up to 256 invocations.
const PER: u32 = 16;
/// Values per invocation on a software adapter, in its small work groups (see
/// [`Tiling`](crate::Tiling)): the most of these that still leaves a tile per CPU thread. More
/// values per invocation pay the merge into the global counts less often, but a single tile
/// leaves the CPU's other threads idle.
const SOFTWARE_PERS: [u32; 3] = [16384, 4096, 1024];
/// The most bins offered on any device (see [`Histogram::max_bins`]).
const MAX_BINS: u32 = 1024;
/// The most per-invocation counters (work group size x bins) a software adapter's work group
/// keeps; above it, shared atomics (llvmpipe's GL driver compiles the zeroing of 4096 words of
/// workgroup memory for minutes).
const LANE_COUNTERS: u32 = 2048;

/// The `bins` block for adapters whose shared atomics are slow: a counter per bin and
/// invocation, bin-major so the merge reads each bin's counters in a row ([`LANE_TOTAL`]).
/// Software adapters run a shared atomic lane by lane, a loop that costs more than the plain
/// increment; faster than the atomics on all three (docs/bench/*.md).
pub(crate) const LANE_BINS: shoal::Source = shoal::wgsl!("../wgsl/histogram_lane_bins.wgsl");

/// The most bins [`PRIVATE_BINS`] counts (the size of its private array, which WGSL wants
/// constant: the file writes it, a test holds the two equal).
const MAX_PRIVATE_BINS: u32 = 256;

/// The `bins` block for llvmpipe (lavapipe, and GL): each invocation counts in an array of its
/// own, then copies it into [`LANE_BINS`]' layout for the merge. llvmpipe reads and writes
/// shared memory one invocation at a time, and an invocation's own array for all of a vector's
/// invocations at once. SwiftShader measured slower with it, so it keeps [`LANE_BINS`].
pub(crate) const PRIVATE_BINS: shoal::Source = shoal::wgsl!("../wgsl/histogram_private_bins.wgsl");

/// The `total` block of both per-invocation `bins` blocks: a bin's counters of every invocation.
pub(crate) const LANE_TOTAL: shoal::Source = shoal::wgsl!("../wgsl/histogram_lane_total.wgsl");

/// Where a work group counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counters {
    /// One shared counter per bin, incremented with atomics (the WGSL's own block).
    Atomic,
    /// A shared counter per bin and invocation ([`LANE_BINS`]).
    Lanes,
    /// A private counter per bin in each invocation ([`PRIVATE_BINS`]).
    Private,
}

/// How a [`Histogram`] tiles its input and counts in shared memory.
#[derive(Debug, Clone, Copy)]
struct Tiles {
    wg: u32,
    /// Values per invocation, or `None` for the most of [`SOFTWARE_PERS`] the input fills.
    per: Option<u32>,
    /// Where it counts: [`Counters::Lanes`] and [`Counters::Private`] where the counters fit in
    /// [`LANE_COUNTERS`] (and the private array), shared atomics otherwise.
    counters: Counters,
    /// Each invocation reads its PER values as one contiguous run (`CONTIGUOUS` in the WGSL)
    /// rather than every WG-th vec4 of the tile: on software adapters, which load lane by lane,
    /// it was faster on lavapipe and GL and alike on SwiftShader. A GPU keeps its coalesced
    /// loads. The run is read four vec4s per loop iteration with no test per vec4 (a software
    /// adapter pays for each iteration about what it pays for a load).
    contiguous: bool,
}

impl Tiles {
    /// What a histogram plans for a device described by `profile`: a software adapter's small
    /// work groups (see [`Tiling`](crate::Tiling)) of contiguous values, per-lane counters
    /// (private ones on llvmpipe); a GPU's work groups of up to 256 invocations with shared
    /// atomic counters.
    fn plan(profile: &shoal::DeviceProfile) -> Self {
        let software = profile.is_software();
        let cap = if software { SOFTWARE_WORKGROUP } else { 256 };
        let counters = if profile.is_llvmpipe() {
            Counters::Private
        } else if software {
            Counters::Lanes
        } else {
            Counters::Atomic
        };
        Tiles {
            wg: wgsl::floor_power_of_two(profile.max_workgroup_1d(cap)),
            per: (!software).then_some(PER),
            counters,
            contiguous: software,
        }
    }

    /// The histogram's source for `bins` bins: its counters' `bins` block.
    fn source(&self, bins: u32) -> shoal::Source {
        let fits = self.wg * bins <= LANE_COUNTERS;
        let block = match self.counters {
            Counters::Private if fits && bins <= MAX_PRIVATE_BINS => Some(PRIVATE_BINS),
            Counters::Lanes | Counters::Private if fits => Some(LANE_BINS),
            _ => None,
        };
        match block {
            Some(bins) => SOURCE.block("bins", bins).block("total", LANE_TOTAL),
            None => SOURCE,
        }
    }
}

/// The sources a histogram compiles on a device described by `profile`: one per bin count that
/// changes its `bins` block (1, the most per-lane counters hold, one past it, the most bins),
/// for the kernel variants' check.
pub(crate) fn variants(profile: &shoal::DeviceProfile) -> Vec<(String, shoal::Source)> {
    let tiles = Tiles::plan(profile);
    let max = (profile.limits.max_compute_shared_memory_size / 4).min(MAX_BINS);
    let lanes = (LANE_COUNTERS / tiles.wg).min(max);
    let mut bins = vec![
        1,
        MAX_PRIVATE_BINS.min(lanes),
        lanes,
        (lanes + 1).min(max),
        max,
    ];
    bins.dedup();
    bins.into_iter()
        .map(|b| {
            (
                format!("{:?} counters, {b} bins", tiles.counters),
                tiles.source(b),
            )
        })
        .collect()
}

/// CPU threads a software adapter runs work groups on (a guess of 8 where the platform does not
/// say, as in the browser).
fn cpu_threads() -> u32 {
    #[cfg(not(target_arch = "wasm32"))]
    if let Ok(n) = std::thread::available_parallelism() {
        return n.get().min(64) as u32;
    }
    8
}

/// Histograms of `u32` values: value `v` counts in bin `min(v, bins - 1)`.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{Histogram, HistogramArgs, Record, histogram_cpu};
/// let gpu = shoal::Gpu::blocking()?;
/// let data: Vec<u32> = (0..10_000).map(|i| i * 31 % 100).collect();
/// let (input, counts) = (gpu.buffer_from(&data)?, gpu.buffer_zeroed::<u32>(16)?);
/// // 16 bins: values from 15 up count in the last.
/// Histogram::new(&gpu)?.run(HistogramArgs { input: &input, counts: &counts })?;
/// assert_eq!(counts.read_blocking()?, histogram_cpu(&data, 16));
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Histogram {
    gpu: Gpu,
    tiles: Tiles,
    /// CPU threads, for [`SOFTWARE_PERS`]' choice (asked once: the platform may read a file).
    threads: u32,
    /// Kernels by bins and values per invocation.
    kernels: Compiled<(u32, u32)>,
    uniforms: Uniforms,
    scratch: Scratch,
}

impl Histogram {
    /// A histogram for `gpu`; kernels are compiled per bin count on first use.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Ok(Self::with_tiles(gpu, Tiles::plan(&gpu.into())))
    }

    /// How many kernels are compiled so far (for the warm-up's tests).
    #[cfg(test)]
    pub(crate) fn kernels_built(&self) -> usize {
        self.kernels.all().len()
    }

    fn with_tiles(gpu: &Gpu, tiles: Tiles) -> Self {
        Self {
            gpu: gpu.clone(),
            tiles,
            threads: cpu_threads(),
            kernels: Compiled::default(),
            uniforms: Uniforms::default(),
            scratch: Scratch::default(),
        }
    }

    /// The most bins one work group counts in shared memory on this device: what its shared
    /// memory holds, at most 1024. (From 4096 bins up, llvmpipe's GL driver spends
    /// minutes compiling the kernel's workgroup-memory initialisation.)
    pub fn max_bins(&self) -> u32 {
        (self.gpu.limits().max_compute_shared_memory_size / 4).min(MAX_BINS)
    }

    /// Values per invocation for `n` values: the fixed count, or the most of [`SOFTWARE_PERS`]
    /// that leaves a tile per CPU thread.
    fn per(&self, n: u32) -> u32 {
        self.tiles.per.unwrap_or_else(|| {
            let tiles = self.threads as u64;
            let fills = |&&per: &&u32| n as u64 >= tiles * self.tiles.wg as u64 * per as u64;
            let last = SOFTWARE_PERS[SOFTWARE_PERS.len() - 1];
            *SOFTWARE_PERS.iter().find(fills).unwrap_or(&last)
        })
    }

    /// The kernel counting `bins` bins, `per` values per invocation, compiled on first use.
    fn kernel(&self, bins: u32, per: u32) -> Result<Kernel> {
        self.kernels
            .get_or_build((bins, per), || self.build(bins, per))
    }

    fn build(&self, bins: u32, per: u32) -> Result<Kernel> {
        self.gpu
            .kernel_builder(self.tiles.source(bins))
            .constant("WG", self.tiles.wg)
            .constant("PER", per)
            .constant("BINS", bins)
            .constant("CONTIGUOUS", self.tiles.contiguous)
            .build()
    }
}

/// What one [`Histogram`] reads and writes.
#[derive(Debug, Clone, Copy)]
pub struct HistogramArgs<'a> {
    /// The values to count.
    pub input: &'a Buffer<u32>,
    /// One counter per bin, zeroed first: its length is the number of bins.
    pub counts: &'a Buffer<u32>,
}

impl Family for Histogram {
    fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The kernels compiled so far: one per bin count (and values per invocation on a software
    /// adapter), each on its first use.
    fn kernels(&self) -> Vec<&Kernel> {
        self.kernels.all()
    }
}

impl Record<HistogramArgs<'_>> for Histogram {
    /// Records zeroing `counts` and counting every value of `input` into it; the number of bins
    /// is `counts.len()`, between 1 and [`Histogram::max_bins`] (others are an
    /// [`Error::InvalidParameter`]). `counts` in `input`'s buffer is [`Error::BindingKind`], a
    /// buffer of another `Gpu` [`Error::WrongGpu`]; nothing is recorded then.
    fn record(&self, commands: &mut Commands, args: HistogramArgs<'_>) -> Result<()> {
        let HistogramArgs { input, counts } = args;
        let commands = &mut commands.labelled("histogram");
        let buffers = [named("input", input), named("counts", counts)];
        let why = "the counts are zeroed, then the input read";
        check_apart(&self.gpu, "histogram", &buffers, why)?;
        let n = wgsl::count_u32("histogram", input.len())?;
        let bins = counts.len();
        if bins == 0 || bins > self.max_bins() as u64 {
            return Err(Error::InvalidParameter {
                kernel: "Histogram".into(),
                parameter: "bins (the counts buffer's length)".into(),
                value: bins.to_string(),
                rule: format!(
                    "1 to {} on this device (Histogram::max_bins: one u32 counter per bin in \
                     shared memory, at most 1024)",
                    self.max_bins()
                ),
            });
        }
        commands.clear(counts);
        let per = self.per(n);
        let tiles = n.div_ceil(self.tiles.wg * per);
        if tiles == 0 {
            return Ok(());
        }
        let kernel = self.kernel(bins as u32, per)?;
        let params = self.uniforms.get(&self.gpu, [n, tiles, 0, 0])?;
        let input4 = self.scratch.vec4s(&self.gpu, input)?;
        kernel
            .bind("params", &params)
            .bind("input", input)
            .bind("input4", &input4)
            .bind("counts", counts)
            .invocations(tiles as u64 * self.tiles.wg as u64)
            .record(commands)
    }
}

/// The CPU twin of [`Histogram`].
pub fn histogram_cpu(input: &[u32], bins: usize) -> Vec<u32> {
    let mut counts = vec![0u32; bins];
    if bins > 0 {
        for &v in input {
            counts[(v as usize).min(bins - 1)] += 1;
        }
    }
    counts
}

#[cfg(test)]
mod tests;
