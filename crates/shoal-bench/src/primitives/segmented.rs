//! Segmented primitives on runs of equal keys (random keys below 1000 in runs of 1 to 16): the
//! segmented sum by head flags, reduce-by-key (sum), and run-length encoding beside lampshade's
//! `RunLengthEncoder`.

use shoal::{Buffer, Commands, Gpu};
use shoal_kernels::{
    CompactCount, Op, Record, ReduceByKeyArgs, RunLengthsArgs, Segmented, SegmentedScanArgs,
    reduce_by_key_cpu, segmented_scan_cpu,
};

use super::{data, err, nanos, peer_nanos, read, same};
use crate::harness::{Case, Fut};

/// Which segmented primitive a case measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Segmented inclusive sum, a head where each run starts.
    Scan,
    /// Reduce-by-key, sum.
    ReduceByKey,
    /// Run-length encoding (beside lampshade).
    RunLengths,
}

/// The keys (runs), their head flags, values, and the outputs.
struct SegmentedCase {
    kind: Kind,
    seg: Segmented<u32>,
    keys: Vec<u32>,
    heads: Vec<u32>,
    values: Vec<u32>,
    gpu_keys: Buffer<u32>,
    gpu_heads: Buffer<u32>,
    gpu_values: Buffer<u32>,
    out: [Buffer<u32>; 2],
    count: CompactCount,
    peer: Option<lampshade::RunLengthEncoder>,
    /// lampshade's unique values, run lengths and count.
    peer_out: [Buffer<u32>; 3],
}

/// `n` keys below 1000 in runs of 1 to 16, and the head flags where runs start.
fn runs(n: u64) -> (Vec<u32>, Vec<u32>) {
    let draws = data(n + 1, 0);
    let (mut keys, mut heads) = (
        Vec::with_capacity(n as usize),
        Vec::with_capacity(n as usize),
    );
    let mut d = draws.iter();
    while (keys.len() as u64) < n {
        let x = d.next().copied().unwrap_or(0);
        let len = 1 + (x >> 28) as usize;
        for j in 0..len {
            keys.push(x % 1000);
            heads.push((j == 0) as u32);
        }
    }
    keys.truncate(n as usize);
    heads.truncate(n as usize);
    (keys, heads)
}

/// The case of `kind` at `n` elements.
pub(super) fn segmented_case(gpu: &Gpu, n: u64, kind: Kind) -> Result<Box<dyn Case>, String> {
    let (keys, heads) = runs(n);
    let values = data(n, 1000);
    let buffer = |v: &[u32]| gpu.buffer_from(v).map_err(err);
    let zeroed = |len: u64| gpu.buffer_zeroed::<u32>(len).map_err(err);
    Ok(Box::new(SegmentedCase {
        kind,
        seg: Segmented::new(gpu).map_err(err)?,
        gpu_keys: buffer(&keys)?,
        gpu_heads: buffer(&heads)?,
        gpu_values: buffer(&values)?,
        keys,
        heads,
        values,
        out: [zeroed(n)?, zeroed(n)?],
        count: CompactCount::new(gpu).map_err(err)?,
        peer: (kind == Kind::RunLengths)
            .then(|| lampshade::RunLengthEncoder::new(gpu.device(), gpu.queue())),
        peer_out: [zeroed(n)?, zeroed(n)?, zeroed(1)?],
    }))
}

impl SegmentedCase {
    /// The CPU twin's outputs: the scan, or the runs' keys and sums (or lengths).
    fn want(&self) -> (Vec<u32>, Vec<u32>) {
        match self.kind {
            Kind::Scan => (
                segmented_scan_cpu(&self.values, &self.heads, Op::Sum, true),
                Vec::new(),
            ),
            Kind::ReduceByKey => reduce_by_key_cpu(&self.keys, &self.values, Op::Sum),
            Kind::RunLengths => reduce_by_key_cpu(&self.keys, &vec![1; self.keys.len()], Op::Sum),
        }
    }

    /// The first `count` elements of each output.
    async fn runs_read(out: &[Buffer<u32>], count: u32) -> Result<Vec<Vec<u32>>, String> {
        let mut all = Vec::new();
        for b in out {
            all.push(b.read_range(0..count as u64).await.map_err(err)?);
        }
        Ok(all)
    }
}

impl Case for SegmentedCase {
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        let [a, b] = &self.out;
        match self.kind {
            Kind::Scan => self.seg.record(
                c,
                SegmentedScanArgs {
                    values: &self.gpu_values,
                    heads: &self.gpu_heads,
                    output: a,
                    op: Op::Sum,
                    inclusive: true,
                },
            ),
            Kind::ReduceByKey => self.seg.record(
                c,
                ReduceByKeyArgs {
                    keys: &self.gpu_keys,
                    values: &self.gpu_values,
                    unique_keys: a,
                    reduced: b,
                    count: &self.count,
                    op: Op::Sum,
                },
            ),
            Kind::RunLengths => self.seg.record(
                c,
                RunLengthsArgs {
                    keys: &self.gpu_keys,
                    unique_keys: a,
                    lengths: b,
                    count: &self.count,
                },
            ),
        }
    }
    fn verify(&mut self) -> Fut<'_, Result<(), String>> {
        Box::pin(async {
            let (keys, second) = self.want();
            if self.kind == Kind::Scan {
                return same(&read(&self.out[0]).await?, &keys);
            }
            let count = self.count.read().await.map_err(err)?;
            let got = Self::runs_read(&self.out, count).await?;
            same(&got[0], &keys)?;
            same(&got[1], &second)
        })
    }
    fn cpu(&mut self) -> f64 {
        nanos(|| {
            std::hint::black_box(self.want());
        })
    }
    fn peer_configs(&self) -> Vec<String> {
        match self.peer {
            Some(_) => vec!["RunLengthEncoder::new (its only constructor)".into()],
            None => Vec::new(),
        }
    }
    fn peer(&mut self, _config: usize, check: bool) -> Fut<'_, Result<f64, String>> {
        Box::pin(async move {
            let n = self.keys.len() as u32;
            let [unique, lengths, count] = &self.peer_out;
            let Some(peer) = self.peer.as_mut() else {
                return Err("no peer".to_string());
            };
            let outputs =
                lampshade::RunLengthOutputBuffers::new(unique.raw(), lengths.raw(), count.raw());
            let t = peer_nanos(
                peer.profile_encode_gpu_to_gpu(self.gpu_keys.raw(), outputs, n)
                    .await,
            )?;
            if check {
                let runs = read(count).await?[0];
                let got = Self::runs_read(&self.peer_out[..2], runs).await?;
                let (keys, lengths) = self.want();
                same(&got[0], &keys)?;
                same(&got[1], &lengths)?;
            }
            Ok(t)
        })
    }
}
