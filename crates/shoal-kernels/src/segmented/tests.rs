//! Segmented scans, reduce-by-key and run lengths against their CPU twins, at sizes across the
//! tiles, with heads and runs dense, sparse, everywhere and nowhere.

use crate::test_support::*;
use crate::{CompactCount, Segmented, reduce_by_key_cpu, segmented_scan_cpu};

const SEG_SIZES: &[u64] = &[
    0, 1, 2, 7, 8, 9, 511, 512, 513, 4095, 4097, 8193, 65_537, 200_003,
];

/// The non-zero flags the heads take in turn: any non-zero flag starts a segment, not only 1.
const HEAD_FLAGS: [u32; 3] = [1, 2, 0xffff_ffff];

/// Head flags: one in `every` (random), or every element, or none but the first; each head
/// one of [`HEAD_FLAGS`], each other element 0.
fn heads(seed: u64, n: u64, every: u32) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let r = rng.next_u32();
            let head = match every {
                0 => false,
                1 => true,
                _ => r.is_multiple_of(every),
            };
            if head {
                HEAD_FLAGS[(r / 7 % 3) as usize]
            } else {
                0
            }
        })
        .collect()
}

/// Keys in runs of random lengths below `run`.
fn runs(seed: u64, n: u64, run: u32) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    let mut keys = Vec::with_capacity(n as usize);
    while (keys.len() as u64) < n {
        let (key, len) = (rng.next_u32() % 5, 1 + rng.next_u32() % run);
        keys.extend(std::iter::repeat_n(key, len as usize));
    }
    keys.truncate(n as usize);
    keys
}

/// The built-in operations written out for the reference below, identities included (not
/// `Op::identity`, from which the kernels' uniform takes an exclusive scan's value at a head).
trait Written: Scalar + PartialOrd {
    /// The identities of sum, min and max.
    const IDENTITIES: [Self; 3];
    fn plus(self, b: Self) -> Self;
}

impl Written for u32 {
    const IDENTITIES: [Self; 3] = [0, u32::MAX, 0];
    fn plus(self, b: Self) -> Self {
        self.wrapping_add(b)
    }
}

impl Written for i32 {
    const IDENTITIES: [Self; 3] = [0, i32::MAX, i32::MIN];
    fn plus(self, b: Self) -> Self {
        self.wrapping_add(b)
    }
}

impl Written for f32 {
    const IDENTITIES: [Self; 3] = [0.0, f32::INFINITY, f32::NEG_INFINITY];
    fn plus(self, b: Self) -> Self {
        self + b
    }
}

/// The segmented scan written for these tests: a segment starts at element 0 and wherever the
/// flag is not 0 (whatever its value), and restarts from the operation's identity.
fn segmented_reference<T: Written>(values: &[T], flags: &[u32], op: Op, inclusive: bool) -> Vec<T> {
    let (identity, f): (T, fn(T, T) -> T) = match op {
        Op::Sum => (T::IDENTITIES[0], |a, b| a.plus(b)),
        Op::Min => (T::IDENTITIES[1], |a, b| if b < a { b } else { a }),
        Op::Max => (T::IDENTITIES[2], |a, b| if b > a { b } else { a }),
    };
    let mut acc = identity;
    let mut out = Vec::with_capacity(values.len());
    for (i, (&x, &flag)) in values.iter().zip(flags).enumerate() {
        if i == 0 || flag != 0 {
            acc = identity;
        }
        out.push(if inclusive { f(acc, x) } else { acc });
        acc = f(acc, x);
    }
    out
}

