//! [`Histogram`]: counts of `u32` values per bin, with per-work-group shared-memory atomics merged
//! into the global counts.

use std::collections::HashMap;
use std::sync::Mutex;

use shoal::{Buffer, Commands, Error, Gpu, Kernel, Result};

use crate::buffers::{check_apart, named};
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
/// invocation, bin-major so the merge reads each bin's counters in a row (the `total` of
/// [`LANE_TOTAL`]). Software adapters run a shared atomic lane by lane, a loop that costs more
/// than the plain increment; faster than the atomics on all three (docs/bench/*.md).
const LANE_BINS: &str = "var<workgroup> sh_bins: array<u32, BINS * WG>;

fn count(bin: u32, id: u32) {
    sh_bins[bin * WG + id] += 1u;
}

fn publish(id: u32) {}
";

/// The most bins [`private_bins`] counts (the size of its private array, which WGSL wants
/// constant).
const MAX_PRIVATE_BINS: u32 = 256;

/// The `bins` block for llvmpipe (lavapipe, and GL): each invocation counts in an array of its
/// own, then copies it into [`LANE_BINS`]' layout for the merge. llvmpipe reads and writes
/// shared memory one invocation at a time, and an invocation's own array for all of a vector's
/// invocations at once. SwiftShader measured slower with it, so it keeps [`LANE_BINS`].
fn private_bins() -> String {
    format!(
        "var<workgroup> sh_bins: array<u32, BINS * WG>;
var<private> own_bins: array<u32, {MAX_PRIVATE_BINS}>;

fn count(bin: u32, id: u32) {{
    own_bins[bin] += 1u;
}}

fn publish(id: u32) {{
    for (var b = 0u; b < BINS; b++) {{
        sh_bins[b * WG + id] = own_bins[b];
    }}
}}
"
    )
}

/// The `total` both per-invocation blocks end with: a bin's counters of every invocation.
const LANE_TOTAL: &str = "
fn total(bin: u32) -> u32 {
    var c = 0u;
    for (var l = 0u; l < WG; l++) {
        c += sh_bins[bin * WG + l];
    }
    return c;
}";

/// Where a work group counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counters {
    /// One shared counter per bin, incremented with atomics (the WGSL's own block).
    Atomic,
    /// A shared counter per bin and invocation ([`LANE_BINS`]).
    Lanes,
    /// A private counter per bin in each invocation ([`private_bins`]).
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
            Counters::Private if fits && bins <= MAX_PRIVATE_BINS => {
                Some(("histogram.rs: private_bins", private_bins()))
            }
            Counters::Lanes | Counters::Private if fits => {
                Some(("histogram.rs: LANE_BINS", LANE_BINS.to_string()))
            }
            _ => None,
        };
        match block {
            Some((label, text)) => {
                SOURCE.block("bins", shoal::Source::new(label, text + LANE_TOTAL))
            }
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
/// use shoal_kernels::{Histogram, histogram_cpu};
/// let gpu = shoal::Gpu::blocking()?;
/// let data: Vec<u32> = (0..10_000).map(|i| i * 31 % 100).collect();
/// let (input, counts) = (gpu.buffer_from(&data)?, gpu.buffer_zeroed::<u32>(16)?);
/// Histogram::new(&gpu)?.run(&input, &counts)?; // 16 bins: values from 15 up count in the last
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
    kernels: Mutex<HashMap<(u32, u32), Kernel>>,
    uniforms: Uniforms,
    scratch: Scratch,
}

impl Histogram {
    /// A histogram for `gpu`; kernels are compiled per bin count on first use.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        Ok(Self::with_tiles(gpu, Tiles::plan(&gpu.into())))
    }

    /// The `Gpu` the histogram runs on.
    pub(crate) fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// How many kernels are compiled so far (for the warm-up's tests).
    #[cfg(test)]
    pub(crate) fn kernels_built(&self) -> usize {
        self.kernels.lock().map_or(0, |k| k.len())
    }

    fn with_tiles(gpu: &Gpu, tiles: Tiles) -> Self {
        Self {
            gpu: gpu.clone(),
            tiles,
            threads: cpu_threads(),
            kernels: Mutex::new(HashMap::new()),
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

    fn kernel(&self, bins: u32, per: u32) -> Result<Kernel> {
        let key = (bins, per);
        if let Some(k) = self.kernels.lock().map_err(|_| wgsl::poisoned())?.get(&key) {
            return Ok(k.clone());
        }
        let k = self
            .gpu
            .kernel_builder(self.tiles.source(bins))
            .constant("WG", self.tiles.wg)
            .constant("PER", per)
            .constant("BINS", bins)
            .constant("CONTIGUOUS", self.tiles.contiguous)
            .build()?;
        self.kernels
            .lock()
            .map_err(|_| wgsl::poisoned())?
            .insert(key, k.clone());
        Ok(k)
    }

    /// Records zeroing `counts` and counting every value of `input` into it; the number of bins
    /// is `counts.len()`, between 1 and [`Histogram::max_bins`] (others are an
    /// [`Error::InvalidParameter`]). `counts` in `input`'s buffer is [`Error::BindingKind`], a
    /// buffer of another `Gpu` [`Error::WrongGpu`]; nothing is recorded then.
    pub fn record(
        &self,
        commands: &mut Commands,
        input: &Buffer<u32>,
        counts: &Buffer<u32>,
    ) -> Result<()> {
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

    /// Counts `input` into `counts` and submits.
    pub fn run(&self, input: &Buffer<u32>, counts: &Buffer<u32>) -> Result<shoal::Submission> {
        let mut commands = self.gpu.commands();
        self.record(&mut commands, input, counts)?;
        commands.submit()
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
