//! The parallel primitives of `shoal-kernels` in the benchmark harness, with `lampshade` 0.13 as
//! the peer for scan, reduce and sort (same device, same data, its own timestamp profile).

use std::time::Instant;

use shoal::{Buffer, Commands, Gpu};
use shoal_kernels::{
    Compact, CompactCount, Histogram, Keep, Matmul, MatmulKernel, Op, RadixSort, Reduce, Scan,
    ScanSpec, Strategy, WorkgroupScan, histogram_cpu, matmul_cpu, scan_cpu, workgroup_scan_cpu,
};

use crate::harness::{Case, Entry};

/// Every primitive's entry.
pub(crate) const ENTRIES: &[Entry] = &[
    Entry {
        name: "scan u32 (look-back)",
        bytes_per_element: 4,
        max_log2: 24,
        setup: |g, n| scan_case(g, n, Strategy::LookBack),
    },
    Entry {
        name: "scan u32 (multi-level)",
        bytes_per_element: 4,
        max_log2: 24,
        setup: |g, n| scan_case(g, n, Strategy::MultiLevel),
    },
    Entry {
        name: "workgroup scan (000)",
        bytes_per_element: 4,
        max_log2: 24,
        setup: workgroup_scan_case,
    },
    Entry {
        name: "reduce u32 sum",
        bytes_per_element: 4,
        max_log2: 24,
        setup: reduce_case,
    },
    Entry {
        name: "compact u32 (half kept)",
        bytes_per_element: 4,
        max_log2: 24,
        setup: compact_case,
    },
    Entry {
        name: "histogram 256 bins",
        bytes_per_element: 4,
        max_log2: 24,
        setup: histogram_case,
    },
    Entry {
        name: "radix sort u32 keys",
        bytes_per_element: 4,
        max_log2: 24,
        setup: |g, n| sort_case(g, n, false),
    },
    Entry {
        name: "radix sort u32 pairs",
        bytes_per_element: 8,
        max_log2: 24,
        setup: |g, n| sort_case(g, n, true),
    },
    Entry {
        name: "matmul tiled (n = side^2)",
        bytes_per_element: 8,
        max_log2: 20,
        setup: |g, n| matmul_case(g, n, MatmulKernel::Tiled),
    },
    Entry {
        name: "matmul naive (n = side^2)",
        bytes_per_element: 8,
        max_log2: 20,
        setup: |g, n| matmul_case(g, n, MatmulKernel::Naive),
    },
];

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn data(n: u64, bound: u32) -> Vec<u32> {
    // SplitMix-style hash: reproducible, no dependency.
    (0..n)
        .map(|i| {
            let mut z = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5851_F42D;
            z = (z ^ (z >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            let v = (z >> 32) as u32;
            if bound == 0 { v } else { v % bound }
        })
        .collect()
}

fn nanos(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_nanos() as f64
}

/// What most cases start from: `n` random values below `bound` (any with 0) on the host and on
/// the GPU, and a zeroed output of `out` elements.
struct Io {
    host: Vec<u32>,
    input: Buffer<u32>,
    output: Buffer<u32>,
}

fn io(gpu: &Gpu, n: u64, bound: u32, out: u64) -> Result<Io, String> {
    let host = data(n, bound);
    Ok(Io {
        input: gpu.buffer_from(&host).map_err(err)?,
        output: gpu.buffer_zeroed(out).map_err(err)?,
        host,
    })
}

fn read(b: &Buffer<u32>) -> Result<Vec<u32>, String> {
    pollster::block_on(b.read()).map_err(err)
}

fn same(got: &[u32], want: &[u32]) -> Result<(), String> {
    match got.iter().zip(want).position(|(a, b)| a != b) {
        Some(i) => Err(format!("index {i}: gpu {} cpu {}", got[i], want[i])),
        None if got.len() != want.len() => Err(format!("lengths {} and {}", got.len(), want.len())),
        None => Ok(()),
    }
}

struct ScanCase {
    gpu: Gpu,
    scan: Scan<u32>,
    spec: ScanSpec,
    io: Io,
    peer: Option<lampshade::Scanner>,
}

fn scan_case(gpu: &Gpu, n: u64, strategy: Strategy) -> Result<Box<dyn Case>, String> {
    let peer = (strategy == Strategy::LookBack).then(|| match gpu.adapter() {
        Some(a) => lampshade::Scanner::new_for_adapter(gpu.device(), gpu.queue(), &a.get_info()),
        None => lampshade::Scanner::new(gpu.device(), gpu.queue()),
    });
    Ok(Box::new(ScanCase {
        gpu: gpu.clone(),
        scan: Scan::new(gpu).map_err(err)?,
        spec: ScanSpec::inclusive(Op::Sum).with_strategy(strategy),
        io: io(gpu, n, 1000, n)?,
        peer,
    }))
}

impl Case for ScanCase {
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        self.scan
            .record(c, &self.io.input, &self.io.output, self.spec)
    }
    fn verify(&mut self) -> Result<(), String> {
        same(
            &read(&self.io.output)?,
            &scan_cpu(&self.io.host, Op::Sum, true),
        )
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
    fn peer(&mut self) -> Option<Result<f64, String>> {
        let peer = self.peer.as_mut()?;
        let out = match self.gpu.buffer_zeroed::<u32>(self.io.host.len() as u64) {
            Ok(b) => b,
            Err(e) => return Some(Err(err(e))),
        };
        let n = self.io.host.len() as u32;
        Some(
            pollster::block_on(peer.profile_scan_gpu_to_gpu(self.io.input.raw(), out.raw(), n))
                .map(|p| p.dispatch_time.as_nanos() as f64)
                .map_err(err),
        )
    }
}

struct WorkgroupScanCase {
    scan: WorkgroupScan<u32>,
    io: Io,
}

fn workgroup_scan_case(gpu: &Gpu, n: u64) -> Result<Box<dyn Case>, String> {
    Ok(Box::new(WorkgroupScanCase {
        scan: WorkgroupScan::new(gpu).map_err(err)?,
        io: io(gpu, n, 1000, n)?,
    }))
}

impl Case for WorkgroupScanCase {
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        self.scan
            .record(c, &self.io.input, &self.io.output, Op::Sum, true)
    }
    fn verify(&mut self) -> Result<(), String> {
        same(
            &read(&self.io.output)?,
            &workgroup_scan_cpu(&self.io.host, self.scan.block() as usize, Op::Sum, true),
        )
    }
    fn cpu(&mut self) -> f64 {
        let block = self.scan.block() as usize;
        nanos(|| {
            std::hint::black_box(workgroup_scan_cpu(&self.io.host, block, Op::Sum, true));
        })
    }
}

struct ReduceCase {
    gpu: Gpu,
    reduce: Reduce<u32>,
    io: Io,
    peer: lampshade::Reducer,
}

fn reduce_case(gpu: &Gpu, n: u64) -> Result<Box<dyn Case>, String> {
    Ok(Box::new(ReduceCase {
        gpu: gpu.clone(),
        reduce: Reduce::new(gpu).map_err(err)?,
        io: io(gpu, n, 0, 1)?,
        peer: lampshade::Reducer::new(gpu.device(), gpu.queue()),
    }))
}

impl Case for ReduceCase {
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        self.reduce
            .record(c, &self.io.input, &self.io.output, Op::Sum)
    }
    fn verify(&mut self) -> Result<(), String> {
        let want = self.io.host.iter().fold(0u32, |a, &x| a.wrapping_add(x));
        same(&read(&self.io.output)?, &[want])
    }
    fn cpu(&mut self) -> f64 {
        nanos(|| {
            std::hint::black_box(self.io.host.iter().fold(0u32, |a, &x| a.wrapping_add(x)));
        })
    }
    fn peer(&mut self) -> Option<Result<f64, String>> {
        let out = match self.gpu.buffer_zeroed::<u32>(1) {
            Ok(b) => b,
            Err(e) => return Some(Err(err(e))),
        };
        let n = self.io.host.len() as u32;
        Some(
            pollster::block_on(self.peer.profile_reduce_gpu_to_gpu(
                self.io.input.raw(),
                out.raw(),
                n,
                lampshade::U32Reduction::Sum,
            ))
            .map(|p| p.dispatch_time.as_nanos() as f64)
            .map_err(err),
        )
    }
}

