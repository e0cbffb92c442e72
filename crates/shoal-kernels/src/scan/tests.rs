//! Scans against their CPU twins, at the sizes, with both strategies and every tiling.

use crate::test_support::*;

async fn check_scan<T: Scalar>(gpu: &Gpu, scan: &Scan<T>, data: &[T], spec: ScanSpec) {
    let input = gpu.buffer_from(data).expect("input");
    let output = gpu.buffer_zeroed::<T>(data.len() as u64).expect("output");
    scan.run(ScanArgs {
        input: &input,
        output: &output,
        spec,
    })
    .expect("scan");
    let got = output.read().await.expect("read");
    let crate::Operation::Builtin(op) = spec.op else {
        unreachable!("these tests scan with the built-in operations")
    };
    let want = scan_cpu(data, op, spec.inclusive);
    if let Some(d) = first_difference(&got, &want) {
        panic!("n = {}, {spec:?}: {d}", data.len());
    }
}
const STRATEGIES: [Strategy; 2] = [Strategy::MultiLevel, Strategy::LookBack];

/// Each block of `block` elements scanned on its own from `identity` with `f`, in element order:
/// the work-group scan's reference, written for these tests.
fn blockwise<T: Copy>(
    data: &[T],
    block: usize,
    identity: T,
    f: impl Fn(T, T) -> T,
    inclusive: bool,
) -> Vec<T> {
    let mut out = Vec::with_capacity(data.len());
    for chunk in data.chunks(block) {
        let mut acc = identity;
        for &x in chunk {
            let next = f(acc, x);
            out.push(if inclusive { next } else { acc });
            acc = next;
        }
    }
    out
}

