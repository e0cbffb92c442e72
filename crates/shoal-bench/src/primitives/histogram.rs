//! A 256-bin histogram of values below 256 (every value counts).

use shoal::{Commands, Gpu};
use shoal_kernels::{Histogram, histogram_cpu};

use super::{Io, err, io, nanos, read, same};
use crate::harness::{Case, Fut};

/// Bins, and the values' bound.
const BINS: u32 = 256;

/// Shoal's histogram.
struct HistogramCase {
    hist: Histogram,
    io: Io,
}

/// The histogram case.
pub(super) fn histogram_case(gpu: &Gpu, n: u64) -> Result<Box<dyn Case>, String> {
    Ok(Box::new(HistogramCase {
        hist: Histogram::new(gpu).map_err(err)?,
        io: io(gpu, n, BINS, BINS as u64)?,
    }))
}

impl Case for HistogramCase {
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        self.hist.record(c, &self.io.input, &self.io.output)
    }
    fn verify(&mut self) -> Fut<'_, Result<(), String>> {
        Box::pin(async {
            same(
                &read(&self.io.output).await?,
                &histogram_cpu(&self.io.host, BINS as usize),
            )
        })
    }
    fn cpu(&mut self) -> f64 {
        nanos(|| {
            std::hint::black_box(histogram_cpu(&self.io.host, BINS as usize));
        })
    }
}