struct CompactCase {
    compact: Compact,
    io: Io,
    count: CompactCount,
    keep: shoal_kernels::Predicate,
}

fn compact_case(gpu: &Gpu, n: u64) -> Result<Box<dyn Case>, String> {
    let compact = Compact::new(gpu).map_err(err)?;
    let keep = compact.predicate("(x & 1u) == 0u").map_err(err)?;
    Ok(Box::new(CompactCase {
        keep,
        compact,
        io: io(gpu, n, 0, n)?,
        count: CompactCount::new(gpu).map_err(err)?,
    }))
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
    fn verify(&mut self) -> Result<(), String> {
        let want: Vec<u32> = self
            .io
            .host
            .iter()
            .copied()
            .filter(|x| x & 1 == 0)
            .collect();
        let count = pollster::block_on(self.count.read()).map_err(err)?;
        let got = pollster::block_on(self.io.output.read_range(0..count as u64)).map_err(err)?;
        same(&got, &want)
    }
    fn cpu(&mut self) -> f64 {
        nanos(|| {
            std::hint::black_box(
                self.io
                    .host
                    .iter()
                    .copied()
                    .filter(|x| x & 1 == 0)
                    .collect::<Vec<_>>(),
            );
        })
    }
}

struct HistogramCase {
    hist: Histogram,
    io: Io,
}