async fn check_scan<T: Written>(
    gpu: &Gpu,
    seg: &Segmented<T>,
    values: &[T],
    flags: &[u32],
    op: Op,
) {
    let n = values.len() as u64;
    let (v, h) = (
        gpu.buffer_from(values).expect("values"),
        gpu.buffer_from(flags).expect("heads"),
    );
    let out = gpu.buffer_zeroed::<T>(n.max(1)).expect("output");
    for inclusive in [true, false] {
        seg.run(SegmentedScanArgs {
            values: &v,
            heads: &h,
            output: &out,
            op,
            inclusive,
        })
        .expect("scan");
        let got = out.read().await.expect("read");
        let want = segmented_reference(values, flags, op, inclusive);
        // The public CPU twin agrees (non-zero flags start segments there too).
        assert_eq!(
            first_difference(&segmented_scan_cpu(values, flags, op, inclusive), &want),
            None,
            "the CPU twin"
        );
        if let Some(d) = first_difference(&got[..values.len()], &want) {
            panic!(
                "{op:?} {}, n = {n}, inclusive {inclusive}: {d}",
                std::any::type_name::<T>()
            );
        }
    }
}

async fn check_reduce_by_key<T: Scalar>(
    gpu: &Gpu,
    seg: &Segmented<T>,
    keys: &[u32],
    values: &[T],
    op: Op,
) {
    let n = keys.len() as u64;
    let (k, v) = (
        gpu.buffer_from(keys).expect("keys"),
        gpu.buffer_from(values).expect("values"),
    );
    let (unique, reduced) = (
        gpu.buffer_zeroed::<u32>(n.max(1)).expect("unique"),
        gpu.buffer_zeroed::<T>(n.max(1)).expect("reduced"),
    );
    let count = CompactCount::new(gpu).expect("count");
    seg.run(ReduceByKeyArgs {
        keys: &k,
        values: &v,
        unique_keys: &unique,
        reduced: &reduced,
        count: &count,
        op,
    })
    .expect("reduce by key");
    let (want_keys, want_values) = reduce_by_key_cpu(keys, values, op);
    let runs = count.read().await.expect("count") as usize;
    assert_eq!(runs, want_keys.len(), "{op:?}: runs, n = {n}");
    assert_eq!(
        first_difference(&unique.read().await.expect("read")[..runs], &want_keys),
        None,
        "{op:?} keys, n = {n}"
    );
    assert_eq!(
        first_difference(&reduced.read().await.expect("read")[..runs], &want_values),
        None,
        "{op:?} values, n = {n}"
    );
}

/// Run-length encoding of `keys` against the CPU twin (reduce-by-key of ones), read back; the
/// outputs hold `n + n % 3` elements (not always a multiple of four), and past the count they
/// must keep what they held.
async fn check_run_lengths(gpu: &Gpu, seg: &Segmented<u32>, keys: &[u32]) {
    const BEFORE: u32 = 0xdead_beef;
    let n = keys.len();
    let k = gpu.buffer_from(keys).expect("keys");
    let held = vec![BEFORE; (n + n % 3).max(1)];
    let unique = gpu.buffer_from(&held).expect("unique");
    let lengths = gpu.buffer_from(&held).expect("lengths");
    let count = CompactCount::new(gpu).expect("count");
    seg.run(RunLengthsArgs {
        keys: &k,
        unique_keys: &unique,
        lengths: &lengths,
        count: &count,
    })
    .expect("run lengths");
    let (want_keys, want_lengths) = reduce_by_key_cpu(keys, &vec![1u32; n], Op::Sum);
    let runs = count.read().await.expect("count") as usize;
    assert_eq!(runs, want_keys.len(), "runs, n = {n}");
    for (what, got, want) in [
        ("run keys", unique.read().await.expect("read"), want_keys),
        (
            "run lengths",
            lengths.read().await.expect("read"),
            want_lengths,
        ),
    ] {
        assert_eq!(
            first_difference(&got[..runs], &want),
            None,
            "{what}, n = {n}"
        );
        let past = got[runs..].iter().position(|&x| x != BEFORE);
        assert_eq!(
            past.map(|i| runs + i),
            None,
            "{what} past the count, n = {n}"
        );
    }
}

