//! Compaction (by flags, by a predicate, and chained to an indirect dispatch) against its CPU twin.

use crate::test_support::*;

/// The whole output of a compaction: the kept values in order, then the rejected ones, the last
/// first.
fn kept_then_rejected(values: &[u32], keep: impl Fn(u32, usize) -> bool) -> Vec<u32> {
    let mut out = compact_cpu(values, &keep);
    let mut rejected = compact_cpu(values, |x, i| !keep(x, i));
    rejected.reverse();
    out.extend(rejected);
    out
}

shoal_conformance::gpu_test! {
    /// Compaction by flags at every listed size; the count stays on the GPU until read.
    async fn compact_flags_every_size(gpu) {
        let compact = Compact::new(&gpu).expect("compact");
        let count = CompactCount::new(&gpu).expect("count");
        for &n in SIZES {
            let values = random_u32(n, n, 0);
            let flags: Vec<u32> = random_u32(n + 1, n, 3);
            let (vb, fb) = (gpu.buffer_from(&values).expect("values"), gpu.buffer_from(&flags).expect("flags"));
            let out = gpu.buffer_zeroed::<u32>(n).expect("out");
            compact.run(CompactArgs { values: &vb, keep: Keep::Flags(&fb), output: &out, count: &count, next_workgroup: 0 }).expect("compact");
            let want = compact_cpu(&values, |_, i| flags[i] != 0);
            assert_eq!(count.read().await.expect("count") as usize, want.len(), "n = {n}");
            let got = out.read().await.expect("out");
            assert_eq!(first_difference(&got, &kept_then_rejected(&values, |_, i| flags[i] != 0)), None, "n = {n}");
        }
    }

    /// Compaction by a WGSL predicate at random sizes, none kept and all kept.
    async fn compact_predicate(gpu) {
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
                compact.run(CompactArgs { values: &vb, keep: Keep::Predicate(p), output: &out, count: &count, next_workgroup: 0 }).expect("compact");
                let want = compact_cpu(&values, keep);
                assert_eq!(count.read().await.expect("count") as usize, want.len(), "{} n = {n}", p.expression());
                assert_eq!(first_difference(&out.read().await.expect("out"), &kept_then_rejected(&values, keep)), None);
            }
        }
        assert!(matches!(compact.predicate("x +"), Err(shoal::Error::Wgsl { .. })));
        // A predicate's WGSL error names the predicate and its own line, not the file's.
        let e = compact.predicate("x < nope").expect_err("unknown identifier");
        assert!(e.to_string().contains("--> predicate `x < nope`:2:16"), "{e}");
    }

    /// doubles exactly the kept elements, all in one batch with no readback in between.
    async fn compact_count_drives_indirect_dispatch(gpu) {
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
        compact.record(&mut commands, CompactArgs { values: &vb, keep: Keep::Predicate(&keep), output: &out, count: &count, next_workgroup: 64 }).expect("compact");
        double.bind("count_args", &count.buffer).bind("data", &out).indirect(&count.buffer, CompactCount::ARGS_OFFSET).record(&mut commands).expect("indirect");
        commands.submit().expect("submit");
        let want: Vec<u32> = compact_cpu(&values, |x, _| x < 250).into_iter().map(|x| 2 * x + 1).collect();
        // Exactly one group per 64 kept (rounded up), unfolded at this count: written here from
        // the contract, not taken from the WGSL.
        let args = count.read_args().await.expect("args");
        assert!(want.len().div_ceil(64) <= 65_535, "{} kept", want.len());
        assert_eq!(args, shoal::DispatchArgs::new(want.len().div_ceil(64) as u32, 1, 1), "{} kept", want.len());
        assert_eq!(first_difference(&out.read_range(0..want.len() as u64).await.expect("out"), &want), None);
        // Past the count, the rejected values, the last first (the indirect kernel did not touch them).
        let rejected: Vec<u32> = compact_cpu(&values, |x, _| x >= 250).into_iter().rev().collect();
        assert_eq!(first_difference(&out.read_range(want.len() as u64..n).await.expect("tail"), &rejected), None);
        let _ = Usage::INDIRECT;
    }

    /// Unique (the first of each run of equal values) and the stable two-way partition, against
    /// CPU twins, at sizes across the tiles.
    async fn unique_and_partition(gpu) {
        let compact = Compact::new(&gpu).expect("compact");
        let (unique, split) = (compact.unique().expect("unique"), compact.partition("x % 3u == 0u").expect("partition"));
        for &n in &[0u64, 1, 7, 8, 9, 511, 512, 513, 8193, 65_537, 200_003] {
            let mut values = random_u32(n + 1, n, 50);
            values.sort_unstable();
            values.extend(random_u32(n, n / 3, 4));
            let m = values.len() as u64;
            let vb = gpu.buffer_from(&values).expect("values");
            let (a, b) = (gpu.buffer_zeroed::<u32>(m.max(1)).expect("a"), gpu.buffer_zeroed::<u32>(m.max(1)).expect("b"));
            let (ca, cb) = (CompactCount::new(&gpu).expect("count"), CompactCount::new(&gpu).expect("count"));
            if m > 0 {
                compact.run(CompactArgs { values: &vb, keep: Keep::Predicate(&unique), output: &a, count: &ca, next_workgroup: 0 }).expect("unique");
                let want = compact_cpu(&values, |x, i| i == 0 || values[i - 1] != x);
                assert_eq!(ca.read().await.expect("count") as usize, want.len(), "unique count, n = {m}");
                assert_eq!(first_difference(&a.read().await.expect("read")[..want.len()], &want), None, "unique, n = {m}");
            }
            let mut commands = gpu.commands();
            compact.record(&mut commands, PartitionArgs { values: &vb, partition: &split, kept: &a, rejected: &b, kept_count: &ca, rejected_count: &cb, next_workgroup: 0 }).expect("partition");
            commands.submit().expect("submit");
            let kept = compact_cpu(&values, |x, _| x % 3 == 0);
            let rejected = compact_cpu(&values, |x, _| x % 3 != 0);
            assert_eq!((ca.read().await.expect("count") as usize, cb.read().await.expect("count") as usize), (kept.len(), rejected.len()), "partition counts, n = {m}");
            assert_eq!(first_difference(&a.read().await.expect("read")[..kept.len()], &kept), None, "kept, n = {m}");
            assert_eq!(first_difference(&b.read().await.expect("read")[..rejected.len()], &rejected), None, "rejected, n = {m}");
        }
        let (vb, out) = (gpu.buffer_from(&[1u32, 2]).expect("values"), gpu.buffer_zeroed::<u32>(2).expect("out"));
        let count = CompactCount::new(&gpu).expect("count");
        let mut commands = gpu.commands();
        assert!(matches!(compact.record(&mut commands, PartitionArgs { values: &vb, partition: &split, kept: &out, rejected: &out, kept_count: &count, rejected_count: &count, next_workgroup: 0 }), Err(shoal::Error::BindingKind { .. })));
        assert!(matches!(compact.partition("x +* 1u"), Err(shoal::Error::Wgsl { .. })));
    }

    /// The two sides of a partition run one after the other, so their outputs may be the two
    /// halves of one buffer and their counts two slices of another (the second side's count
    /// driving an indirect dispatch from its slice's offset); overlapping slices are refused,
    /// naming the binding.
    async fn partition_into_the_halves_of_one_buffer(gpu) {
        let compact = Compact::new(&gpu).expect("compact");
        let split = compact.partition("x % 3u == 0u").expect("partition");
        // Slices start at multiples of 256 bytes (`Limits::slice_alignment`): 70,016 values.
        let n = 70_016u64;
        let values = random_u32(9, n, u32::MAX);
        let vb = gpu.buffer_from(&values).expect("values");
        let out = gpu.buffer_zeroed::<u32>(2 * n).expect("out");
        let counts = gpu.buffer_zeroed_with::<u32>(68, Usage::STORAGE | Usage::INDIRECT | Usage::COPY_SRC).expect("counts");
        let (ca, cb) = (CompactCount { buffer: counts.slice(..4).expect("slice") }, CompactCount { buffer: counts.slice(64..).expect("slice") });
        let (kept_half, rejected_half) = (out.slice(..n).expect("slice"), out.slice(n..).expect("slice"));
        let mut commands = gpu.commands();
        compact.record(&mut commands, PartitionArgs { values: &vb, partition: &split, kept: &kept_half, rejected: &rejected_half, kept_count: &ca, rejected_count: &cb, next_workgroup: 64 }).expect("partition");
        commands.submit().expect("submit");
        let kept = compact_cpu(&values, |x, _| x % 3 == 0);
        let rejected = compact_cpu(&values, |x, _| x % 3 != 0);
        let got = out.read().await.expect("read");
        assert_eq!(first_difference(&got[..kept.len()], &kept), None, "kept");
        assert_eq!(first_difference(&got[n as usize..n as usize + rejected.len()], &rejected), None, "rejected");
        assert_eq!((ca.read().await.expect("count") as usize, cb.read().await.expect("count") as usize), (kept.len(), rejected.len()));
        assert_eq!(cb.read_args().await.expect("args").x, rejected.len().div_ceil(64) as u32);
        let overlapping = out.slice(n - 64..2 * n - 64).expect("slice");
        let mut commands = gpu.commands();
        let e = compact.record(&mut commands, PartitionArgs { values: &vb, partition: &split, kept: &kept_half, rejected: &overlapping, kept_count: &ca, rejected_count: &cb, next_workgroup: 0 }).expect_err("overlap");
        assert!(matches!(&e, shoal::Error::BindingKind { kernel, binding, .. } if kernel == "partition" && binding == "rejected"), "{e}");
        let e = compact.record(&mut commands, PartitionArgs { values: &vb, partition: &split, kept: &kept_half, rejected: &rejected_half, kept_count: &ca, rejected_count: &ca, next_workgroup: 0 }).expect_err("one count");
        assert!(matches!(&e, shoal::Error::BindingKind { binding, .. } if binding == "rejected count"), "{e}");
    }

    /// Forced tilings the compaction's scan cannot run are typed errors; every other tiling
    /// compacts: one-subgroup tiles where the adapter has subgroups, and shared-memory tiles of
    /// 1 to 512 elements per invocation (unrolled up to 64, rolled above, odd counts through the
    /// scalar loads), by flags and by a predicate, over sizes that cut a tile or an invocation's
    /// elements, and the output past the count holds the rejected values, the last first.
    async fn compact_every_tiling(gpu) {
        let shared = |per, workgroup| Tiling { per_invocation: per, one_subgroup: false, workgroup: Some(workgroup) };
        for (why, tiling) in [
            ("no elements", shared(0, 8)),
            ("more than MAX_COARSENING", shared(crate::MAX_COARSENING + 2, 8)),
            ("a work group that is not a power of two", shared(16, 3)),
        ] {
            match Compact::with_tiling(&gpu, tiling) {
                Err(shoal::Error::Override { kernel, .. }) => assert!(kernel.contains("scan.wgsl"), "{why}: {kernel}"),
                other => panic!("{why}: {other:?}"),
            }
        }
        let mut tilings: Vec<Tiling> = [1, 2, 3, 64, 66, 130, 512].into_iter().map(|per| shared(per, 8)).collect();
        let one_subgroup = Tiling { per_invocation: 16, one_subgroup: true, workgroup: None };
        match Compact::with_tiling(&gpu, one_subgroup) {
            Ok(_) => tilings.push(one_subgroup),
            Err(e) => assert!(!gpu.has_subgroups(), "one-subgroup tiles refused with subgroups: {e}"),
        }
        for tiling in tilings {
            let compact = Compact::with_tiling(&gpu, tiling).expect("tiling");
            let keep = compact.predicate("x < 5u").expect("predicate");
            let tile = 8 * tiling.per_invocation as u64;
            for n in [1u64, 1000, tile + 3, 20_011] {
                let values = random_u32(n + tile, n, 10);
                let flags: Vec<u32> = values.iter().map(|&x| u32::from(x % 3 == 0)).collect();
                let (vb, fb) = (gpu.buffer_from(&values).expect("values"), gpu.buffer_from(&flags).expect("flags"));
                let (out, count) = (gpu.buffer_zeroed::<u32>(n).expect("out"), CompactCount::new(&gpu).expect("count"));
                for (keep, test) in [
                    (Keep::Predicate(&keep), &(|x: u32, _| x < 5) as &dyn Fn(u32, usize) -> bool),
                    (Keep::Flags(&fb), &|x: u32, _| x.is_multiple_of(3)),
                ] {
                    compact.run(CompactArgs { values: &vb, keep, output: &out, count: &count, next_workgroup: 0 }).expect("run");
                    let want = compact_cpu(&values, test);
                    assert_eq!(count.read().await.expect("count") as usize, want.len(), "{tiling:?}, n = {n}");
                    assert_eq!(first_difference(&out.read().await.expect("read"), &kept_then_rejected(&values, test)), None, "{tiling:?}, n = {n}");
                }
            }
        }
    }

    /// A `CompactCount` shorter than the count and its three dispatch arguments is an
    /// `Error::Length` when a compaction or partition would write it (not arguments dropped and
    /// a `read_args` that fails later); a partition's second side may not overwrite the first's
    /// count, nor clear the values before it reads them.
    async fn compact_count_too_short_and_partition_overlaps(gpu) {
        let compact = Compact::new(&gpu).expect("compact");
        let values = gpu.buffer_from(&[5u32, 12, 7, 30, 1]).expect("values");
        let (kept, rejected) = (gpu.buffer_zeroed::<u32>(8).expect("kept"), gpu.buffer_zeroed::<u32>(8).expect("rejected"));
        let count = CompactCount::new(&gpu).expect("count");
        let split = compact.partition("x < 10u").expect("partition");
        let small = compact.predicate("x < 10u").expect("predicate");
        for len in [0u64, 1, 3] {
            let short = CompactCount { buffer: gpu.buffer_zeroed_with::<u32>(len, Usage::STORAGE | Usage::INDIRECT).expect("short count") };
            let short_length = |e: shoal::Error, kernel: &str| {
                assert!(matches!(&e, shoal::Error::Length { what, expected: 4, got } if what.starts_with(kernel) && what.contains("CompactCount") && *got == len), "{e}");
            };
            short_length(compact.run(CompactArgs { values: &values, keep: Keep::Predicate(&small), output: &kept, count: &short, next_workgroup: 0 }).expect_err("short count"), "compact");
            let mut commands = gpu.commands();
            short_length(compact.record(&mut commands, PartitionArgs { values: &values, partition: &split, kept: &kept, rejected: &rejected, kept_count: &count, rejected_count: &short, next_workgroup: 0 }).expect_err("short count"), "partition");
            short_length(compact.record(&mut commands, PartitionArgs { values: &values, partition: &split, kept: &kept, rejected: &rejected, kept_count: &short, rejected_count: &count, next_workgroup: 0 }).expect_err("short count"), "partition");
        }
        let wide = |n| CompactCount { buffer: gpu.buffer_zeroed_with::<u32>(n, Usage::STORAGE | Usage::INDIRECT).expect("count") };
        let (first, second) = (wide(8), wide(8));
        let mut commands = gpu.commands();
        for (outputs, counts, binding) in [
            ((&kept, &first.buffer), (&first, &second), "kept count"),
            ((&second.buffer, &rejected), (&first, &second), "rejected count"),
            ((&kept, &rejected), (&first, &CompactCount { buffer: values.clone() }), "rejected count"),
        ] {
            let args = PartitionArgs { values: &values, partition: &split, kept: outputs.0, rejected: outputs.1, kept_count: counts.0, rejected_count: counts.1, next_workgroup: 0 };
            let e = compact.record(&mut commands, args).expect_err("overlap");
            assert!(matches!(&e, shoal::Error::BindingKind { kernel, binding: b, .. } if kernel == "partition" && b == binding), "{binding}: {e}");
        }
        // A rejected output too short is refused before the kept side is recorded: the batch
        // submitted after the error writes nothing.
        let (fresh_kept, short_rejected) = (gpu.buffer_zeroed::<u32>(8).expect("kept"), gpu.buffer_zeroed::<u32>(2).expect("short"));
        let fresh_count = wide(4);
        let mut batch = gpu.commands();
        let e = compact.record(&mut batch, PartitionArgs { values: &values, partition: &split, kept: &fresh_kept, rejected: &short_rejected, kept_count: &fresh_count, rejected_count: &second, next_workgroup: 0 }).expect_err("short rejected");
        assert!(matches!(&e, shoal::Error::Length { what, .. } if what.contains("rejected")), "{e}");
        batch.submit().expect("submit").wait().await.expect("wait");
        assert_eq!(fresh_kept.read().await.expect("kept"), [0; 8], "nothing of the kept side ran");
        assert_eq!(fresh_count.buffer.read().await.expect("count"), [0; 4]);
        // A longer count buffer is fine: its first four words are the count and arguments.
        compact.record(&mut commands, PartitionArgs { values: &values, partition: &split, kept: &kept, rejected: &rejected, kept_count: &first, rejected_count: &second, next_workgroup: 64 }).expect("partition");
        commands.submit().expect("submit");
        assert_eq!((first.read().await.expect("count"), second.read().await.expect("count")), (3, 2));
        assert_eq!(first.read_args().await.expect("args").x, 1);
    }

    /// An output or a flags buffer shorter than the values is an `Error::Length` naming the
    /// compaction and that buffer, with the lengths, returned before anything is recorded: the
    /// batch submitted after the error leaves the count (not cleared), the output and the flags
    /// as they were. Guards the output and flags checks of `Compact::record` (removing either,
    /// or recording the count's clear before them, fails here).
    async fn compact_short_output_or_flags_is_refused_before_recording(gpu) {
        const HELD: u32 = 0xdead_beef;
        let compact = Compact::new(&gpu).expect("compact");
        let data = [5u32, 12, 7, 30, 1, 9, 2];
        let n = data.len() as u64;
        let values = gpu.buffer_from(&data).expect("values");
        let small = compact.predicate("x < 10u").expect("predicate");
        // (the buffer that is short, output length, flags length; None: by the predicate)
        for (short, out_len, flags_len) in [("output", n - 1, Some(n)), ("output", 1, Some(n)), ("output", n - 1, None), ("flags", n, Some(n - 1)), ("flags", n, Some(1))] {
            let output = gpu.buffer_from(&vec![HELD; out_len as usize]).expect("output");
            let flags = gpu.buffer_from(&vec![1u32; flags_len.unwrap_or(1) as usize]).expect("flags");
            let count = CompactCount { buffer: gpu.buffer_from_with(&[HELD; 4], Usage::STORAGE | Usage::INDIRECT).expect("count") };
            let keep = match flags_len {
                Some(_) => Keep::Flags(&flags),
                None => Keep::Predicate(&small),
            };
            let mut batch = gpu.commands();
            let e = compact.record(&mut batch, CompactArgs { values: &values, keep, output: &output, count: &count, next_workgroup: 64 }).expect_err("a short buffer");
            let got_len = if short == "output" { out_len } else { flags_len.unwrap_or(0) };
            assert!(
                matches!(&e, shoal::Error::Length { what, expected, got } if what.starts_with("compact:") && what.contains(short) && *expected == n && *got == got_len),
                "{short} of {got_len}: {e}"
            );
            batch.submit().expect("submit").wait().await.expect("wait");
            assert_eq!(count.buffer.read().await.expect("count"), [HELD; 4], "{short} of {got_len}: the count was touched");
            assert_eq!(output.read().await.expect("output"), vec![HELD; out_len as usize], "{short} of {got_len}: the output was written");
            assert_eq!(flags.read().await.expect("flags"), vec![1u32; flags_len.unwrap_or(1) as usize]);
            // `run` refuses it alike, submitting nothing.
            let e = compact.run(CompactArgs { values: &values, keep, output: &output, count: &count, next_workgroup: 0 }).expect_err("a short buffer");
            assert!(matches!(&e, shoal::Error::Length { what, .. } if what.contains(short)), "{e}");
            assert_eq!(count.buffer.read().await.expect("count"), [HELD; 4], "{short} of {got_len}: run touched the count");
        }
    }

    /// With `next_workgroup` = 1 (the next kernel's invocations per group, so one group per
    /// kept element) and more than 65,535 kept, the arguments fold over y: exactly
    /// x = min(groups, max x), y = ceil(groups / x), z = 1, written here from the contract (not
    /// the WGSL), at counts on either side of one and two full rows; a dependent dispatch of one
    /// invocation per group through them transforms every kept element once and nothing past the
    /// count. No element kept leaves (0, 1, 1) (`dispatch_args` of 0); nothing to scan leaves
    /// the count and the arguments all zero (the clear in `Compact::record`).
    async fn compact_args_fold_past_the_group_limit(gpu) {
        const HELD: u32 = 0xdead_beef;
        let compact = Compact::new(&gpu).expect("compact");
        let step = gpu
            .kernel(shoal::Source::new("step_kept.wgsl", "
                #import shoal::fold
                @group(0) @binding(0) var<storage, read> count_args: array<u32>;
                @group(0) @binding(1) var<storage, read_write> data: array<u32>;
                @compute @workgroup_size(1)
                fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
                    let i = shoal_linear_index(wid, nwg, 0u, 1u);
                    if i < count_args[0] { data[i] = 2u * data[i] + 1u; }
                }"))
            .expect("kernel");
        let max_x = gpu.limits().max_compute_work_group_count[0];
        let n = 200_000u64;
        let values = random_u32(21, n, 1000);
        let vb = gpu.buffer_from(&values).expect("values");
        let out = gpu.buffer_zeroed::<u32>(n).expect("out");
        let count = CompactCount::new(&gpu).expect("count");
        // Element i is kept where (i * 7919) mod n < k: exactly k of them, spread over the input
        // (7919 is prime to n), with flags of 1, 2 and 0xffffffff (any non-zero flag keeps).
        for k in [0u64, 65_535, 65_536, 131_070, 131_071, 150_001] {
            let flags: Vec<u32> = (0..n).map(|i| if (i * 7919) % n < k { [1, 2, u32::MAX][(i % 3) as usize] } else { 0 }).collect();
            let fb = gpu.buffer_from(&flags).expect("flags");
            let mut commands = gpu.commands();
            compact.record(&mut commands, CompactArgs { values: &vb, keep: Keep::Flags(&fb), output: &out, count: &count, next_workgroup: 1 }).expect("compact");
            step.bind("count_args", &count.buffer).bind("data", &out).indirect(&count.buffer, CompactCount::ARGS_OFFSET).record(&mut commands).expect("indirect");
            commands.submit().expect("submit");
            let kept: Vec<u32> = (0..n as usize).filter(|&i| flags[i] != 0).map(|i| values[i]).collect();
            assert_eq!(kept.len() as u64, k);
            assert_eq!(count.read().await.expect("count") as u64, k);
            let groups = k as u32;
            let x = groups.min(max_x);
            let y = if x == 0 { 1 } else { groups.div_ceil(x) };
            let args = count.read_args().await.expect("args");
            assert_eq!(args, shoal::DispatchArgs::new(x, y, 1), "k = {k}");
            if max_x == 65_535 && k > 65_535 {
                assert_eq!((args.x, args.y), (65_535, k.div_ceil(65_535) as u32), "k = {k}: folded");
            }
            let mut want: Vec<u32> = kept.iter().map(|&v| 2 * v + 1).collect();
            want.extend((0..n as usize).rev().filter(|&i| flags[i] == 0).map(|i| values[i]));
            assert_eq!(first_difference(&out.read().await.expect("out"), &want), None, "k = {k}");
        }
        // Nothing to scan: the count and the arguments cleared, whatever they held.
        let (empty, no_flags, no_output) = (gpu.buffer_zeroed::<u32>(0).expect("empty"), gpu.buffer_zeroed::<u32>(0).expect("empty"), gpu.buffer_zeroed::<u32>(0).expect("empty"));
        let held = CompactCount { buffer: gpu.buffer_from_with(&[HELD; 4], Usage::STORAGE | Usage::INDIRECT).expect("count") };
        let mut commands = gpu.commands();
        compact.record(&mut commands, CompactArgs { values: &empty, keep: Keep::Flags(&no_flags), output: &no_output, count: &held, next_workgroup: 1 }).expect("empty compact");
        commands.submit().expect("submit");
        assert_eq!(held.buffer.read().await.expect("count"), [0; 4]);
    }
}
