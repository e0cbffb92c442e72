//! Stream compaction of uniformly random 32-bit values, keeping those below 2^31 (half of them,
//! at random positions), beside lampshade. Both sides evaluate that same predicate on the GPU:
//! Shoal inside its compaction, lampshade with its `MaskGenerator` (`LessThan(2^31)`) before its
//! `Compactor`, the two passes' times added.

use shoal::{Commands, Gpu};
use shoal_kernels::{Compact, CompactArgs, CompactCount, Keep, Predicate, Record};

use super::{Io, err, io, nanos, peer_nanos, read, same};
use crate::harness::{Case, Fut};

/// The kept values' bound (exclusive), in WGSL and for lampshade and the CPU.
const BOUND: u32 = 1 << 31;

/// Shoal's compaction and lampshade's mask generator and compactor.
struct CompactCase {
    compact: Compact,
    io: Io,
    count: CompactCount,
    keep: Predicate,
    mask: lampshade::MaskGenerator,
    peer: lampshade::Compactor,
    /// lampshade's mask (one 0 or 1 per element), output and count.
    peer_buffers: [shoal::Buffer<u32>; 3],
}

/// The compaction case.
pub(super) fn compact_case(gpu: &Gpu, n: u64) -> Result<Box<dyn Case>, String> {
    let compact = Compact::new(gpu).map_err(err)?;
    let keep = compact.predicate(&format!("x < {BOUND}u")).map_err(err)?;
    let (device, queue) = (gpu.device(), gpu.queue());
    Ok(Box::new(CompactCase {
        keep,
        compact,
        io: io(gpu, n, 0, n)?,
        count: CompactCount::new(gpu).map_err(err)?,
        mask: lampshade::MaskGenerator::new(device, queue),
        peer: lampshade::Compactor::new(device, queue),
        peer_buffers: [
            gpu.buffer_zeroed(n).map_err(err)?,
            gpu.buffer_zeroed(n).map_err(err)?,
            gpu.buffer_zeroed(1).map_err(err)?,
        ],
    }))
}

impl CompactCase {
    /// The CPU twin: the kept values in order.
    fn want(&self) -> Vec<u32> {
        self.io
            .host
            .iter()
            .copied()
            .filter(|&x| x < BOUND)
            .collect()
    }
}

impl Case for CompactCase {
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        self.compact.record(
            c,
            CompactArgs {
                values: &self.io.input,
                keep: Keep::Predicate(&self.keep),
                output: &self.io.output,
                count: &self.count,
                next_workgroup: 0,
            },
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
    fn peer_configs(&self) -> Vec<String> {
        vec![
            "MaskGenerator::new (LessThan(2^31)) + Compactor::new (their only constructors)".into(),
        ]
    }
    fn peer(&mut self, _config: usize, check: bool) -> Fut<'_, Result<f64, String>> {
        Box::pin(async move {
            let n = self.io.host.len() as u32;
            let [mask, out, count] = &self.peer_buffers;
            let predicate = lampshade::U32Predicate::LessThan(BOUND);
            let masked = peer_nanos(
                self.mask
                    .profile_mask_gpu_to_gpu(self.io.input.raw(), mask.raw(), n, predicate)
                    .await,
            )?;
            let compacted = peer_nanos(
                self.peer
                    .profile_compact_gpu_to_gpu(
                        self.io.input.raw(),
                        mask.raw(),
                        out.raw(),
                        count.raw(),
                        n,
                    )
                    .await,
            )?;
            if check {
                let kept = read(count).await?[0];
                let got = out.read_range(0..kept as u64).await.map_err(err)?;
                same(&got, &self.want())?;
            }
            Ok(masked + compacted)
        })
    }
}