shoal_conformance::gpu_test! {
    /// u32 sums, inclusive and exclusive, every listed size, both strategies.
    async fn scan_u32_sum_every_size(gpu) {
        let scan = Scan::<u32>::new(&gpu).expect("scan");
        for &n in SIZES {
            let data = random_u32(n, n, 1000);
            for strategy in STRATEGIES {
                check_scan(&gpu, &scan, &data, ScanSpec::inclusive(Op::Sum).with_strategy(strategy)).await;
                check_scan(&gpu, &scan, &data, ScanSpec::exclusive(Op::Sum).with_strategy(strategy)).await;
            }
        }
    }

    /// Seeded random sizes up to 300,000, wrapping u32 sums over the full range, both strategies.
    async fn scan_random_sizes_wrapping(gpu) {
        let scan = Scan::<u32>::new(&gpu).expect("scan");
        for (k, n) in random_sizes(7, 6, 300_000).into_iter().enumerate() {
            let data = random_u32(100 + k as u64, n, 0);
            for strategy in STRATEGIES {
                check_scan(&gpu, &scan, &data, ScanSpec::inclusive(Op::Sum).with_strategy(strategy)).await;
            }
        }
    }

    /// i32 sums, min and max with negative values, both strategies, sizes across the tile edges.
    async fn scan_i32_sum_min_max(gpu) {
        let scan = Scan::<i32>::new(&gpu).expect("scan");
        for &n in &[1u64, 257, 4095, 4096, 4097, 65537, 1_000_003] {
            let data: Vec<i32> = random_u32(n + 1, n, 0).into_iter().map(|x| x as i32 >> 8).collect();
            for op in [Op::Sum, Op::Min, Op::Max] {
                for strategy in STRATEGIES {
                    check_scan(&gpu, &scan, &data, ScanSpec::inclusive(op).with_strategy(strategy)).await;
                }
                check_scan(&gpu, &scan, &data, ScanSpec::exclusive(op)).await;
            }
        }
    }

    /// scan's, one carry per level (or per look-back step), each bounded by ε·S_i.
    async fn scan_f32_with_error_bound(gpu) {
        let scan = Scan::<f32>::new(&gpu).expect("scan");
        for &n in &[1u64, 255, 2049, 65536, 1_000_003] {
            let mut rng = Rng::new(n);
            let data: Vec<f32> = (0..n).map(|_| rng.range_f32(-1.0, 1.0)).collect();
            for strategy in STRATEGIES {
                let spec = ScanSpec::inclusive(Op::Sum).with_strategy(strategy);
                let input = gpu.buffer_from(&data).expect("input");
                let output = gpu.buffer_zeroed::<f32>(n).expect("output");
                scan.run(ScanArgs { input: &input, output: &output, spec }).expect("scan");
                let got = output.read().await.expect("read");
                let depth = 64.0 + 4.0 * ((n + 1) as f64).log2().ceil();
                let (mut exact, mut abs) = (0f64, 0f64);
                for (i, (&x, &g)) in data.iter().zip(&got).enumerate() {
                    exact += x as f64;
                    abs += (x as f64).abs();
                    let bound = depth * f32::EPSILON as f64 * abs;
                    assert!((g as f64 - exact).abs() <= bound, "n = {n}, {strategy:?}, index {i}: gpu {g}, exact {exact}, bound {bound}");
                }
            }
            for op in [Op::Min, Op::Max] {
                check_scan(&gpu, &scan, &data, ScanSpec::inclusive(op).with_strategy(Strategy::LookBack)).await;
            }
        }
    }

    /// stale tile states from a previous run would show.
    async fn scan_thousands_of_work_groups(gpu) {
        let scan = Scan::<u32>::with_tiling(&gpu, Tiling::for_gpu(&gpu).with_per_invocation(3)).expect("scan");
        let n = 2_000_003u64;
        assert!(n / scan.tile() as u64 >= 1000, "tile {}", scan.tile());
        for round in 0..2 {
            let data = random_u32(round, n, 16);
            check_scan(&gpu, &scan, &data, ScanSpec::exclusive(Op::Sum).with_strategy(Strategy::LookBack)).await;
            check_scan(&gpu, &scan, &data, ScanSpec::inclusive(Op::Max).with_strategy(Strategy::MultiLevel)).await;
        }
        for per in [0, crate::MAX_COARSENING + 1] {
            assert!(matches!(Scan::<u32>::with_tiling(&gpu, Tiling::for_gpu(&gpu).with_per_invocation(per)), Err(shoal::Error::Override { .. })), "{per} per invocation");
        }
    }

    /// asking for one-subgroup tiles is a typed error.
    async fn scan_and_reduce_every_tiling(gpu) {
        let mut tilings = vec![Tiling::for_gpu(&gpu)];
        for one_subgroup in [false, true] {
            // Up to 64 the `own` block is unrolled; 130 (scalar loads) and 512 (vec4s) loop.
            for per in [1, 5, 64, 130, 512] {
                tilings.push(Tiling { per_invocation: per, one_subgroup, workgroup: None });
            }
        }
        // Shared-memory work groups of every size down to one invocation (a software adapter's
        // is SOFTWARE_WORKGROUP).
        for wg in [1, 2, 8, 32] {
            tilings.push(Tiling { per_invocation: 64, one_subgroup: false, workgroup: Some(wg) });
        }
        // One-element tiles: a multi-level scan's levels would never shrink.
        let single = Tiling { per_invocation: 1, one_subgroup: false, workgroup: Some(1) };
        assert!(matches!(Scan::<u32>::with_tiling(&gpu, single), Err(shoal::Error::Override { .. })));
        assert!(matches!(Reduce::<u32>::with_tiling(&gpu, single), Err(shoal::Error::Override { .. })));
        for wg in [0, 6, 4096] {
            let bad = Tiling { per_invocation: 4, one_subgroup: false, workgroup: Some(wg) };
            assert!(matches!(Scan::<u32>::with_tiling(&gpu, bad), Err(shoal::Error::Override { .. })), "{bad:?}");
            assert!(matches!(Reduce::<u32>::with_tiling(&gpu, bad), Err(shoal::Error::Override { .. })), "{bad:?}");
        }
        for tiling in tilings {
            let (scan, reduce) = match (Scan::<u32>::with_tiling(&gpu, tiling), Reduce::<u32>::with_tiling(&gpu, tiling)) {
                (Ok(s), Ok(r)) => (s, r),
                (Err(a), Err(b)) => {
                    assert!(tiling.one_subgroup && gpu.subgroup_size().is_none(), "{tiling:?}: {a}");
                    assert!(matches!(a, shoal::Error::MissingFeature { .. }), "{a}");
                    assert!(matches!(b, shoal::Error::MissingFeature { .. }), "{b}");
                    continue;
                }
                (a, b) => panic!("{tiling:?}: scan {:?}, reduce {:?}", a.err(), b.err()),
            };
            // 1028 and 4100: multiples of 4 (vec4 stores) that end inside an invocation's
            // elements, so the rolled block's whole-chunk loops stop early.
            for &n in &[0u64, 1, 5, 257, 1028, 4097, 4100, 65537, 300_001] {
                let data = random_u32(n + 11, n, 1000);
                for strategy in STRATEGIES {
                    check_scan(&gpu, &scan, &data, ScanSpec::inclusive(Op::Sum).with_strategy(strategy)).await;
                    check_scan(&gpu, &scan, &data, ScanSpec::exclusive(Op::Max).with_strategy(strategy)).await;
                }
                let input = gpu.buffer_from(&data).expect("input");
                for op in [Op::Sum, Op::Min] {
                    assert_eq!(reduce.value(&input, op).await.expect("reduce"), reduce_cpu(&data, op), "{tiling:?} {op:?} n = {n}");
                }
            }
        }
    }

    /// A device asked for without subgroups (`GpuOptions::withheld_features`, what `cargo xtask
    /// bench --swiftshader` uses) has none, takes the shared-memory tiles, refuses a kernel that
    /// needs them with a typed error, and scans and reduces as the CPU does.
    async fn subgroups_withheld_take_the_shared_memory_paths(gpu) {
        let withheld = shoal::wgpu::Features::SUBGROUP | shoal::wgpu::Features::SUBGROUP_BARRIER;
        let options = shoal::GpuOptions { withheld_features: withheld, ..Default::default() };
        let other = shoal::Gpu::with_options(options).await.expect("a device without subgroups");
        // Only what was withheld is missing.
        assert_eq!(other.features(), gpu.features() - withheld);
        assert!(!other.has_subgroups());
        assert!(!Tiling::for_gpu(&other).one_subgroup);
        let needs = shoal::Source::new("needs subgroups", "enable subgroups;\n@group(0) @binding(0) var<storage, read_write> out: array<u32>;\n@compute @workgroup_size(64) fn main(@builtin(local_invocation_index) i: u32) { out[i] = subgroupAdd(1u); }\n");
        assert!(matches!(other.kernel(needs), Err(shoal::Error::MissingFeature { .. })));
        let (scan, reduce) = (Scan::<u32>::new(&other).expect("scan"), Reduce::<u32>::new(&other).expect("reduce"));
        for &n in &[0u64, 1, 5, 513, 100_003] {
            let data = random_u32(n + 7, n, 1000);
            for strategy in STRATEGIES {
                check_scan(&other, &scan, &data, ScanSpec::exclusive(Op::Sum).with_strategy(strategy)).await;
            }
            let input = other.buffer_from(&data).expect("input");
            assert_eq!(reduce.value(&input, Op::Max).await.expect("reduce"), reduce_cpu(&data, Op::Max), "n = {n}");
        }
    }

    /// Two scans and a reduction recorded into one batch with the same objects.
    async fn scans_recorded_in_one_batch(gpu) {
        let scan = Scan::<u32>::new(&gpu).expect("scan");
        let reduce = Reduce::<u32>::new(&gpu).expect("reduce");
        let a = random_u32(1, 70_000, 100);
        let b = random_u32(2, 9_000, 100);
        let (ia, ib) = (gpu.buffer_from(&a).expect("a"), gpu.buffer_from(&b).expect("b"));
        let (oa, ob) = (gpu.buffer_zeroed::<u32>(70_000).expect("oa"), gpu.buffer_zeroed::<u32>(9_000).expect("ob"));
        let total = gpu.buffer_zeroed::<u32>(1).expect("total");
        let mut commands = gpu.commands();
        scan.record(&mut commands, ScanArgs { input: &ia, output: &oa, spec: ScanSpec::inclusive(Op::Sum).with_strategy(Strategy::MultiLevel) }).expect("a");
        scan.record(&mut commands, ScanArgs { input: &ib, output: &ob, spec: ScanSpec::exclusive(Op::Max).with_strategy(Strategy::MultiLevel) }).expect("b");
        reduce.record(&mut commands, ReduceArgs { input: &oa, output: &total, op: Op::Max.into() }).expect("reduce");
        commands.submit().expect("submit");
        assert_eq!(oa.read().await.expect("oa"), scan_cpu(&a, Op::Sum, true));
        assert_eq!(ob.read().await.expect("ob"), scan_cpu(&b, Op::Max, false));
        assert_eq!(total.read().await.expect("total")[0], a.iter().sum::<u32>());
    }

    /// The document's work-group scan: each block of 2 × WG elements on its own, both modes.
    async fn workgroup_scan_blocks(gpu) {
        let wg = WorkgroupScan::<u32>::new(&gpu).expect("workgroup scan");
        let limit = gpu.limits().max_compute_work_group_invocations.min(1024);
        assert!(wg.block() <= 2 * limit && wg.block().is_power_of_two(), "block {}", wg.block());
        for &n in &[0u64, 1, 255, 2047, 2048, 2049, 65537] {
            let data = random_u32(n, n, 100);
            let input = gpu.buffer_from(&data).expect("input");
            let output = gpu.buffer_zeroed::<u32>(n).expect("output");
            for inclusive in [true, false] {
                wg.run(WorkgroupScanArgs { input: &input, output: &output, op: Op::Sum, inclusive }).expect("run");
                let got = output.read().await.expect("read");
                assert_eq!(first_difference(&got, &workgroup_scan_cpu(&data, wg.block() as usize, Op::Sum, inclusive)), None, "n = {n}");
            }
        }
    }

    /// The document's work-group scan with min and max of `i32` and `f32` (negative and
    /// positive values), inclusive and exclusive: each block of 2 × WG starts from the
    /// operation's identity (`i32::MAX`, `i32::MIN`, ±infinity, written here), so an exclusive
    /// block start written as 0 (`scan_workgroup` in `wgsl/scan.wgsl`) shows, as does any block
    /// scanned on from the one before.
    async fn workgroup_scan_min_max_start_each_block_from_the_identity(gpu) {
        let (wi, wf) = (WorkgroupScan::<i32>::new(&gpu).expect("i32"), WorkgroupScan::<f32>::new(&gpu).expect("f32"));
        let block = wi.block() as u64;
        assert_eq!(wf.block() as u64, block);
        for n in [1u64, block - 1, block + 1, 3 * block + 5] {
            let ints: Vec<i32> = random_u32(n + 17, n, 2001).into_iter().map(|x| x as i32 - 1000).collect();
            let floats: Vec<f32> = ints.iter().map(|&x| x as f32 / 4.0).collect();
            let (ii, io) = (gpu.buffer_from(&ints).expect("input"), gpu.buffer_zeroed::<i32>(n).expect("output"));
            let (fi, fo) = (gpu.buffer_from(&floats).expect("input"), gpu.buffer_zeroed::<f32>(n).expect("output"));
            for inclusive in [true, false] {
                for (op, pick) in [(Op::Min, std::cmp::Ordering::Less), (Op::Max, std::cmp::Ordering::Greater)] {
                    let (int_identity, float_identity) = match op {
                        Op::Min => (i32::MAX, f32::INFINITY),
                        _ => (i32::MIN, f32::NEG_INFINITY),
                    };
                    wi.run(WorkgroupScanArgs { input: &ii, output: &io, op, inclusive }).expect("run");
                    let want = blockwise(&ints, block as usize, int_identity, |a, b| if b.cmp(&a) == pick { b } else { a }, inclusive);
                    assert_eq!(first_difference(&io.read().await.expect("read"), &want), None, "i32 {op:?}, inclusive {inclusive}, n = {n}");
                    wf.run(WorkgroupScanArgs { input: &fi, output: &fo, op, inclusive }).expect("run");
                    let want = blockwise(&floats, block as usize, float_identity, |a, b| if b.partial_cmp(&a) == Some(pick) { b } else { a }, inclusive);
                    assert_eq!(first_difference(&fo.read().await.expect("read"), &want), None, "f32 {op:?}, inclusive {inclusive}, n = {n}");
                }
            }
        }
    }

    /// A forced look-back in work groups narrower than a SIMD row of a software adapter takes the
    /// multi-level kernels there (it ran for over a minute at 2^20 elements in tiles of 1 × 2, its
    /// time growing with the square of the tile count), and is honoured elsewhere.
    async fn scan_forced_lookback_in_narrow_work_groups_falls_back(gpu) {
        let software = shoal::wgpu::DeviceType::Cpu == gpu.adapter_details().device_type;
        for (wg, n) in [(1u32, 1u64 << 20), (2, 1 << 16)] {
            let tiling = Tiling { per_invocation: 2, one_subgroup: false, workgroup: Some(wg) };
            let scan = Scan::<u32>::with_tiling(&gpu, tiling).expect("scan");
            let spec = ScanSpec::inclusive(Op::Sum).with_strategy(Strategy::LookBack);
            let want = if software { Strategy::MultiLevel } else { Strategy::LookBack };
            assert_eq!(scan.strategy_for(spec, n), want, "{tiling:?}");
            // The fallback is linear; the look-back grew with the square of the tiles here.
            check_scan(&gpu, &scan, &random_u32(wg as u64, n, 1000), spec).await;
        }
    }

    /// A forced look-back over more tiles than llvmpipe's loop limit (65,535 trips per
    /// invocation, every loop together; past it loops exit silently): 131,072 tiles of 8 × 1, so
    /// a look-back walking far would be cut off and show. Each tile looks back a step or two.
    async fn scan_lookback_over_more_tiles_than_the_loop_limit(gpu) {
        let tiling = Tiling { per_invocation: 1, one_subgroup: false, workgroup: Some(SOFTWARE_WORKGROUP) };
        let scan = Scan::<u32>::with_tiling(&gpu, tiling).expect("scan");
        let n = 1u64 << 20;
        assert!(n / scan.tile() as u64 > 65_535, "tile {}", scan.tile());
        let spec = ScanSpec::exclusive(Op::Sum).with_strategy(Strategy::LookBack);
        assert_eq!(scan.strategy_for(spec, n), Strategy::LookBack);
        for round in 0..2 {
            check_scan(&gpu, &scan, &random_u32(round + 40, n, 0), spec).await;
        }
    }

    /// Mistakes are errors: the output too short, the input bound as its own output.
    async fn scan_errors(gpu) {
        let scan = Scan::<u32>::new(&gpu).expect("scan");
        let input = gpu.buffer_from(&[1u32, 2, 3]).expect("input");
        let short = gpu.buffer_zeroed::<u32>(2).expect("short");
        assert!(matches!(scan.run(ScanArgs { input: &input, output: &short, spec: ScanSpec::default() }), Err(shoal::Error::Length { .. })));
        assert!(matches!(scan.run(ScanArgs { input: &input, output: &input, spec: ScanSpec::default() }), Err(shoal::Error::BindingKind { .. })));
        let reduce = Reduce::<u32>::new(&gpu).expect("reduce");
        let empty = gpu.buffer_zeroed::<u32>(0).expect("empty");
        let mut commands = gpu.commands();
        assert!(matches!(reduce.record(&mut commands, ReduceArgs { input: &input, output: &empty, op: Op::Sum.into() }), Err(shoal::Error::Length { .. })));
    }
}
