//! Each primitive run once at a size spanning many work groups and compared with its CPU twin,
//! entries of the registry ([`crate::showcase::ALL`]; the tests cover the sizes and edge cases).

use shoal::Gpu;

use crate::showcase::Outcome;
use crate::splat::{SceneData, SceneKind, Splat, SplatFrameArgs, SplatProjectionArgs};

use crate::{
    Compact, CompactArgs, CompactCount, Histogram, HistogramArgs, Keep, Matmul, MatmulArgs,
    MatmulKernel, Op, RadixSort, Record, Reduce, ReduceByKeyArgs, Scan, ScanArgs, ScanSpec,
    Segmented, SegmentedScanArgs, SortPairsArgs, SortParams, Strategy, WorkgroupScan,
    WorkgroupScanArgs, compact_cpu, histogram_cpu, matmul_cpu, reduce_by_key_cpu, reduce_cpu,
    scan_cpu, segmented_scan_cpu, workgroup_scan_cpu,
};

fn e(err: shoal::Error) -> String {
    err.to_string()
}

fn data(n: u32, bound: u32) -> Vec<u32> {
    (0..n)
        .map(|i| i.wrapping_mul(2_654_435_761).rotate_left(7) % bound)
        .collect()
}

pub(crate) async fn scan(gpu: &Gpu, strategy: Strategy) -> Outcome {
    let host = data(1_000_003, 1000);
    let scan = Scan::<u32>::new(gpu).map_err(e)?;
    let (input, output) = (
        gpu.buffer_from(&host).map_err(e)?,
        gpu.buffer_zeroed::<u32>(host.len() as u64).map_err(e)?,
    );
    scan.run(ScanArgs {
        input: &input,
        output: &output,
        spec: ScanSpec::exclusive(Op::Sum).with_strategy(strategy),
    })
    .map_err(e)?;
    if output.read().await.map_err(e)? != scan_cpu(&host, Op::Sum, false) {
        return Err("scan differs from the CPU".into());
    }
    Ok(format!(
        "exclusive sums equal the CPU's, {} tiles",
        host.len().div_ceil(scan.tile() as usize)
    ))
}

pub(crate) async fn workgroup_scan(gpu: &Gpu) -> Outcome {
    let scan = WorkgroupScan::<u32>::new(gpu).map_err(e)?;
    let host = data(3 * scan.block() + 17, 1000);
    let (input, output) = (
        gpu.buffer_from(&host).map_err(e)?,
        gpu.buffer_zeroed::<u32>(host.len() as u64).map_err(e)?,
    );
    // Recorded into a batch with a second, exclusive scan of the same input.
    let exclusive = gpu.buffer_zeroed::<u32>(host.len() as u64).map_err(e)?;
    let mut batch = gpu.commands();
    for (output, inclusive) in [(&output, true), (&exclusive, false)] {
        let args = WorkgroupScanArgs {
            input: &input,
            output,
            op: Op::Sum,
            inclusive,
        };
        scan.record(&mut batch, args).map_err(e)?;
    }
    batch.submit().map_err(e)?;
    let block = scan.block() as usize;
    if output.read().await.map_err(e)? != workgroup_scan_cpu(&host, block, Op::Sum, true)
        || exclusive.read().await.map_err(e)? != workgroup_scan_cpu(&host, block, Op::Sum, false)
    {
        return Err("block scans differ from the CPU".into());
    }
    Ok(format!(
        "{} elements in blocks of {block}, inclusive and exclusive",
        host.len()
    ))
}

pub(crate) async fn reduce(gpu: &Gpu) -> Outcome {
    let host = data(1_000_003, u32::MAX);
    let reduce = Reduce::<u32>::new(gpu).map_err(e)?;
    let input = gpu.buffer_from(&host).map_err(e)?;
    for op in [Op::Sum, Op::Min, Op::Max] {
        if reduce.value(&input, op).await.map_err(e)? != reduce_cpu(&host, op) {
            return Err(format!("{op:?} differs from the CPU"));
        }
    }
    Ok("sum, min and max equal the CPU's".into())
}

