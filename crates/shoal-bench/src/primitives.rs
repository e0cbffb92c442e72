//! Every primitive's benchmark entry, and what their cases share: the data, the buffers, the
//! comparison with the CPU twin. One file per family under `primitives/`.

mod compact;
mod histogram;
mod matmul;
mod reduce;
mod scan;
mod segmented;
mod sort;
mod sort_keys;

use shoal::{Buffer, Gpu};
use shoal_kernels::{MatmulKernel, Op, Strategy, U64};
use sort_keys::Shape;
use web_time::Instant;

use crate::harness::Entry;

/// Every primitive's entry.
pub const ENTRIES: &[Entry] = &[
    Entry {
        name: "scan u32 (look-back)",
        bytes_per_element: 4,
        max_log2: 24,
        setup: |g, n| scan::scan_case(g, n, Strategy::LookBack, Op::Sum.into()),
    },
    Entry {
        name: "scan u32 (look-back, WGSL operator)",
        bytes_per_element: 4,
        max_log2: 24,
        setup: |g, n| scan::scan_case(g, n, Strategy::LookBack, scan::WGSL_SUM.into()),
    },
    Entry {
        name: "scan u32 (multi-level)",
        bytes_per_element: 4,
        max_log2: 24,
        setup: |g, n| scan::scan_case(g, n, Strategy::MultiLevel, Op::Sum.into()),
    },
    Entry {
        name: "workgroup scan (OpenGL lesson)",
        bytes_per_element: 4,
        max_log2: 24,
        setup: scan::workgroup_scan_case,
    },
    Entry {
        name: "reduce u32 sum",
        bytes_per_element: 4,
        max_log2: 24,
        setup: |g, n| reduce::reduce_case(g, n, Op::Sum.into()),
    },
    Entry {
        name: "reduce u32 (WGSL operator)",
        bytes_per_element: 4,
        max_log2: 24,
        setup: |g, n| reduce::reduce_case(g, n, scan::WGSL_SUM.into()),
    },
    Entry {
        name: "compact u32 (half kept)",
        bytes_per_element: 4,
        max_log2: 24,
        setup: compact::compact_case,
    },
    Entry {
        name: "histogram 256 bins",
        bytes_per_element: 4,
        max_log2: 24,
        setup: histogram::histogram_case,
    },
    Entry {
        name: "segmented scan u32 sum",
        bytes_per_element: 8,
        max_log2: 24,
        setup: |g, n| segmented::segmented_case(g, n, segmented::Kind::Scan),
    },
    Entry {
        name: "reduce by key u32 sum",
        bytes_per_element: 8,
        max_log2: 24,
        setup: |g, n| segmented::segmented_case(g, n, segmented::Kind::ReduceByKey),
    },
    Entry {
        name: "run-length encoding",
        bytes_per_element: 4,
        max_log2: 24,
        setup: |g, n| segmented::segmented_case(g, n, segmented::Kind::RunLengths),
    },
    Entry {
        name: "radix sort u32 keys",
        bytes_per_element: 4,
        max_log2: 24,
        setup: |g, n| sort::sort_case(g, n, false),
    },
    Entry {
        name: "radix sort u32 pairs",
        bytes_per_element: 8,
        max_log2: 24,
        setup: |g, n| sort::sort_case(g, n, true),
    },
    Entry {
        name: "radix sort i32 keys",
        bytes_per_element: 4,
        max_log2: 24,
        setup: |g, n| sort_keys::key_case::<i32>(g, n, Shape::Keys),
    },
    Entry {
        name: "radix sort f32 keys",
        bytes_per_element: 4,
        max_log2: 24,
        setup: |g, n| sort_keys::key_case::<f32>(g, n, Shape::Keys),
    },
    Entry {
        name: "radix sort u64 keys",
        bytes_per_element: 8,
        max_log2: 24,
        setup: |g, n| sort_keys::key_case::<U64>(g, n, Shape::Keys),
    },
    Entry {
        name: "radix sort u64 argsort",
        bytes_per_element: 8,
        max_log2: 24,
        setup: |g, n| sort_keys::key_case::<U64>(g, n, Shape::Argsort),
    },
    Entry {
        name: "radix sort u32 pairs 16-byte values",
        bytes_per_element: 20,
        max_log2: 24,
        setup: |g, n| sort_keys::key_case::<u32>(g, n, Shape::Wide),
    },
    Entry {
        name: "radix sort u32 argsort",
        bytes_per_element: 4,
        max_log2: 24,
        setup: |g, n| sort_keys::key_case::<u32>(g, n, Shape::Argsort),
    },
    Entry {
        name: "radix sort u32 keys below 2^16, key bits 0..16",
        bytes_per_element: 4,
        max_log2: 24,
        setup: |g, n| sort_keys::key_case::<u32>(g, n, Shape::Low16),
    },
    Entry {
        name: "matmul tiled (n = side^2)",
        bytes_per_element: 8,
        max_log2: 20,
        setup: |g, n| matmul::matmul_case(g, n, MatmulKernel::Tiled),
    },
    Entry {
        name: "matmul naive (n = side^2)",
        bytes_per_element: 8,
        max_log2: 20,
        setup: |g, n| matmul::matmul_case(g, n, MatmulKernel::Naive),
    },
];

