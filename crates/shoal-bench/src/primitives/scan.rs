//! Scans: the look-back and multi-level inclusive sums beside lampshade's `Scanner`, and the
//! document's per-work-group scan. Inputs are below 1000 (as the scan tests use): sums of up to
//! 2^24 of them still wrap, and both sides wrap alike, so the check is exact either way.

use shoal::{Commands, Gpu};
use shoal_kernels::{
    Op, Operation, Operator, Record, Scan, ScanArgs, ScanSpec, Strategy, WorkgroupScan,
    WorkgroupScanArgs, scan_cpu, workgroup_scan_cpu,
};

use super::{Io, err, io, nanos, peer_nanos, read, same};
use crate::harness::{Case, Fut};

/// A scan and, for the look-back strategy, lampshade's scanners.
struct ScanCase {
    scan: Scan<u32>,
    spec: ScanSpec,
    io: Io,
    /// lampshade's scanners, one per configuration tried, with their names.
    peers: Vec<(String, lampshade::Scanner)>,
    /// Where the peer writes.
    peer_out: shoal::Buffer<u32>,
}

/// The sum written as a user's [`Operator`]: the same result as [`Op::Sum`], so its row measures
/// what the operator path costs (its fold in element order, no subgroup reduction).
pub(super) const WGSL_SUM: Operator = Operator::new(
    "sum in WGSL",
    "fn identity() -> T { return 0u; }\nfn combine(a: T, b: T) -> T { return a + b; }",
);

/// The inclusive sum with `op` (the built-in one or [`WGSL_SUM`]) and `strategy`; the built-in
/// look-back (Shoal's default) is compared with the peer.
pub(super) fn scan_case(
    gpu: &Gpu,
    n: u64,
    strategy: Strategy,
    op: Operation,
) -> Result<Box<dyn Case>, String> {
    let (device, queue) = (gpu.device(), gpu.queue());
    let mut peers = Vec::new();
    if strategy == Strategy::LookBack && op == Op::Sum.into() {
        // `new_for_adapter` allows lampshade's subgroup scan (one element per invocation);
        // `new` is its portable scan (8 per invocation). Where the device has no subgroups
        // both are the portable scan: one is enough.
        if let Some(adapter) = gpu.adapter() {
            let name = if gpu.has_subgroups() {
                "Scanner::new_for_adapter (subgroup scan)"
            } else {
                "Scanner::new_for_adapter (no subgroups: portable scan)"
            };
            peers.push((
                name.to_string(),
                lampshade::Scanner::new_for_adapter(device, queue, &adapter.get_info()),
            ));
        }
        if gpu.has_subgroups() || peers.is_empty() {
            peers.push((
                "Scanner::new (portable scan)".to_string(),
                lampshade::Scanner::new(device, queue),
            ));
        }
    }
    Ok(Box::new(ScanCase {
        scan: Scan::new(gpu).map_err(err)?,
        spec: ScanSpec::inclusive(op).with_strategy(strategy),
        io: io(gpu, n, 1000, n)?,
        peers,
        peer_out: gpu.buffer_zeroed(n).map_err(err)?,
    }))
}

impl Case for ScanCase {
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        self.scan.record(
            c,
            ScanArgs {
                input: &self.io.input,
                output: &self.io.output,
                spec: self.spec,
            },
        )
    }
    fn verify(&mut self) -> Fut<'_, Result<(), String>> {
        Box::pin(async {
            same(
                &read(&self.io.output).await?,
                &scan_cpu(&self.io.host, Op::Sum, true),
            )
        })
    }
    fn cpu(&mut self) -> f64 {
        let mut out = vec![0u32; self.io.host.len()];
        nanos(|| {
            let mut acc = 0u32;
            for (o, &x) in out.iter_mut().zip(&self.io.host) {
                acc = acc.wrapping_add(x);
                *o = acc;
            }
            std::hint::black_box(&out);
        })
    }
    fn peer_configs(&self) -> Vec<String> {
        self.peers.iter().map(|p| p.0.clone()).collect()
    }
    fn peer(&mut self, config: usize, check: bool) -> Fut<'_, Result<f64, String>> {
        Box::pin(async move {
            let n = self.io.host.len() as u32;
            let peer = &mut self.peers[config].1;
            let t = peer_nanos(
                peer.profile_scan_gpu_to_gpu(self.io.input.raw(), self.peer_out.raw(), n)
                    .await,
            )?;
            if check {
                same(
                    &read(&self.peer_out).await?,
                    &scan_cpu(&self.io.host, Op::Sum, true),
                )?;
            }
            Ok(t)
        })
    }
}

/// The document's scan of each work group's block on its own (no peer has it).
struct WorkgroupScanCase {
    scan: WorkgroupScan<u32>,
    io: Io,
}

/// The per-work-group scan case.
pub(super) fn workgroup_scan_case(gpu: &Gpu, n: u64) -> Result<Box<dyn Case>, String> {
    Ok(Box::new(WorkgroupScanCase {
        scan: WorkgroupScan::new(gpu).map_err(err)?,
        io: io(gpu, n, 1000, n)?,
    }))
}

impl Case for WorkgroupScanCase {
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        self.scan.record(
            c,
            WorkgroupScanArgs {
                input: &self.io.input,
                output: &self.io.output,
                op: Op::Sum,
                inclusive: true,
            },
        )
    }
    fn verify(&mut self) -> Fut<'_, Result<(), String>> {
        Box::pin(async {
            let block = self.scan.block() as usize;
            same(
                &read(&self.io.output).await?,
                &workgroup_scan_cpu(&self.io.host, block, Op::Sum, true),
            )
        })
    }
    fn cpu(&mut self) -> f64 {
        let block = self.scan.block() as usize;
        nanos(|| {
            std::hint::black_box(workgroup_scan_cpu(&self.io.host, block, Op::Sum, true));
        })
    }
}
