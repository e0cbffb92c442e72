//! Compaction (by flags, by a predicate, and chained to an indirect dispatch) against its CPU twin.

use crate::test_support::*;

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
            compact.run(&vb, Keep::Flags(&fb), &out, &count).expect("compact");
            let want = compact_cpu(&values, |_, i| flags[i] != 0);
            assert_eq!(count.read().await.expect("count") as usize, want.len(), "n = {n}");
            let got = out.read_range(0..want.len() as u64).await.expect("out");
            assert_eq!(first_difference(&got, &want), None, "n = {n}");
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
                compact.run(&vb, Keep::Predicate(&unique), &a, &ca).expect("unique");
                let want = compact_cpu(&values, |x, i| i == 0 || values[i - 1] != x);
                assert_eq!(ca.read().await.expect("count") as usize, want.len(), "unique count, n = {m}");
                assert_eq!(first_difference(&a.read().await.expect("read")[..want.len()], &want), None, "unique, n = {m}");
            }
            let mut commands = gpu.commands();
            compact.record_partition(&mut commands, &vb, &split, (&a, &b), (&ca, &cb), 0).expect("partition");
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
        assert!(matches!(compact.record_partition(&mut commands, &vb, &split, (&out, &out), (&count, &count), 0), Err(shoal::Error::BindingKind { .. })));
        assert!(matches!(compact.partition("x +* 1u"), Err(shoal::Error::Wgsl { .. })));
    }

    /// Forced tilings the compaction cannot run are typed errors naming its kernels.
    async fn compact_tilings_it_cannot_run_are_typed_errors(gpu) {
        let shared = |per, workgroup| Tiling { per_invocation: per, one_subgroup: false, workgroup: Some(workgroup) };
        for (why, tiling) in [
            ("one-subgroup tiles", Tiling { per_invocation: 16, one_subgroup: true, workgroup: None }),
            ("no elements", shared(0, 8)),
            ("one element", shared(1, 8)),
            ("an odd count", shared(3, 8)),
            ("more than MAX_COARSENING", shared(crate::MAX_COARSENING + 2, 8)),
            ("a work group that is not a power of two", shared(16, 3)),
        ] {
            match Compact::with_tiling(&gpu, tiling) {
                Err(shoal::Error::Override { kernel, .. }) => assert!(kernel.contains("compact.wgsl"), "{why}: {kernel}"),
                other => panic!("{why}: {other:?}"),
            }
        }
        // The smallest it takes works (8 x 2 tiles across several work groups), and so do more
        // elements per invocation than its scatter keeps bits for (66, 130: the rolled scatter),
        // by flags and by a predicate, over sizes that cut a tile or an invocation's elements.
        for per in [2, 66, 130] {
            let compact = Compact::with_tiling(&gpu, shared(per, 8)).expect("tiling");
            let keep = compact.predicate("x < 5u").expect("predicate");
            for n in [1u64, 1000, 8 * per as u64 + 3, 20_011] {
                let values = random_u32(n + per as u64, n, 10);
                let flags: Vec<u32> = values.iter().map(|&x| u32::from(x % 3 == 0)).collect();
                let (vb, fb) = (gpu.buffer_from(&values).expect("values"), gpu.buffer_from(&flags).expect("flags"));
                let (out, count) = (gpu.buffer_zeroed::<u32>(n).expect("out"), CompactCount::new(&gpu).expect("count"));
                for (keep, want) in [
                    (Keep::Predicate(&keep), compact_cpu(&values, |x, _| x < 5)),
                    (Keep::Flags(&fb), compact_cpu(&values, |x, _| x % 3 == 0)),
                ] {
                    compact.run(&vb, keep, &out, &count).expect("run");
                    assert_eq!(count.read().await.expect("count") as usize, want.len(), "{per} per invocation, n = {n}");
                    assert_eq!(out.read().await.expect("read")[..want.len()], want[..], "{per} per invocation, n = {n}");
                }
            }
        }
    }
}