fn histogram_case(gpu: &Gpu, n: u64) -> Result<Box<dyn Case>, String> {
    Ok(Box::new(HistogramCase {
        hist: Histogram::new(gpu).map_err(err)?,
        io: io(gpu, n, 256, 256)?,
    }))
}

impl Case for HistogramCase {
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        self.hist.record(c, &self.io.input, &self.io.output)
    }
    fn verify(&mut self) -> Result<(), String> {
        same(&read(&self.io.output)?, &histogram_cpu(&self.io.host, 256))
    }
    fn cpu(&mut self) -> f64 {
        nanos(|| {
            std::hint::black_box(histogram_cpu(&self.io.host, 256));
        })
    }
}

struct SortCase {
    gpu: Gpu,
    sort: RadixSort,
    host: Vec<u32>,
    pristine: Buffer<u32>,
    keys: Buffer<u32>,
    values: Option<Buffer<u32>>,
    peer: Option<lampshade::Sorter>,
}

fn sort_case(gpu: &Gpu, n: u64, pairs: bool) -> Result<Box<dyn Case>, String> {
    let host = data(n, 0);
    let peer = (!pairs).then(|| match gpu.adapter() {
        Some(a) => lampshade::Sorter::new_for_adapter(gpu.device(), gpu.queue(), &a.get_info()),
        None => lampshade::Sorter::new(gpu.device(), gpu.queue()),
    });
    let values = if pairs {
        Some(
            gpu.buffer_from(&(0..n as u32).collect::<Vec<_>>())
                .map_err(err)?,
        )
    } else {
        None
    };
    Ok(Box::new(SortCase {
        gpu: gpu.clone(),
        sort: RadixSort::new(gpu).map_err(err)?,
        pristine: gpu.buffer_from(&host).map_err(err)?,
        keys: gpu.buffer_zeroed(n).map_err(err)?,
        values,
        host,
        peer,
    }))
}

