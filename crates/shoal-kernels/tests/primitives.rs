//! Compaction (with GPU chaining), histogram, radix sort and matmul against their CPU twins.

// Each test holds `common::serial()` across its awaits on purpose: the tests of a binary take turns.
#![allow(clippy::await_holding_lock)]

mod common;

use common::{SIZES, first_difference, random_sizes, random_u32};
use shoal::{Gpu, Usage};
use shoal_conformance::rng::Rng;
use shoal_kernels::{
    Compact, CompactCount, Histogram, Keep, Matmul, MatmulKernel, RadixSort, Tiling, compact_cpu,
    histogram_cpu, matmul_cpu, sort_pairs_cpu,
};

async fn check_sort_pairs(gpu: &Gpu, sort: &RadixSort, keys: &[u32], label: &str) {
    let values: Vec<u32> = (0..keys.len() as u32).collect();
    let (kb, vb) = (
        gpu.buffer_from(keys).expect("keys"),
        gpu.buffer_from(&values).expect("values"),
    );
    sort.run_pairs(&kb, &vb).expect("sort");
    let (want_k, want_v) = sort_pairs_cpu(keys, &values);
    let got_k = kb.read().await.expect("keys");
    assert_eq!(
        first_difference(&got_k, &want_k),
        None,
        "{label}: n = {} keys",
        keys.len()
    );
    // The values are the original indices: equal keys must keep them ascending (stability).
    assert_eq!(
        first_difference(&vb.read().await.expect("values"), &want_v),
        None,
        "{label}: n = {} values",
        keys.len()
    );
}

