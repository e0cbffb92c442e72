//! The primitives' and the splatting's entries of the registry ([`crate::showcase::ALL`]): each
//! family built with `new`, one operation recorded into a `gpu.commands()` batch and another run
//! on its own (`showcase::record_and_run`), each result read back and compared with its CPU
//! twin (the tests cover the sizes and edge cases).

use shoal::{Buffer, Element, Gpu};

use crate::showcase::{Outcome, record_and_run};
use crate::splat::{SceneData, SceneKind, Splat, SplatFrameArgs, SplatProjectionArgs};

use crate::{
    ArgsortArgs, Compact, CompactArgs, CompactCount, Histogram, HistogramArgs, Keep, Matmul,
    MatmulArgs, MatmulKernel, Op, RadixSort, Reduce, ReduceArgs, ReduceByKeyArgs, Scan, ScanArgs,
    ScanSpec, Segmented, SegmentedScanArgs, SortArgs, SortByArgs, SortOrder, SortPairsArgs,
    SortParams, Strategy, WorkgroupScan, WorkgroupScanArgs, argsort_cpu, compact_cpu,
    histogram_cpu, matmul_cpu, reduce_by_key_cpu, reduce_cpu, scan_cpu, segmented_scan_cpu,
    sort_cpu, sort_pairs_cpu, workgroup_scan_cpu,
};

/// The sizes of an entry's two operations, the recorded one's then the run one's: each spans
/// several work groups and is no power of two, and both stay small enough for software adapters
/// and the browser's kernels page.
const SIZES: [u32; 2] = [20_011, 4_099];

fn e(err: shoal::Error) -> String {
    err.to_string()
}

fn data(n: u32, bound: u32) -> Vec<u32> {
    (0..n)
        .map(|i| i.wrapping_mul(2_654_435_761).rotate_left(7) % bound)
        .collect()
}

/// `host` on the device and a zeroed buffer of its length for the result.
fn input_output(gpu: &Gpu, host: &[u32]) -> Result<(Buffer<u32>, Buffer<u32>), String> {
    let input = gpu.buffer_from(host).map_err(e)?;
    Ok((input, gpu.buffer_zeroed(host.len() as u64).map_err(e)?))
}

/// Reads the first `want.len()` elements of `buffer` back and compares them with the CPU's.
async fn same<T: Element + PartialEq>(
    what: &str,
    buffer: &Buffer<T>,
    want: &[T],
) -> Result<(), String> {
    let got = buffer.read_range(0..want.len() as u64).await.map_err(e)?;
    if got == want {
        Ok(())
    } else {
        Err(format!("{what} differs from the CPU"))
    }
}

pub(crate) async fn scan(gpu: &Gpu, strategy: Strategy) -> Outcome {
    let scan = Scan::<u32>::new(gpu).map_err(e)?;
    // Both span several tiles, so each takes the strategy asked for.
    let tile = scan.tile();
    let [a, b] = [3 * tile + 17, tile + 1].map(|n| data(n, 1000));
    let ((ia, oa), (ib, ob)) = (input_output(gpu, &a)?, input_output(gpu, &b)?);
    let exclusive = ScanSpec::exclusive(Op::Sum).with_strategy(strategy);
    let inclusive = ScanSpec::inclusive(Op::Max).with_strategy(strategy);
    let first = ScanArgs {
        input: &ia,
        output: &oa,
        spec: exclusive,
    };
    let second = ScanArgs {
        input: &ib,
        output: &ob,
        spec: inclusive,
    };
    record_and_run(&scan, first, second)?;
    same(
        "the recorded exclusive sum",
        &oa,
        &scan_cpu(&a, Op::Sum, false),
    )
    .await?;
    same("the run inclusive max", &ob, &scan_cpu(&b, Op::Max, true)).await?;
    Ok(format!(
        "exclusive sums of {} (recorded), inclusive maxima of {} (run) equal the CPU's, {tile} per tile",
        a.len(),
        b.len()
    ))
}