shoal_conformance::gpu_test! {
    /// u32 sums, min and max by head flags, inclusive and exclusive, every size, heads dense,
    /// sparse, everywhere and nowhere; the heads are flags of 1, 2 and 0xffffffff, so a kernel
    /// that takes only a flag of 1 for a head (`h == 1u` for `h != 0u` in `starts` or
    /// `element4`, `wgsl/segmented.wgsl`) fails.
    async fn segmented_scan_u32_every_size(gpu) {
        let seg = Segmented::<u32>::new(&gpu).expect("segmented");
        for &n in SEG_SIZES {
            let values = random_u32(n, n, 1000);
            check_scan(&gpu, &seg, &values, &heads(n + 1, n, 16), Op::Sum).await;
        }
        let n = 20_001;
        let values = random_u32(9, n, 0);
        for every in [0, 1, 3, 1000] {
            check_scan(&gpu, &seg, &values, &heads(every as u64, n, every), Op::Sum).await;
        }
        for op in [Op::Min, Op::Max] {
            check_scan(&gpu, &seg, &values, &heads(4, n, 50), op).await;
        }
        // Forced small shared-memory tiles (8 × 4), where the adapter plans others.
        let small = Tiling { per_invocation: 4, one_subgroup: false, workgroup: Some(8) };
        let seg = Segmented::<u32>::with_tiling(&gpu, small).expect("small tiles");
        check_scan(&gpu, &seg, &random_u32(3, 2_049, 1000), &heads(5, 2_049, 9), Op::Sum).await;
        // Tiles of 8 × 130, more than the `own` block unrolls (SwiftShader's kind): the rolled
        // block, where the io reads neighbouring keys from memory; scans and runs.
        let rolled = Tiling { per_invocation: 130, one_subgroup: false, workgroup: Some(8) };
        let seg = Segmented::<u32>::with_tiling(&gpu, rolled).expect("rolled tiles");
        for n in [1u64, 1_041, 20_001] {
            check_scan(&gpu, &seg, &random_u32(n, n, 1000), &heads(n + 5, n, 9), Op::Sum).await;
            check_reduce_by_key(&gpu, &seg, &runs(n, n, 40), &random_u32(n + 2, n, 0), Op::Max).await;
        }
    }

    /// i32 and f32 (small integers, so every order of additions is exact) with each operation,
    /// by head flags of 1, 2 and 0xffffffff.
    async fn segmented_scan_i32_f32(gpu) {
        let (si, sf) = (Segmented::<i32>::new(&gpu).expect("i32"), Segmented::<f32>::new(&gpu).expect("f32"));
        for &n in &[1u64, 513, 20_001] {
            let ints: Vec<i32> = random_u32(n + 3, n, 2001).into_iter().map(|x| x as i32 - 1000).collect();
            let floats: Vec<f32> = ints.iter().map(|&x| x as f32).collect();
            let flags = heads(n, n, 40);
            for op in [Op::Sum, Op::Min, Op::Max] {
                check_scan(&gpu, &si, &ints, &flags, op).await;
                check_scan(&gpu, &sf, &floats, &flags, op).await;
            }
        }
    }

    /// Reduce-by-key over runs of equal keys (long, short, all one key, all different) and run
    /// lengths, every size.
    async fn reduce_by_key_and_run_lengths(gpu) {
        let seg = Segmented::<u32>::new(&gpu).expect("segmented");
        for &n in &SEG_SIZES[..SEG_SIZES.len() - 1] {
            let keys = runs(n, n, 40);
            let values = random_u32(n + 2, n, 0);
            check_reduce_by_key(&gpu, &seg, &keys, &values, Op::Sum).await;
            check_run_lengths(&gpu, &seg, &keys).await;
        }
        let n = 20_000;
        let values = random_u32(5, n, 0);
        let (same, different) = (vec![7; n as usize], (0..n as u32).collect::<Vec<_>>());
        check_reduce_by_key(&gpu, &seg, &same, &values, Op::Max).await;
        check_reduce_by_key(&gpu, &seg, &different, &values, Op::Min).await;
        // One run of n; n runs of 1; runs of 1 to 16 in forced tiles of 8 x 2 (1,250 tiles).
        check_run_lengths(&gpu, &seg, &same).await;
        check_run_lengths(&gpu, &seg, &different).await;
        // n runs of 1 where n is not a multiple of four: the tail beside the vec4 stores.
        check_run_lengths(&gpu, &seg, &(0..20_003).collect::<Vec<u32>>()).await;
        let small = Tiling { per_invocation: 2, one_subgroup: false, workgroup: Some(8) };
        let forced = Segmented::<u32>::with_tiling(&gpu, small).expect("small tiles");
        check_run_lengths(&gpu, &forced, &runs(8, n, 16)).await;
        let floats = Segmented::<f32>::new(&gpu).expect("f32");
        let keys = runs(6, n, 300);
        let values: Vec<f32> = random_u32(7, n, 100).into_iter().map(|x| x as f32).collect();
        check_reduce_by_key(&gpu, &floats, &keys, &values, Op::Sum).await;
    }

    /// Lengths that differ, outputs too short and buffers bound twice are typed errors.
    async fn segmented_errors_are_typed(gpu) {
        let seg = Segmented::<u32>::new(&gpu).expect("segmented");
        let (v, h) = (gpu.buffer_zeroed::<u32>(10).expect("v"), gpu.buffer_zeroed::<u32>(9).expect("h"));
        let out = gpu.buffer_zeroed::<u32>(10).expect("out");
        assert!(matches!(seg.run(SegmentedScanArgs { values: &v, heads: &h, output: &out, op: Op::Sum, inclusive: true }), Err(shoal::Error::Length { .. })));
        let h = gpu.buffer_zeroed::<u32>(10).expect("h");
        let short = gpu.buffer_zeroed::<u32>(9).expect("short");
        assert!(matches!(seg.run(SegmentedScanArgs { values: &v, heads: &h, output: &short, op: Op::Sum, inclusive: true }), Err(shoal::Error::Length { .. })));
        assert!(matches!(seg.run(SegmentedScanArgs { values: &v, heads: &h, output: &v, op: Op::Sum, inclusive: true }), Err(shoal::Error::BindingKind { .. })));
        let count = CompactCount::new(&gpu).expect("count");
        assert!(matches!(seg.run(ReduceByKeyArgs { keys: &h, values: &v, unique_keys: &short, reduced: &out, count: &count, op: Op::Sum }), Err(shoal::Error::Length { .. })));
        assert!(matches!(seg.run(RunLengthsArgs { keys: &h, unique_keys: &out, lengths: &short, count: &count }), Err(shoal::Error::Length { .. })));
        // Run lengths read the keys again after the scan (each run's key): an output that is the
        // keys' own buffer, or one buffer for both outputs, is refused before anything runs.
        for (unique, lengths) in [(&h, &out), (&out, &h), (&out, &out)] {
            let e = seg.run(RunLengthsArgs { keys: &h, unique_keys: unique, lengths, count: &count }).expect_err("one buffer twice");
            assert!(matches!(e, shoal::Error::Aliasing { .. } | shoal::Error::BindingKind { .. }), "{e}");
        }
        let single = Tiling { per_invocation: 1, one_subgroup: false, workgroup: Some(1) };
        assert!(matches!(Segmented::<u32>::with_tiling(&gpu, single), Err(shoal::Error::Override { .. })));
    }

    /// A `reduced` output shorter than the values (reduce-by-key) and a `unique` output shorter
    /// than the keys (run lengths), like the other output of each, are `Error::Length`s naming
    /// the primitive and that buffer, with both lengths, returned before anything is recorded:
    /// the batch submitted after the error leaves the count (not cleared) and the outputs as
    /// they were. Guards the output checks of `reduce_runs` and `record_run_lengths`.
    async fn segmented_short_outputs_name_the_buffer(gpu) {
        const HELD: u32 = 0xdead_beef;
        let seg = Segmented::<u32>::new(&gpu).expect("segmented");
        let data = [4u32, 4, 1, 6, 6, 6, 2, 2, 9];
        let n = data.len();
        let keys = gpu.buffer_from(&data).expect("keys");
        let values = gpu.buffer_from(&(1..=n as u32).collect::<Vec<_>>()).expect("values");
        // (primitive, the short buffer, unique keys' length, the other output's length)
        for (kernel, short, unique_len, other_len) in [
            ("reduce by key", "reduced values", n, n - 1),
            ("reduce by key", "reduced values", n, 1),
            ("reduce by key", "unique keys", n - 1, n),
            ("run lengths", "unique keys", n - 1, n),
            ("run lengths", "unique keys", 1, n),
            ("run lengths", "lengths", n, n - 1),
        ] {
            let (unique, other) = (gpu.buffer_from(&vec![HELD; unique_len]).expect("unique"), gpu.buffer_from(&vec![HELD; other_len]).expect("other"));
            let count = CompactCount { buffer: gpu.buffer_from_with(&[HELD; 4], Usage::STORAGE | Usage::INDIRECT).expect("count") };
            let mut batch = gpu.commands();
            let e = if kernel == "reduce by key" {
                seg.record(&mut batch, ReduceByKeyArgs { keys: &keys, values: &values, unique_keys: &unique, reduced: &other, count: &count, op: Op::Sum })
            } else {
                seg.record(&mut batch, RunLengthsArgs { keys: &keys, unique_keys: &unique, lengths: &other, count: &count })
            }
            .expect_err("a short output");
            let got_len = if short == "unique keys" { unique_len } else { other_len } as u64;
            let named = format!("{kernel}: {short}");
            assert!(matches!(&e, shoal::Error::Length { what, expected, got } if *what == named && *expected == n as u64 && *got == got_len), "{named} of {got_len}: {e}");
            batch.submit().expect("submit").wait().await.expect("wait");
            assert_eq!(count.buffer.read().await.expect("count"), [HELD; 4], "{named}: the count was touched");
            assert_eq!(unique.read().await.expect("unique"), vec![HELD; unique_len], "{named}: unique keys written");
            assert_eq!(other.read().await.expect("other"), vec![HELD; other_len], "{named}: the other output written");
        }
    }

    /// Run lengths into slices of larger buffers, 64 words (256 bytes) in: the vec4 views of the
    /// outputs start at the slices' offsets, and the words around each slice keep what they held.
    async fn run_lengths_into_slices(gpu) {
        const BEFORE: u32 = 0xdead_beef;
        let seg = Segmented::<u32>::new(&gpu).expect("segmented");
        for n in [5u64, 4097, 20_003] {
            let keys = runs(n + 11, n, 9);
            let k = gpu.buffer_from(&keys).expect("keys");
            let (unique, lengths) = (gpu.buffer_from(&vec![BEFORE; n as usize + 128]).expect("unique"), gpu.buffer_from(&vec![BEFORE; n as usize + 128]).expect("lengths"));
            let count = CompactCount::new(&gpu).expect("count");
            let (us, ls) = (unique.slice(64..64 + n).expect("slice"), lengths.slice(64..64 + n).expect("slice"));
            seg.run(RunLengthsArgs { keys: &k, unique_keys: &us, lengths: &ls, count: &count }).expect("run lengths");
            let (want_keys, want_lengths) = reduce_by_key_cpu(&keys, &vec![1u32; keys.len()], Op::Sum);
            let runs = count.read().await.expect("count") as usize;
            assert_eq!(runs, want_keys.len(), "runs, n = {n}");
            for (what, got, want) in [("keys", unique.read().await.expect("read"), want_keys), ("lengths", lengths.read().await.expect("read"), want_lengths)] {
                assert_eq!(first_difference(&got[64..64 + runs], &want), None, "{what}, n = {n}");
                assert!(got[..64].iter().chain(&got[64 + runs..]).all(|&x| x == BEFORE), "{what} outside the runs, n = {n}");
            }
        }
    }

    /// Run lengths write the count in the scan and the outputs in the pass after it: an output
    /// (or the keys) that is the count's buffer would overwrite the count (or be cleared before
    /// it is read), so each is refused like any two outputs that are one buffer; a count buffer
    /// shorter than the count and the dispatch arguments is refused by every call that writes
    /// it. The right buffers still run.
    async fn run_lengths_refuse_the_count_buffer(gpu) {
        let seg = Segmented::<u32>::new(&gpu).expect("segmented");
        let keys = gpu.buffer_from(&[4u32, 4, 4, 4, 1, 1, 6, 6]).expect("keys");
        let (unique, lengths) = (gpu.buffer_zeroed::<u32>(8).expect("unique"), gpu.buffer_zeroed::<u32>(8).expect("lengths"));
        let count = CompactCount::new(&gpu).expect("count");
        let wide = CompactCount { buffer: gpu.buffer_zeroed_with::<u32>(8, Usage::STORAGE | Usage::INDIRECT).expect("wide count") };
        let refused = |e: shoal::Error, binding: &str| {
            assert!(matches!(&e, shoal::Error::BindingKind { kernel, binding: b, got, .. } if kernel == "run lengths" && (b == binding || got.contains(binding))), "{binding}: {e}");
        };
        refused(seg.run(RunLengthsArgs { keys: &keys, unique_keys: &unique, lengths: &wide.buffer, count: &wide }).expect_err("lengths in the count"), "count");
        refused(seg.run(RunLengthsArgs { keys: &keys, unique_keys: &wide.buffer, lengths: &lengths, count: &wide }).expect_err("unique keys in the count"), "count");
        refused(seg.run(RunLengthsArgs { keys: &wide.buffer, unique_keys: &unique, lengths: &lengths, count: &wide }).expect_err("keys in the count"), "count");
        refused(seg.run(RunLengthsArgs { keys: &keys, unique_keys: &count.buffer.view_as::<u32>(), lengths: &lengths, count: &count }).expect_err("a view of the count"), "count");
        refused(seg.run(RunLengthsArgs { keys: &keys, unique_keys: &unique, lengths: &unique, count: &count }).expect_err("one buffer for both outputs"), "unique keys");
        for len in [0u64, 1, 3] {
            let short = CompactCount { buffer: gpu.buffer_zeroed_with::<u32>(len, Usage::STORAGE | Usage::INDIRECT).expect("short count") };
            let e = seg.run(RunLengthsArgs { keys: &keys, unique_keys: &unique, lengths: &lengths, count: &short }).expect_err("short count");
            assert!(matches!(&e, shoal::Error::Length { what, expected: 4, got } if what.starts_with("run lengths") && *got == len), "{e}");
            let e = seg.run(ReduceByKeyArgs { keys: &keys, values: &keys, unique_keys: &unique, reduced: &lengths, count: &short, op: Op::Sum }).expect_err("short count");
            assert!(matches!(&e, shoal::Error::Length { what, expected: 4, got } if what.starts_with("reduce by key") && *got == len), "{e}");
        }
        seg.run(RunLengthsArgs { keys: &keys, unique_keys: &unique, lengths: &lengths, count: &count }).expect("run lengths");
        assert_eq!(count.read().await.expect("count"), 3);
        assert_eq!(unique.read().await.expect("unique")[..3], [4, 1, 6]);
        assert_eq!(lengths.read().await.expect("lengths")[..3], [4, 2, 2]);
    }
}
