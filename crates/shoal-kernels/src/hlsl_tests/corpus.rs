//! The HLSL corpus (`wgsl/hlsl/corpus/`): compute shaders written in the styles HLSL code comes
//! in (D3D12-sample cbuffers and structured buffers, groupshared reductions and scans, raw
//! buffers, append buffers, explicit `[[vk::binding]]`s and spaces, typed UAVs of every shape),
//! each made a kernel; most also dispatched and checked against a CPU reference written here.

use shoal::{Gpu, Source};
use shoal_conformance::gpu_test;
use shoal_conformance::rng::Rng;

const SAXPY: Source = shoal::hlsl!("../../wgsl/hlsl/corpus/saxpy.hlsl", "CSMain");
const GROUP_SUM: Source = shoal::hlsl!("../../wgsl/hlsl/corpus/group_sum.hlsl", "ReduceCS");
const HISTOGRAM: Source = shoal::hlsl!("../../wgsl/hlsl/corpus/histogram.hlsl", "HistogramCS");
const GROUP_SCAN: Source = shoal::hlsl!("../../wgsl/hlsl/corpus/group_scan.hlsl", "ScanCS");
const TRANSPOSE: Source = shoal::hlsl!("../../wgsl/hlsl/corpus/transpose.hlsl", "TransposeCS");
const GRAYSCALE: Source = shoal::hlsl!("../../wgsl/hlsl/corpus/grayscale.hlsl", "GrayCS");
const DOWNSAMPLE: Source = shoal::hlsl!("../../wgsl/hlsl/corpus/downsample.hlsl", "DownsampleCS");
const THRESHOLD: Source = shoal::hlsl!("../../wgsl/hlsl/corpus/threshold.hlsl", "ThresholdCS");
const BYTE_ADDRESS: Source = shoal::hlsl!("../../wgsl/hlsl/corpus/byte_address.hlsl", "MultiplyCS");
const KEEP_EVEN: Source = shoal::hlsl!("../../wgsl/hlsl/corpus/keep_even.hlsl", "KeepEvenCS");
const BINDINGS: Source = shoal::hlsl!("../../wgsl/hlsl/corpus/bindings.hlsl", "DistanceCS");
const VOLUME: Source = shoal::hlsl!("../../wgsl/hlsl/corpus/volume.hlsl", "FillCS");
const PUSH_SCALE: Source = shoal::hlsl!("../../wgsl/hlsl/corpus/push_scale.hlsl", "ScaleCS");

/// The corpus, each with the bindings its kernel must reflect (by their HLSL names).
const CORPUS: &[(Source, &[&str])] = &[
    (SAXPY, &["SaxpyCB", "gX", "gY"]),
    (GROUP_SUM, &["gInput", "gSums"]),
    (HISTOGRAM, &["gValues", "gBins"]),
    (GROUP_SCAN, &["gData"]),
    (TRANSPOSE, &["TransposeCB", "gIn", "gOut"]),
    (GRAYSCALE, &["gSource", "gGray"]),
    (DOWNSAMPLE, &["gFull", "gLinearClamp", "gHalf"]),
    (THRESHOLD, &["BandCB", "gValues"]),
    (BYTE_ADDRESS, &["gPairs", "gProducts"]),
    (KEEP_EVEN, &["gValues", "gEven"]),
    (
        BINDINGS,
        &[
            "gPositions",
            "gDistances",
            "ViewCB",
            "gMask",
            "gPoint",
            "gVisible",
        ],
    ),
    (VOLUME, &["gVolume"]),
    (PUSH_SCALE, &["gData"]),
];

/// `push_scale.hlsl`'s root constants.
#[derive(Clone, Copy, encase::ShaderType)]
struct ScaleConstants {
    scale: f32,
    offset: f32,
    count: u32,
}

/// SAXPY's `SaxpyCB`.
#[derive(Clone, Copy, encase::ShaderType)]
struct SaxpyCb {
    a: f32,
    count: u32,
}

/// The threshold's `BandCB`.
#[derive(Clone, Copy, encase::ShaderType)]
struct BandCb {
    low: f32,
    high: f32,
}

/// The transpose's `TransposeCB`.
#[derive(Clone, Copy, encase::ShaderType)]
struct TransposeCb {
    rows: u32,
    cols: u32,
}

/// Random `u32`s below `below`.
fn values(rng: &mut Rng, n: usize, below: u32) -> Vec<u32> {
    (0..n).map(|_| rng.next_u32() % below).collect()
}