shoal_conformance::gpu_test! {
    /// Compaction by flags at every listed size; the count stays on the GPU until read.
    async fn compact_flags_every_size(gpu) {
        let _serial = common::serial();
        let compact = Compact::new(&gpu).expect("compact");
        let count = CompactCount::new(&gpu).expect("count");
        for &n in SIZES {
            let values = random_u32(n, n, 0);
            let flags: Vec<u32> = random_u32(n + 1, n, 3);
            let (vb, fb) = (gpu.buffer_from(&values).expect("values"), gpu.buffer_from(&flags).expect("flags"));
            let out = gpu.buffer_zeroed::<u32>(n).expect("out");
            compact.run(&vb, Keep::Flags(&fb), &out, &count).expect("compact");
            let want = compact_cpu(&values, |_, i| flags[i] != 0);
            assert_eq!(count.read().await.expect("count") as usize, want.len(), "n = {n}");
            let got = out.read_range(0..want.len() as u64).await.expect("out");
            assert_eq!(first_difference(&got, &want), None, "n = {n}");
        }
    }

    /// Compaction by a WGSL predicate at random sizes, none kept and all kept.
    async fn compact_predicate(gpu) {
        let _serial = common::serial();
        let compact = Compact::new(&gpu).expect("compact");
        let count = CompactCount::new(&gpu).expect("count");
        let odd = compact.predicate("x % 2u == 1u").expect("predicate");
        let none = compact.predicate("false").expect("none");
        let all = compact.predicate("i < 0xffffffffu").expect("all");
        for n in random_sizes(3, 4, 200_000).into_iter().chain([70_001]) {
            let values = random_u32(n, n, 0);
            let vb = gpu.buffer_from(&values).expect("values");
            let out = gpu.buffer_zeroed::<u32>(n).expect("out");
            for (p, keep) in [(&odd, &(|x: u32, _| x % 2 == 1) as &dyn Fn(u32, usize) -> bool), (&none, &|_, _| false), (&all, &|_, _| true)] {
                compact.run(&vb, Keep::Predicate(p), &out, &count).expect("compact");
                let want = compact_cpu(&values, keep);
                assert_eq!(count.read().await.expect("count") as usize, want.len(), "{} n = {n}", p.expression());
                assert_eq!(first_difference(&out.read_range(0..want.len() as u64).await.expect("out"), &want), None);
            }
        }
        assert!(matches!(compact.predicate("x +"), Err(shoal::Error::Wgsl { .. })));
        // A predicate's WGSL error names the predicate and its own line, not the file's.
        let e = compact.predicate("x < nope").expect_err("unknown identifier");
        assert!(e.to_string().contains("--> predicate `x < nope`:2:16"), "{e}");
    }

    /// GPU chaining: compaction's count becomes the indirect arguments of the next kernel, which
    /// doubles exactly the kept elements, all in one batch with no readback in between.
    async fn compact_count_drives_indirect_dispatch(gpu) {
        let _serial = common::serial();
        let compact = Compact::new(&gpu).expect("compact");
        let double = gpu
            .kernel(shoal::Source::new("double_kept.wgsl", "
                #import shoal::fold
                @group(0) @binding(0) var<storage, read> count_args: array<u32>;
                @group(0) @binding(1) var<storage, read_write> data: array<u32>;
                @compute @workgroup_size(64)
                fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                        @builtin(local_invocation_index) lid: u32) {
                    let i = shoal_linear_index(wid, nwg, lid, 64u);
                    if i < count_args[0] { data[i] = 2u * data[i] + 1u; }
                }"))
            .expect("kernel");
        let n = 300_000u64;
        let values = random_u32(9, n, 1000);
        let vb = gpu.buffer_from(&values).expect("values");
        let keep = compact.predicate("x < 250u").expect("predicate");
        let out = gpu.buffer_zeroed::<u32>(n).expect("out");
        let count = CompactCount::new(&gpu).expect("count");
        let mut commands = gpu.commands();
        compact.record(&mut commands, &vb, Keep::Predicate(&keep), &out, &count, 64).expect("compact");
        double.bind("count_args", &count.buffer).bind("data", &out).indirect(&count.buffer, CompactCount::ARGS_OFFSET).record(&mut commands).expect("indirect");
        commands.submit().expect("submit");
        let want: Vec<u32> = compact_cpu(&values, |x, _| x < 250).into_iter().map(|x| 2 * x + 1).collect();
        let args = count.read_args().await.expect("args");
        assert!((args.x * args.y * 64) as usize >= want.len(), "{args:?}");
        assert_eq!(first_difference(&out.read_range(0..want.len() as u64).await.expect("out"), &want), None);
        // Past the count, nothing was touched.
        assert!(out.read_range(want.len() as u64..want.len() as u64 + 64).await.expect("tail").iter().all(|&x| x == 0));
        let _ = Usage::INDIRECT;
    }

    /// Histograms: every listed size into 256 bins, every element in one bin, odd bin counts.
    async fn histogram_sizes_and_one_bin(gpu) {
        let _serial = common::serial();
        let hist = Histogram::new(&gpu).expect("histogram");
        let counts = gpu.buffer_zeroed::<u32>(256).expect("counts");
        for &n in SIZES {
            let data = random_u32(n, n, 300);
            let input = gpu.buffer_from(&data).expect("input");
            hist.run(&input, &counts).expect("run");
            assert_eq!(counts.read().await.expect("counts"), histogram_cpu(&data, 256), "n = {n}");
        }
        let same = vec![77u32; 1_000_003];
        let input = gpu.buffer_from(&same).expect("input");
        hist.run(&input, &counts).expect("run");
        assert_eq!(counts.read().await.expect("counts"), histogram_cpu(&same, 256));
        // Not max_bins (1024): llvmpipe's GL driver takes ~25 s to build that kernel.
        for bins in [1u64, 7, 1000] {
            let data = random_u32(bins, 100_000, 0).into_iter().map(|x| x % (bins as u32 + 10)).collect::<Vec<_>>();
            let input = gpu.buffer_from(&data).expect("input");
            let counts = gpu.buffer_zeroed::<u32>(bins).expect("counts");
            hist.run(&input, &counts).expect("run");
            assert_eq!(counts.read().await.expect("counts"), histogram_cpu(&data, bins as usize), "bins = {bins}");
        }
        let too_many = gpu.buffer_zeroed::<u32>(hist.max_bins() as u64 + 1).expect("counts");
        let input = gpu.buffer_from(&[1u32]).expect("input");
        assert!(matches!(hist.run(&input, &too_many), Err(shoal::Error::WorkgroupMemory { .. })));
    }

    /// Radix sort of keys at every listed size, full u32 range.
    async fn sort_keys_every_size(gpu) {
        let _serial = common::serial();
        let sort = RadixSort::new(&gpu).expect("sort");
        for &n in SIZES {
            let keys = random_u32(n, n, 0);
            let kb = gpu.buffer_from(&keys).expect("keys");
            sort.run_keys(&kb).expect("sort");
            let mut want = keys.clone();
            want.sort_unstable();
            assert_eq!(first_difference(&kb.read().await.expect("keys"), &want), None, "n = {n}");
        }
    }

    /// Pairs: stability with many duplicates, all-equal keys, descending keys, the extremes of
    /// u32, and 65,536 pairs (where a published single-pass sort fails on lavapipe).
    async fn sort_pairs_edge_cases(gpu) {
        let _serial = common::serial();
        let sort = RadixSort::new(&gpu).expect("sort");
        check_sort_pairs(&gpu, &sort, &random_u32(1, 65_536, 0), "65536 random pairs").await;
        check_sort_pairs(&gpu, &sort, &random_u32(2, 200_003, 50), "duplicates").await;
        check_sort_pairs(&gpu, &sort, &vec![0xdead_beef; 100_000], "all equal").await;
        check_sort_pairs(&gpu, &sort, &(0..70_000u32).rev().map(|x| x * 61_000).collect::<Vec<_>>(), "descending").await;
        let mut extremes = random_u32(3, 10_000, 0);
        for (i, k) in extremes.iter_mut().enumerate() {
            *k = [0, u32::MAX, 1, u32::MAX - 1, 0x8000_0000, *k][i % 6];
        }
        check_sort_pairs(&gpu, &sort, &extremes, "extremes").await;
        for n in random_sizes(11, 3, 150_000) {
            check_sort_pairs(&gpu, &sort, &random_u32(n, n, 0), "random size").await;
        }
        let (k, v) = (gpu.buffer_zeroed::<u32>(10).expect("k"), gpu.buffer_zeroed::<u32>(9).expect("v"));
        assert!(matches!(sort.run_pairs(&k, &v), Err(shoal::Error::Length { .. })));
    }

    /// Both tilings of the sort where the device runs them (one-subgroup work groups only where
    /// the subgroup size is fixed, else a typed error), with odd keys per invocation: pairs stay
    /// stable across tile edges.
    async fn sort_every_tiling(gpu) {
        let _serial = common::serial();
        for one_subgroup in [false, true] {
            for per in [1, 7] {
                let tiling = Tiling { per_invocation: per, one_subgroup };
                let sort = match RadixSort::with_tiling(&gpu, tiling) {
                    Ok(s) => s,
                    Err(e) => {
                        assert!(one_subgroup && gpu.subgroup_size().is_none(), "{tiling:?}: {e}");
                        assert!(matches!(e, shoal::Error::MissingFeature { .. }), "{e}");
                        continue;
                    }
                };
                let label = format!("{tiling:?}");
                for &n in &[2u64, 257, 4099, 65_537] {
                    check_sort_pairs(&gpu, &sort, &random_u32(n + 3, n, 0), &label).await;
                }
                check_sort_pairs(&gpu, &sort, &random_u32(4, 65_537, 20), &label).await;
            }
        }
        assert!(matches!(RadixSort::with_tiling(&gpu, Tiling { per_invocation: 0, one_subgroup: false }), Err(shoal::Error::Override { .. })));
    }

    /// Matrix products of shapes that are not multiples of the tile, both kernels; the error per
    /// element is bounded by k·ε·Σ|a_ip·b_pj| (sequential f32 accumulation against f64).
    async fn matmul_ragged_shapes(gpu) {
        let _serial = common::serial();
        let mm = Matmul::new(&gpu).expect("matmul");
        let mut rng = Rng::new(5);
        for [m, k, n] in [[1u32, 1, 1], [17, 33, 65], [64, 64, 64], [100, 7, 129], [3, 300, 5], [130, 130, 1]] {
            let a: Vec<f32> = (0..m * k).map(|_| rng.range_f32(-1.0, 1.0)).collect();
            let b: Vec<f32> = (0..k * n).map(|_| rng.range_f32(-1.0, 1.0)).collect();
            let (ab, bb) = (gpu.buffer_from(&a).expect("a"), gpu.buffer_from(&b).expect("b"));
            let c = gpu.buffer_zeroed::<f32>((m * n) as u64).expect("c");
            let want = matmul_cpu(&a, &b, [m as usize, k as usize, n as usize]);
            for kernel in [MatmulKernel::Tiled, MatmulKernel::Naive] {
                mm.run(&ab, &bb, &c, [m, k, n], kernel).expect("run");
                let got = c.read().await.expect("c");
                for (i, (&g, &w)) in got.iter().zip(&want).enumerate() {
                    let (r, col) = (i / n as usize, i % n as usize);
                    let abs: f64 = (0..k as usize).map(|p| (a[r * k as usize + p] as f64 * b[p * n as usize + col] as f64).abs()).sum();
                    let bound = (k as f64 + 2.0) * f32::EPSILON as f64 * abs;
                    assert!((g as f64 - w as f64).abs() <= bound, "{kernel:?} {m}x{k}x{n} at {i}: {g} vs {w}");
                }
            }
        }
        let a = gpu.buffer_zeroed::<f32>(6).expect("a");
        let c = gpu.buffer_zeroed::<f32>(4).expect("c");
        assert!(matches!(mm.run(&a, &a, &c, [2, 2, 2], MatmulKernel::Tiled), Err(shoal::Error::Length { .. })));
    }
}