pub(crate) async fn segmented(gpu: &Gpu) -> Outcome {
    let values = data(1_000_003, 1000);
    // Keys in runs: each key repeats for 1 to 16 elements.
    let keys: Vec<u32> = values
        .iter()
        .scan((0u32, 0u32), |(key, left), &v| {
            if *left == 0 {
                (*key, *left) = (v % 7, 1 + v % 16);
            }
            *left -= 1;
            Some(*key)
        })
        .collect();
    let seg = Segmented::<u32>::new(gpu).map_err(e)?;
    let (k, v) = (
        gpu.buffer_from(&keys).map_err(e)?,
        gpu.buffer_from(&values).map_err(e)?,
    );
    let n = keys.len() as u64;
    let (unique, sums) = (
        gpu.buffer_zeroed::<u32>(n).map_err(e)?,
        gpu.buffer_zeroed::<u32>(n).map_err(e)?,
    );
    let count = CompactCount::new(gpu).map_err(e)?;
    seg.run(ReduceByKeyArgs {
        keys: &k,
        values: &v,
        unique_keys: &unique,
        reduced: &sums,
        count: &count,
        op: Op::Sum,
    })
    .map_err(e)?;
    let (want_keys, want_sums) = reduce_by_key_cpu(&keys, &values, Op::Sum);
    let runs = count.read().await.map_err(e)? as u64;
    if runs != want_keys.len() as u64
        || unique.read_range(0..runs).await.map_err(e)? != want_keys
        || sums.read_range(0..runs).await.map_err(e)? != want_sums
    {
        return Err(format!(
            "reduce-by-key differs from the CPU ({runs} runs, {} wanted)",
            want_keys.len()
        ));
    }
    let heads: Vec<u32> = (0..n as usize)
        .map(|i| (i == 0 || keys[i] != keys[i - 1]) as u32)
        .collect();
    let h = gpu.buffer_from(&heads).map_err(e)?;
    seg.run(SegmentedScanArgs {
        values: &v,
        heads: &h,
        output: &sums,
        op: Op::Max,
        inclusive: true,
    })
    .map_err(e)?;
    if sums.read().await.map_err(e)? != segmented_scan_cpu(&values, &heads, Op::Max, true) {
        return Err("the segmented max differs from the CPU".into());
    }
    Ok(format!(
        "{runs} runs reduced and the segmented max equal the CPU's"
    ))
}

pub(crate) async fn compact(gpu: &Gpu) -> Outcome {
    let host = data(500_000, 1000);
    let compact = Compact::new(gpu).map_err(e)?;
    let keep = compact.predicate("x < 100u").map_err(e)?;
    let (input, output) = (
        gpu.buffer_from(&host).map_err(e)?,
        gpu.buffer_zeroed::<u32>(host.len() as u64).map_err(e)?,
    );
    let count = CompactCount::new(gpu).map_err(e)?;
    let mut commands = gpu.commands();
    let args = CompactArgs {
        values: &input,
        keep: Keep::Predicate(&keep),
        output: &output,
        count: &count,
        next_workgroup: 64,
    };
    compact.record(&mut commands, args).map_err(e)?;
    commands.submit().map_err(e)?;
    let want = compact_cpu(&host, |x, _| x < 100);
    let args = count.read_args().await.map_err(e)?;
    if count.read().await.map_err(e)? as usize != want.len()
        || args.x as usize != want.len().div_ceil(64)
    {
        return Err(format!(
            "count or arguments wrong: {args:?} for {}",
            want.len()
        ));
    }
    if output.read_range(0..want.len() as u64).await.map_err(e)? != want {
        return Err("kept elements differ from the CPU".into());
    }
    Ok(format!(
        "{} kept in order; indirect args {}x{}x{} left on the GPU",
        want.len(),
        args.x,
        args.y,
        args.z
    ))
}

pub(crate) async fn histogram(gpu: &Gpu) -> Outcome {
    let host = data(1_000_003, 256);
    let hist = Histogram::new(gpu).map_err(e)?;
    let (input, counts) = (
        gpu.buffer_from(&host).map_err(e)?,
        gpu.buffer_zeroed::<u32>(256).map_err(e)?,
    );
    hist.run(HistogramArgs {
        input: &input,
        counts: &counts,
    })
    .map_err(e)?;
    if counts.read().await.map_err(e)? != histogram_cpu(&host, 256) {
        return Err("counts differ from the CPU".into());
    }
    Ok("256 counts equal the CPU's".into())
}

