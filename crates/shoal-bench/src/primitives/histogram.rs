//! A 256-bin histogram of values below 256 (every value counts), beside lampshade's
//! `Histogram`.

use shoal::{Commands, Gpu};
use shoal_kernels::{Histogram, HistogramArgs, Record, histogram_cpu};

use super::{Io, err, io, nanos, peer_nanos, read, same};
use crate::harness::{Case, Fut};

/// Bins, and the values' bound.
const BINS: u32 = 256;

/// Shoal's histogram and lampshade's.
struct HistogramCase {
    hist: Histogram,
    io: Io,
    peer: lampshade::Histogram,
    /// Where the peer counts.
    peer_out: shoal::Buffer<u32>,
}

/// The histogram case.
pub(super) fn histogram_case(gpu: &Gpu, n: u64) -> Result<Box<dyn Case>, String> {
    Ok(Box::new(HistogramCase {
        hist: Histogram::new(gpu).map_err(err)?,
        io: io(gpu, n, BINS, BINS as u64)?,
        peer: lampshade::Histogram::new(gpu.device(), gpu.queue()),
        peer_out: gpu.buffer_zeroed(BINS as u64).map_err(err)?,
    }))
}

impl Case for HistogramCase {
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        self.hist.record(
            c,
            HistogramArgs {
                input: &self.io.input,
                counts: &self.io.output,
            },
        )
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
    fn peer_configs(&self) -> Vec<String> {
        vec!["Histogram::new (its only constructor)".into()]
    }
    fn peer(&mut self, _config: usize, check: bool) -> Fut<'_, Result<f64, String>> {
        Box::pin(async move {
            let n = self.io.host.len() as u32;
            let t = peer_nanos(
                self.peer
                    .profile_histogram_gpu_to_gpu(self.io.input.raw(), self.peer_out.raw(), n, BINS)
                    .await,
            )?;
            if check {
                same(
                    &read(&self.peer_out).await?,
                    &histogram_cpu(&self.io.host, BINS as usize),
                )?;
            }
            Ok(t)
        })
    }
}