pub(crate) async fn workgroup_scan(gpu: &Gpu) -> Outcome {
    let scan = WorkgroupScan::<u32>::new(gpu).map_err(e)?;
    let block = scan.block();
    let [a, b] = [3 * block + 17, block - 1].map(|n| data(n, 1000));
    let ((ia, oa), (ib, ob)) = (input_output(gpu, &a)?, input_output(gpu, &b)?);
    let args = |input, output, inclusive| WorkgroupScanArgs {
        input,
        output,
        op: Op::Sum,
        inclusive,
    };
    record_and_run(&scan, args(&ia, &oa, true), args(&ib, &ob, false))?;
    let block = block as usize;
    same(
        "the recorded inclusive scan",
        &oa,
        &workgroup_scan_cpu(&a, block, Op::Sum, true),
    )
    .await?;
    same(
        "the run exclusive scan",
        &ob,
        &workgroup_scan_cpu(&b, block, Op::Sum, false),
    )
    .await?;
    Ok(format!(
        "{} elements scanned inclusive (recorded), {} exclusive (run), in blocks of {block}",
        a.len(),
        b.len()
    ))
}

pub(crate) async fn reduce(gpu: &Gpu) -> Outcome {
    let reduce = Reduce::<u32>::new(gpu).map_err(e)?;
    let [a, b] = SIZES.map(|n| data(n, u32::MAX));
    let (ia, ib) = (
        gpu.buffer_from(&a).map_err(e)?,
        gpu.buffer_from(&b).map_err(e)?,
    );
    let (oa, ob) = (
        gpu.buffer_zeroed::<u32>(1).map_err(e)?,
        gpu.buffer_zeroed::<u32>(1).map_err(e)?,
    );
    let first = ReduceArgs {
        input: &ia,
        output: &oa,
        op: Op::Max.into(),
    };
    let second = ReduceArgs {
        input: &ib,
        output: &ob,
        op: Op::Min.into(),
    };
    record_and_run(&reduce, first, second)?;
    same("the recorded max", &oa, &[reduce_cpu(&a, Op::Max)]).await?;
    same("the run min", &ob, &[reduce_cpu(&b, Op::Min)]).await?;
    Ok(format!(
        "max of {} recorded, min of {} run, equal the CPU's",
        a.len(),
        b.len()
    ))
}

/// Keys in runs: each key repeats for 1 to 16 elements.
fn runs(values: &[u32]) -> Vec<u32> {
    values
        .iter()
        .scan((0u32, 0u32), |(key, left), &v| {
            if *left == 0 {
                (*key, *left) = (v % 7, 1 + v % 16);
            }
            *left -= 1;
            Some(*key)
        })
        .collect()
}

pub(crate) async fn segmented(gpu: &Gpu) -> Outcome {
    let seg = Segmented::<u32>::new(gpu).map_err(e)?;
    let [a, b] = SIZES.map(|n| data(n, 1000));
    let keys = runs(&a);
    let (k, (va, sums)) = (gpu.buffer_from(&keys).map_err(e)?, input_output(gpu, &a)?);
    let unique = gpu.buffer_zeroed::<u32>(keys.len() as u64).map_err(e)?;
    let count = CompactCount::new(gpu).map_err(e)?;
    let reduce_by_key = ReduceByKeyArgs {
        keys: &k,
        values: &va,
        unique_keys: &unique,
        reduced: &sums,
        count: &count,
        op: Op::Sum,
    };
    let b_keys = runs(&b);
    let heads: Vec<u32> = (0..b.len())
        .map(|i| (i == 0 || b_keys[i] != b_keys[i - 1]) as u32)
        .collect();
    let (h, (vb, maxima)) = (gpu.buffer_from(&heads).map_err(e)?, input_output(gpu, &b)?);
    let scan = SegmentedScanArgs {
        values: &vb,
        heads: &h,
        output: &maxima,
        op: Op::Max,
        inclusive: true,
    };
    record_and_run(&seg, reduce_by_key, scan)?;
    let (want_keys, want_sums) = reduce_by_key_cpu(&keys, &a, Op::Sum);
    let found = count.read().await.map_err(e)? as usize;
    if found != want_keys.len() {
        return Err(format!(
            "reduce-by-key found {found} runs, the CPU {}",
            want_keys.len()
        ));
    }
    same("the recorded reduce-by-key's keys", &unique, &want_keys).await?;
    same("the recorded reduce-by-key's sums", &sums, &want_sums).await?;
    same(
        "the run segmented max",
        &maxima,
        &segmented_scan_cpu(&b, &heads, Op::Max, true),
    )
    .await?;
    Ok(format!(
        "{found} runs reduced by key (recorded) and a segmented max over {} (run) equal the CPU's",
        b.len()
    ))
}