gpu_test! {
    /// Every corpus shader is a kernel reflecting exactly its HLSL bindings (and `push_scale`
    /// its root constants as immediates).
    async fn hlsl_corpus_every_shader_is_a_kernel(gpu) {
        assert!(CORPUS.len() >= 10);
        for (source, names) in CORPUS {
            let kernel = gpu.kernel(source.clone()).unwrap_or_else(|e| panic!("{}: {e}", source.path()));
            // Where the device has no immediates (the browser), Shoal binds them itself.
            let owned = kernel.reflection().immediates.as_ref().filter(|i| i.binding.is_some()).map(|i| i.name.clone());
            let mut got: Vec<String> = kernel.reflection().bindings.iter().map(|b| b.name.clone()).filter(|n| Some(n) != owned.as_ref()).collect();
            let mut want: Vec<String> = names.iter().map(|n| n.to_string()).collect();
            got.sort();
            want.sort();
            assert_eq!(got, want, "{}", source.path());
        }
        let pc = gpu.kernel(PUSH_SCALE).expect("kernel").reflection().immediates.clone().expect("immediates");
        assert_eq!((pc.name.as_str(), pc.shape.fixed), ("pc", 12));
    }

    /// SAXPY, the group sums, the histogram and the group scans against the CPU, at sizes
    /// around their groups.
    async fn hlsl_corpus_buffers_match_the_cpu(gpu) {
        let mut rng = Rng::new(41);
        for n in [1usize, 63, 64, 65, 129, 1000] {
            saxpy(&gpu, &mut rng, n).await;
            group_sum(&gpu, &mut rng, n).await;
            histogram(&gpu, &mut rng, n).await;
            group_scan(&gpu, &mut rng, n).await;
            byte_address(&gpu, &mut rng, n).await;
            keep_even(&gpu, &mut rng, n).await;
            threshold(&gpu, &mut rng, n).await;
        }
        for n in [0usize, 1, 63, 64, 65, 130] {
            push_scale(&gpu, n).await;
        }
        for [rows, cols] in [[1u32, 1u32], [3, 17], [16, 16], [33, 20]] {
            transpose(&gpu, &mut rng, rows, cols).await;
        }
    }
}

async fn saxpy(gpu: &Gpu, rng: &mut Rng, n: usize) {
    let x: Vec<f32> = (0..n).map(|_| rng.range_f32(-10.0, 10.0)).collect();
    let y: Vec<f32> = (0..n).map(|_| rng.range_f32(-10.0, 10.0)).collect();
    let cb = gpu
        .uniform(&SaxpyCb {
            a: 2.5,
            count: n as u32,
        })
        .expect("cbuffer");
    let (bx, by) = (
        gpu.buffer_from(&x).expect("x"),
        gpu.buffer_from(&y).expect("y"),
    );
    let kernel = gpu.kernel(SAXPY).expect("kernel");
    kernel
        .bind("SaxpyCB", &cb)
        .bind("gX", &bx)
        .bind("gY", &by)
        .invocations(n as u64)
        .run()
        .expect("run");
    let got = by.read().await.expect("read");
    for (i, g) in got.iter().enumerate() {
        assert!(
            (g - (2.5 * x[i] + y[i])).abs() <= 1e-5,
            "saxpy {n}: element {i}"
        );
    }
}

async fn group_sum(gpu: &Gpu, rng: &mut Rng, n: usize) {
    let input = values(rng, n, 1000);
    let groups = n.div_ceil(128);
    let sums = gpu.buffer_zeroed::<u32>(groups as u64).expect("sums");
    let kernel = gpu.kernel(GROUP_SUM).expect("kernel");
    kernel
        .bind("gInput", &gpu.buffer_from(&input).expect("input"))
        .bind("gSums", &sums)
        .groups([groups as u32, 1, 1])
        .run()
        .expect("run");
    let want: Vec<u32> = input.chunks(128).map(|c| c.iter().sum()).collect();
    assert_eq!(sums.read().await.expect("read"), want, "group sums of {n}");
}

async fn histogram(gpu: &Gpu, rng: &mut Rng, n: usize) {
    let input = values(rng, n, 100);
    let bins = gpu.buffer_zeroed::<u32>(16).expect("bins");
    let kernel = gpu.kernel(HISTOGRAM).expect("kernel");
    kernel
        .bind("gValues", &gpu.buffer_from(&input).expect("values"))
        .bind("gBins", &bins)
        .invocations(n as u64)
        .run()
        .expect("run");
    let mut want = vec![0u32; 16];
    for v in &input {
        want[(v % 16) as usize] += 1;
    }
    assert_eq!(bins.read().await.expect("read"), want, "histogram of {n}");
}

