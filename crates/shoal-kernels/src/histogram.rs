//! [`Histogram`]: counts of `u32` values per bin, with per-work-group shared-memory atomics merged
//! into the global counts.

use std::collections::HashMap;
use std::sync::Mutex;

use shoal::{Buffer, Commands, Error, Gpu, Kernel, Result};

use crate::scan::shared_tiles;
use shoal::glam::UVec4;

use crate::wgsl::{self, Scratch, Uniforms};

const SOURCE: shoal::Source = shoal::wgsl!("../wgsl/histogram.wgsl");
/// Values per invocation: 16 in work groups of up to 256 invocations, or `SOFTWARE_PER` in the
/// small work groups of a software adapter (see [`Tiling`](crate::Tiling)).
const PER: u32 = 16;
// Measured on llvmpipe (GL, 2^20 values, 256 bins): 5.3x the copy kernel with 256 x 16, 2.9x
// with 8 x 256, 2.3x with 8 x 1024 (fewer tiles, so fewer merges of 256 bins into the counts).
const SOFTWARE_PER: u32 = 1024;
/// The most bins offered on any device (see [`Histogram::max_bins`]).
const MAX_BINS: u32 = 1024;

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
    wg: u32,
    per: u32,
    kernels: Mutex<HashMap<u32, Kernel>>,
    uniforms: Uniforms,
    scratch: Scratch,
}

impl Histogram {
    /// A histogram for `gpu`; kernels are compiled per bin count on first use.
    pub fn new(gpu: &Gpu) -> Result<Self> {
        let (wg, per) = shared_tiles(gpu, 256, PER, SOFTWARE_PER);
        Ok(Self {
            gpu: gpu.clone(),
            wg,
            per,
            kernels: Mutex::new(HashMap::new()),
            uniforms: Uniforms::default(),
            scratch: Scratch::default(),
        })
    }

    /// The most bins one work group counts in shared memory on this device: what its shared
    /// memory holds, at most 1024. (From 4096 bins up, llvmpipe's GL driver spends
    /// minutes compiling the kernel's workgroup-memory initialisation.)
    pub fn max_bins(&self) -> u32 {
        (self.gpu.limits().max_compute_shared_memory_size / 4).min(MAX_BINS)
    }

    fn kernel(&self, bins: u32) -> Result<Kernel> {
        if let Some(k) = self
            .kernels
            .lock()
            .map_err(|_| wgsl::poisoned())?
            .get(&bins)
        {
            return Ok(k.clone());
        }
        let k = self
            .gpu
            .kernel_builder(SOURCE)
            .constant("WG", self.wg)
            .constant("PER", self.per)
            .constant("BINS", bins)
            .build()?;
        self.kernels
            .lock()
            .map_err(|_| wgsl::poisoned())?
            .insert(bins, k.clone());
        Ok(k)
    }

    /// Records zeroing `counts` and counting every value of `input` into it; the number of bins
    /// is `counts.len()`, between 1 and [`Histogram::max_bins`].
    pub fn record(
        &self,
        commands: &mut Commands,
        input: &Buffer<u32>,
        counts: &Buffer<u32>,
    ) -> Result<()> {
        let n = wgsl::count_u32("histogram", input.len())?;
        let bins = counts.len();
        if bins == 0 || bins > self.max_bins() as u64 {
            return Err(Error::WorkgroupMemory {
                kernel: format!(
                    "histogram of {bins} bins (1 to {} on this device)",
                    self.max_bins()
                ),
                bytes: (bins * 4).min(u32::MAX as u64) as u32,
                limit: self.gpu.limits().max_compute_shared_memory_size,
            });
        }
        commands.clear(counts);
        let tiles = n.div_ceil(self.wg * self.per);
        if tiles == 0 {
            return Ok(());
        }
        let kernel = self.kernel(bins as u32)?;
        let params = self.uniforms.get(&self.gpu, [n, tiles, 0, 0])?;
        // Fewer than four values: `input4` needs a binding, and none of it is read.
        let input4 = match input.view_as::<UVec4>() {
            v if v.is_empty() => self
                .scratch
                .get(&self.gpu, "no vec4s", 4)?
                .view_as::<UVec4>(),
            v => v,
        };
        kernel
            .bind("params", &params)
            .bind("input", input)
            .bind("input4", &input4)
            .bind("counts", counts)
            .invocations(tiles as u64 * self.wg as u64)
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