pub(crate) async fn compact(gpu: &Gpu) -> Outcome {
    let compact = Compact::new(gpu).map_err(e)?;
    let keep = compact.predicate("x < 100u").map_err(e)?;
    let [a, b] = SIZES.map(|n| data(n, 1000));
    let ((ia, oa), (ib, ob)) = (input_output(gpu, &a)?, input_output(gpu, &b)?);
    let (ca, cb) = (
        CompactCount::new(gpu).map_err(e)?,
        CompactCount::new(gpu).map_err(e)?,
    );
    let args = |values, output, count| CompactArgs {
        values,
        keep: Keep::Predicate(&keep),
        output,
        count,
        next_workgroup: 64,
    };
    record_and_run(&compact, args(&ia, &oa, &ca), args(&ib, &ob, &cb))?;
    let mut kept = [0; 2];
    for ((host, output, count), kept) in [(&a, &oa, &ca), (&b, &ob, &cb)].into_iter().zip(&mut kept)
    {
        let want = compact_cpu(host, |x, _| x < 100);
        let args = count.read_args().await.map_err(e)?;
        if count.read().await.map_err(e)? as usize != want.len()
            || args.x as usize != want.len().div_ceil(64)
        {
            return Err(format!(
                "count or arguments wrong: {args:?} for {}",
                want.len()
            ));
        }
        same("the kept elements", output, &want).await?;
        *kept = want.len();
    }
    Ok(format!(
        "{} of {} kept in order (recorded), {} of {} (run); indirect args left on the GPU",
        kept[0],
        a.len(),
        kept[1],
        b.len()
    ))
}

pub(crate) async fn histogram(gpu: &Gpu) -> Outcome {
    let hist = Histogram::new(gpu).map_err(e)?;
    let [a, b] = SIZES.map(|n| data(n, 256));
    let (ia, ib) = (
        gpu.buffer_from(&a).map_err(e)?,
        gpu.buffer_from(&b).map_err(e)?,
    );
    let (ca, cb) = (
        gpu.buffer_zeroed::<u32>(256).map_err(e)?,
        gpu.buffer_zeroed::<u32>(256).map_err(e)?,
    );
    let first = HistogramArgs {
        input: &ia,
        counts: &ca,
    };
    record_and_run(
        &hist,
        first,
        HistogramArgs {
            input: &ib,
            counts: &cb,
        },
    )?;
    same("the recorded counts", &ca, &histogram_cpu(&a, 256)).await?;
    same("the run counts", &cb, &histogram_cpu(&b, 256)).await?;
    Ok(format!(
        "256 counts of {} (recorded) and {} (run) equal the CPU's",
        a.len(),
        b.len()
    ))
}

pub(crate) async fn sort(gpu: &Gpu) -> Outcome {
    let sort = RadixSort::<u32>::new(gpu, SortParams::default()).map_err(e)?;
    let asc = SortOrder::Ascending;
    // Keys recorded, an argsort run; then pairs recorded, elements by a computed key run.
    let [a, b] = SIZES.map(|n| data(n, 5000));
    let (ka, kb) = (
        gpu.buffer_from(&a).map_err(e)?,
        gpu.buffer_from(&b).map_err(e)?,
    );
    let indices = gpu.buffer_zeroed::<u32>(b.len() as u64).map_err(e)?;
    let argsort = ArgsortArgs {
        keys: &kb,
        indices: &indices,
    };
    record_and_run(&sort, SortArgs { keys: &ka }, argsort)?;
    same("the recorded sort", &ka, &sort_cpu(&a, asc)).await?;
    same("the run argsort", &indices, &argsort_cpu(&b, asc)).await?;
    let values: Vec<u32> = (0..a.len() as u32).collect();
    let (pk, pv) = (
        gpu.buffer_from(&a).map_err(e)?,
        gpu.buffer_from(&values).map_err(e)?,
    );
    let pairs = SortPairsArgs {
        keys: &pk,
        values: &pv,
    };
    let items: Vec<[u32; 2]> = b.iter().zip(0..).map(|(&k, i)| [k, i]).collect();
    let elements = gpu.buffer_from(&items).map_err(e)?;
    let key = sort
        .key_function::<[u32; 2]>(
            "alias Element = vec2<u32>;\nfn sort_key(e: Element) -> u32 { return e.x; }",
        )
        .map_err(e)?;
    record_and_run(
        &sort,
        pairs,
        SortByArgs {
            elements: &elements,
            key: &key,
        },
    )?;
    let (want_k, want_v) = sort_pairs_cpu(&a, &values);
    same("the recorded pairs' keys", &pk, &want_k).await?;
    same("the recorded pairs' values", &pv, &want_v).await?;
    let mut want = items.clone();
    want.sort_by_key(|item| item[0]);
    same("the run sort by key", &elements, &want).await?;
    Ok(format!(
        "keys and pairs of {} (recorded), an argsort and elements by key of {} (run), stable",
        a.len(),
        b.len()
    ))
}

