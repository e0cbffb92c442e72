//! Stream compaction of uniformly random 32-bit values, keeping those below 2^31 (half of them,
//! at random positions).

use shoal::{Commands, Gpu};
use shoal_kernels::{Compact, CompactCount, Keep, Predicate};

use super::{Io, err, io, nanos, same};
use crate::harness::{Case, Fut};

/// The kept values' bound (exclusive), in WGSL and for the CPU.
const BOUND: u32 = 1 << 31;

/// Shoal's compaction.
struct CompactCase {
    compact: Compact,
    io: Io,
    count: CompactCount,
    keep: Predicate,
}

/// The compaction case.
pub(super) fn compact_case(gpu: &Gpu, n: u64) -> Result<Box<dyn Case>, String> {
    let compact = Compact::new(gpu).map_err(err)?;
    let keep = compact
        .predicate(&format!("x < {BOUND}u"))
        .map_err(err)?;
    Ok(Box::new(CompactCase {
        keep,
        compact,
        io: io(gpu, n, 0, n)?,
        count: CompactCount::new(gpu).map_err(err)?,
    }))
}

impl CompactCase {
    /// The CPU twin: the kept values in order.
    fn want(&self) -> Vec<u32> {
        self.io.host.iter().copied().filter(|&x| x < BOUND).collect()
    }
}

impl Case for CompactCase {
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        self.compact.record(
            c,
            &self.io.input,
            Keep::Predicate(&self.keep),
            &self.io.output,
            &self.count,
            0,
        )
    }
    fn verify(&mut self) -> Fut<'_, Result<(), String>> {
        Box::pin(async {
            let count = self.count.read().await.map_err(err)?;
            let got = self
                .io
                .output
                .read_range(0..count as u64)
                .await
                .map_err(err)?;
            same(&got, &self.want())
        })
    }
    fn cpu(&mut self) -> f64 {
        nanos(|| {
            std::hint::black_box(self.want());
        })
    }
}