impl Case for SortCase {
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        // The sort is in place: start every run from the unsorted keys (a copy, not timed).
        c.copy(&self.pristine, &self.keys)?;
        match &self.values {
            Some(v) => self.sort.record_pairs(c, &self.keys, v),
            None => self.sort.record(c, &self.keys),
        }
    }
    fn verify(&mut self) -> Result<(), String> {
        let mut want = self.host.clone();
        want.sort_unstable();
        let got = read(&self.keys)?;
        same(&got, &want)?;
        if let Some(v) = &self.values {
            // Values are permuted with their keys (each value indexes the pristine keys).
            let v = read(v)?;
            if v.iter()
                .zip(&got)
                .any(|(&i, &k)| self.host.get(i as usize) != Some(&k))
            {
                return Err("values did not follow their keys".into());
            }
        }
        Ok(())
    }
    fn cpu(&mut self) -> f64 {
        let mut keys = self.host.clone();
        nanos(|| keys.sort_unstable())
    }
    fn peer(&mut self) -> Option<Result<f64, String>> {
        let peer = self.peer.as_mut()?;
        let out = match self.gpu.buffer_zeroed::<u32>(self.host.len() as u64) {
            Ok(b) => b,
            Err(e) => return Some(Err(err(e))),
        };
        let n = self.host.len() as u32;
        let t = pollster::block_on(peer.profile_sort_gpu_to_gpu(self.pristine.raw(), out.raw(), n))
            .map(|p| p.dispatch_time.as_nanos() as f64)
            .map_err(err);
        // The peer's output is checked like ours, so the comparison is between correct sorts.
        Some(t.and_then(|t| {
            let got = read(&out)?;
            if got.windows(2).any(|w| w[0] > w[1]) {
                return Err("lampshade returned unsorted keys".into());
            }
            Ok(t)
        }))
    }
}

struct MatmulCase {
    mm: Matmul,
    kernel: MatmulKernel,
    side: u32,
    a_host: Vec<f32>,
    b_host: Vec<f32>,
    a: Buffer<f32>,
    b: Buffer<f32>,
    c: Buffer<f32>,
}

fn matmul_case(gpu: &Gpu, n: u64, kernel: MatmulKernel) -> Result<Box<dyn Case>, String> {
    let side = (n as f64).sqrt() as u32;
    let to_f = |v: Vec<u32>| {
        v.into_iter()
            .map(|x| x as f32 / 1000.0 - 0.5)
            .collect::<Vec<f32>>()
    };
    let (a_host, b_host) = (to_f(data(n, 1000)), to_f(data(n + 1, 1000)[1..].to_vec()));
    Ok(Box::new(MatmulCase {
        mm: Matmul::new(gpu).map_err(err)?,
        kernel,
        side,
        a: gpu.buffer_from(&a_host).map_err(err)?,
        b: gpu.buffer_from(&b_host).map_err(err)?,
        c: gpu.buffer_zeroed(n).map_err(err)?,
        a_host,
        b_host,
    }))
}

impl Case for MatmulCase {
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        let s = self.side;
        self.mm
            .record(c, &self.a, &self.b, &self.c, [s, s, s], self.kernel)
    }
    fn verify(&mut self) -> Result<(), String> {
        let s = self.side as usize;
        let want = matmul_cpu(&self.a_host, &self.b_host, [s, s, s]);
        let got = pollster::block_on(self.c.read()).map_err(err)?;
        // Entries are sums of s products of magnitude <= 0.25.
        let bound = (s as f32 + 2.0) * f32::EPSILON * 0.25 * s as f32;
        match got
            .iter()
            .zip(&want)
            .position(|(g, w)| (g - w).abs() > bound)
        {
            Some(i) => Err(format!("index {i}: gpu {} cpu {}", got[i], want[i])),
            None => Ok(()),
        }
    }
    fn cpu(&mut self) -> f64 {
        let s = self.side as usize;
        let (a, b) = (&self.a_host, &self.b_host);
        nanos(|| {
            let mut c = vec![0f32; s * s];
            for i in 0..s {
                for p in 0..s {
                    let x = a[i * s + p];
                    for (cj, bj) in c[i * s..(i + 1) * s].iter_mut().zip(&b[p * s..(p + 1) * s]) {
                        *cj += x * bj;
                    }
                }
            }
            std::hint::black_box(c);
        })
    }
}