/// An `m x k` and a `k x n` matrix of entries in [-1, 1).
fn matrices([m, k, n]: [u32; 3]) -> (Vec<f32>, Vec<f32>) {
    let entries = |len, skip| -> Vec<f32> {
        data(len + skip, 200)[skip as usize..]
            .iter()
            .map(|&x| x as f32 / 100.0 - 1.0)
            .collect()
    };
    (entries(m * k, 0), entries(k * n, 1))
}

pub(crate) async fn matmul(gpu: &Gpu) -> Outcome {
    let mm = Matmul::new(gpu).map_err(e)?;
    let dims = [[129u32, 67, 131], [33, 17, 65]];
    let operands = |d: [u32; 3]| -> Result<_, String> {
        let (a, b) = matrices(d);
        let (ab, bb) = (
            gpu.buffer_from(&a).map_err(e)?,
            gpu.buffer_from(&b).map_err(e)?,
        );
        let c = gpu.buffer_zeroed::<f32>((d[0] * d[2]) as u64).map_err(e)?;
        Ok((a, b, ab, bb, c))
    };
    let (a0, b0, ab0, bb0, c0) = operands(dims[0])?;
    let (a1, b1, ab1, bb1, c1) = operands(dims[1])?;
    let args = |a, b, c, dims, kernel| MatmulArgs {
        a,
        b,
        c,
        dims,
        kernel,
    };
    let first = args(&ab0, &bb0, &c0, dims[0], MatmulKernel::Tiled);
    record_and_run(
        &mm,
        first,
        args(&ab1, &bb1, &c1, dims[1], MatmulKernel::Naive),
    )?;
    let mut worst = 0f32;
    for (a, b, c, d) in [(&a0, &b0, &c0, dims[0]), (&a1, &b1, &c1, dims[1])] {
        let want = matmul_cpu(a, b, d.map(|x| x as usize));
        let got = c.read().await.map_err(e)?;
        worst = got
            .iter()
            .zip(&want)
            .map(|(g, w)| (g - w).abs())
            .fold(worst, f32::max);
    }
    // Entries sum at most 67 products of magnitude <= 1: f32 rounding stays far below 1e-3.
    if worst.is_nan() || worst > 1e-3 {
        return Err(format!("largest difference {worst}"));
    }
    Ok(format!(
        "129x67x131 tiled (recorded), 33x17x65 naive (run): largest difference from the CPU {worst:.1e}"
    ))
}

pub(crate) async fn splat(gpu: &Gpu) -> Outcome {
    let splat = Splat::new(gpu, None).map_err(e)?;
    let (w, h) = (160, 120);
    let target = splat.target(w, h).map_err(e)?;
    let data = SceneData::generate(SceneKind::Normal, w, h, 20_000, 3);
    let scene = splat.upload(&data).map_err(e)?;
    let projected = gpu.buffer_zeroed::<[u32; 4]>(scene.len()).map_err(e)?;
    // The frame recorded, then each particle's fragment as its kernels compute it run (the
    // projection reads the frame's depth and coarse depth).
    let (target, scene) = (&target, &scene);
    let projection = SplatProjectionArgs {
        target,
        scene,
        out: &projected,
    };
    record_and_run(&splat, SplatFrameArgs { target, scene }, projection)?;
    let words = target.read_accum().await.map_err(e)?;
    let fragments = projected.read().await.map_err(e)?;
    let (want, carries) =
        crate::splat::twin::accumulate_cpu(&fragments, (w * h) as usize, splat.packing());
    if words != want {
        return Err("per-pixel words differ from the twin's adds".into());
    }
    Ok(format!(
        "{} packing: the frame recorded, the fragments run; every pixel's words equal the twin's ({carries} carries)",
        splat.packing().name()
    ))
}