/// An error as its message.
fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// `n` reproducible pseudo-random values (SplitMix64 from one fixed seed, so a longer draw starts
/// with a shorter one), uniform over all 32 bits with `bound` 0, else reduced modulo `bound`.
fn data(n: u64, bound: u32) -> Vec<u32> {
    let mut rng = shoal::SplitMix64::new(0x5851_F42D);
    (0..n)
        .map(|_| {
            let v = rng.next_u32();
            if bound == 0 { v } else { v % bound }
        })
        .collect()
}

/// Wall-clock nanoseconds of `f`.
fn nanos(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_nanos() as f64
}

/// What most cases start from: `n` values from [`data`] on the host and on the GPU, and a
/// zeroed output of `out` elements.
struct Io {
    /// The input on the host (the CPU twin's).
    host: Vec<u32>,
    /// The input on the GPU.
    input: Buffer<u32>,
    /// The output on the GPU.
    output: Buffer<u32>,
}

/// [`Io`] of `n` values below `bound` (see [`data`]) and an output of `out` elements.
fn io(gpu: &Gpu, n: u64, bound: u32, out: u64) -> Result<Io, String> {
    let host = data(n, bound);
    Ok(Io {
        input: gpu.buffer_from(&host).map_err(err)?,
        output: gpu.buffer_zeroed(out).map_err(err)?,
        host,
    })
}

/// The whole buffer, read back.
async fn read(b: &Buffer<u32>) -> Result<Vec<u32>, String> {
    b.read().await.map_err(err)
}

/// `Ok` when `got` is `want`, else the first difference.
fn same(got: &[u32], want: &[u32]) -> Result<(), String> {
    match got.iter().zip(want).position(|(a, b)| a != b) {
        Some(i) => Err(format!("index {i}: gpu {} cpu {}", got[i], want[i])),
        None if got.len() != want.len() => Err(format!("lengths {} and {}", got.len(), want.len())),
        None => Ok(()),
    }
}

/// GPU nanoseconds of a lampshade profile (the sum of its compute passes' timestamps, as
/// Shoal's own times are the sum of its dispatches').
fn peer_nanos(profile: Result<lampshade::GpuProfile, lampshade::Error>) -> Result<f64, String> {
    profile
        .map(|p| p.dispatch_time.as_nanos() as f64)
        .map_err(|e| format!("lampshade: {e}"))
}

/// The entries `filter` asks for: all of them for no filter or `kernels`, else those whose name
/// contains one of its words.
pub fn selected(filter: &[String]) -> Vec<Entry> {
    let all = filter.is_empty() || filter.iter().any(|f| f == "kernels");
    ENTRIES
        .iter()
        .filter(|e| all || filter.iter().any(|f| e.name.contains(f.as_str())))
        .copied()
        .collect()
}

/// The sizes (log2) measured up to 2^`max_log2`: 2^16, 2^20, 2^22, 2^24, 2^26.
pub fn sizes(max_log2: u32) -> Vec<u32> {
    [16, 20, 22, 24, 26]
        .into_iter()
        .filter(|&s| s <= max_log2)
        .collect()
}