pub(crate) async fn sort(gpu: &Gpu) -> Outcome {
    let keys = data(300_007, 5000);
    let values: Vec<u32> = (0..keys.len() as u32).collect();
    let sort = RadixSort::new(gpu, SortParams::default()).map_err(e)?;
    let (kb, vb) = (
        gpu.buffer_from(&keys).map_err(e)?,
        gpu.buffer_from(&values).map_err(e)?,
    );
    sort.run(SortPairsArgs {
        keys: &kb,
        values: &vb,
    })
    .map_err(e)?;
    let (want_k, want_v) = crate::sort_pairs_cpu(&keys, &values);
    if kb.read().await.map_err(e)? != want_k || vb.read().await.map_err(e)? != want_v {
        return Err("sorted pairs differ from a stable CPU sort".into());
    }
    Ok("keys sorted, equal keys keep their order".into())
}

pub(crate) async fn matmul(gpu: &Gpu) -> Outcome {
    let [m, k, n] = [129u32, 67, 131];
    let a: Vec<f32> = data(m * k, 200)
        .into_iter()
        .map(|x| x as f32 / 100.0 - 1.0)
        .collect();
    let b: Vec<f32> = data(k * n + 1, 200)[1..]
        .iter()
        .map(|&x| x as f32 / 100.0 - 1.0)
        .collect();
    let mm = Matmul::new(gpu).map_err(e)?;
    let (ab, bb) = (
        gpu.buffer_from(&a).map_err(e)?,
        gpu.buffer_from(&b).map_err(e)?,
    );
    let c = gpu.buffer_zeroed::<f32>((m * n) as u64).map_err(e)?;
    mm.run(MatmulArgs {
        a: &ab,
        b: &bb,
        c: &c,
        dims: [m, k, n],
        kernel: MatmulKernel::Tiled,
    })
    .map_err(e)?;
    let want = matmul_cpu(&a, &b, [m as usize, k as usize, n as usize]);
    let worst = c
        .read()
        .await
        .map_err(e)?
        .iter()
        .zip(&want)
        .map(|(g, w)| (g - w).abs())
        .fold(0f32, f32::max);
    // Entries sum 67 products of magnitude <= 1: f32 rounding stays far below 1e-3.
    if worst > 1e-3 {
        return Err(format!("largest difference {worst}"));
    }
    Ok(format!("largest difference from the CPU {worst:.1e}"))
}

pub(crate) async fn splat(gpu: &Gpu) -> Outcome {
    let splat = Splat::new(gpu, None).map_err(e)?;
    let (w, h) = (160, 120);
    let target = splat.target(w, h).map_err(e)?;
    let data = SceneData::generate(SceneKind::Normal, w, h, 20_000, 3);
    let scene = splat.upload(&data).map_err(e)?;
    let projected = gpu.buffer_zeroed::<[u32; 4]>(scene.len()).map_err(e)?;
    // The frame and each particle's fragment as the kernels compute it, in one batch.
    let mut batch = gpu.commands();
    let (target, scene) = (&target, &scene);
    let frame = SplatFrameArgs { target, scene };
    splat.record(&mut batch, frame).map_err(e)?;
    let out = &projected;
    let projection = SplatProjectionArgs { target, scene, out };
    splat.record(&mut batch, projection).map_err(e)?;
    batch.submit().map_err(e)?;
    let words = target.read_accum().await.map_err(e)?;
    let fragments = projected.read().await.map_err(e)?;
    let (want, carries) =
        crate::splat::twin::accumulate_cpu(&fragments, (w * h) as usize, splat.packing());
    if words != want {
        return Err("per-pixel words differ from the twin's adds".into());
    }
    Ok(format!(
        "{} packing: every pixel's words equal the twin's ({carries} carries)",
        splat.packing().name()
    ))
}