async fn group_scan(gpu: &Gpu, rng: &mut Rng, n: usize) {
    let input: Vec<f32> = values(rng, n, 16).iter().map(|&v| v as f32).collect();
    let data = gpu.buffer_from(&input).expect("data");
    let kernel = gpu.kernel(GROUP_SCAN).expect("kernel");
    kernel
        .bind("gData", &data)
        .invocations(n as u64)
        .run()
        .expect("run");
    let want: Vec<f32> = input
        .chunks(64)
        .flat_map(|c| {
            c.iter()
                .scan(0.0, |s, v| {
                    *s += v;
                    Some(*s)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(data.read().await.expect("read"), want, "scans of {n}");
}

async fn byte_address(gpu: &Gpu, rng: &mut Rng, n: usize) {
    let pairs = values(rng, 2 * n, 1 << 12);
    let products = gpu.buffer_zeroed::<u32>(n as u64).expect("products");
    let kernel = gpu.kernel(BYTE_ADDRESS).expect("kernel");
    kernel
        .bind("gPairs", &gpu.buffer_from(&pairs).expect("pairs"))
        .bind("gProducts", &products)
        .invocations(n as u64)
        .run()
        .expect("run");
    let want: Vec<u32> = pairs.chunks(2).map(|p| p[0] * p[1]).collect();
    assert_eq!(
        products.read().await.expect("read"),
        want,
        "products of {n}"
    );
}

async fn keep_even(gpu: &Gpu, rng: &mut Rng, n: usize) {
    let input = values(rng, n, 1000);
    let even = gpu.append_buffer::<u32>(n as u64).expect("even");
    let kernel = gpu.kernel(KEEP_EVEN).expect("kernel");
    kernel
        .bind("gValues", &gpu.buffer_from(&input).expect("values"))
        .bind("gEven", &even)
        .invocations(n as u64)
        .run()
        .expect("run");
    let mut got = even.read().await.expect("read");
    got.sort_unstable();
    let mut want: Vec<u32> = input.iter().copied().filter(|v| v % 2 == 0).collect();
    want.sort_unstable();
    assert_eq!(got, want, "evens of {n}");
}

async fn threshold(gpu: &Gpu, rng: &mut Rng, n: usize) {
    let input: Vec<[f32; 4]> = (0..n)
        .map(|_| [0; 4].map(|_| rng.range_f32(-1.0, 2.0)))
        .collect();
    let (low, high) = (0.25, 0.75);
    let cb = gpu.uniform(&BandCb { low, high }).expect("cbuffer");
    let data = gpu.buffer_from(&input).expect("values");
    let kernel = gpu.kernel(THRESHOLD).expect("kernel");
    kernel
        .bind("BandCB", &cb)
        .bind("gValues", &data)
        .invocations(n as u64)
        .run()
        .expect("run");
    // Below the band 0, above it 1, inside it the value: HLSL's `select` per component.
    let band = |v: f32| {
        if v < low {
            0.0
        } else if v > high {
            1.0
        } else {
            v
        }
    };
    let want: Vec<[f32; 4]> = input.iter().map(|t| t.map(band)).collect();
    assert_eq!(data.read().await.expect("read"), want, "thresholds of {n}");
}

async fn transpose(gpu: &Gpu, rng: &mut Rng, rows: u32, cols: u32) {
    let input: Vec<f32> = (0..rows * cols).map(|_| rng.range_f32(-1.0, 1.0)).collect();
    let out = gpu.buffer_zeroed::<f32>((rows * cols) as u64).expect("out");
    let cb = gpu.uniform(&TransposeCb { rows, cols }).expect("cbuffer");
    let kernel = gpu.kernel(TRANSPOSE).expect("kernel");
    kernel
        .bind("TransposeCB", &cb)
        .bind("gIn", &gpu.buffer_from(&input).expect("in"))
        .bind("gOut", &out)
        .groups([cols.div_ceil(16), rows.div_ceil(16), 1])
        .run()
        .expect("run");
    let want: Vec<f32> = (0..cols)
        .flat_map(|c| (0..rows).map(move |r| (r, c)))
        .map(|(r, c)| input[(r * cols + c) as usize])
        .collect();
    assert_eq!(out.read().await.expect("read"), want, "{rows}x{cols}");
}

/// Root constants: two dispatches with other immediates each, the second over part only.
async fn push_scale(gpu: &Gpu, n: usize) {
    let input: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let data = gpu.buffer_from(&input).expect("data");
    let kernel = gpu.kernel(PUSH_SCALE).expect("kernel");
    let first = ScaleConstants {
        scale: 2.0,
        offset: 1.0,
        count: n as u32,
    };
    let second = ScaleConstants {
        scale: -1.0,
        offset: 0.5,
        count: (n as u32).min(64),
    };
    for pc in [first, second] {
        kernel
            .bind("gData", &data)
            .immediates(&pc)
            .invocations(n as u64)
            .run()
            .expect("run");
    }
    let want: Vec<f32> = input
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let x = x * first.scale + first.offset;
            if (i as u32) < second.count {
                x * second.scale + second.offset
            } else {
                x
            }
        })
        .collect();
    assert_eq!(
        data.read().await.expect("read"),
        want,
        "push constants over {n}"
    );
}
