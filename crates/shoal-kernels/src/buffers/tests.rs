//! Buffers of two `Gpu`s: wgpu numbers each device's buffers from the same start, so the first
//! buffer of each compares equal as a `wgpu::Buffer`; the same-buffer checks must name the wrong
//! `Gpu`, not "the same buffer".

use crate::test_support::*;
use crate::{Segmented, U64};
use shoal::{Buffer, Error};

/// `result` is an [`Error::WrongGpu`] whose message names `what`.
fn wrong_gpu<T: std::fmt::Debug>(result: shoal::Result<T>, what: &str) {
    let e = result.expect_err(what);
    assert!(matches!(e, Error::WrongGpu { .. }), "{what}: {e}");
    assert!(e.to_string().contains(what), "{e} should name {what}");
}

shoal_conformance::async_test! {
    /// The first buffer made on each of two devices, handed to a call of the other: sort pairs,
    /// argsort, partition, segmented scan, run lengths and both scans are `Error::WrongGpu`, not
    /// `BindingKind` ("the keys buffer itself") or a run.
    async fn buffers_of_two_gpus_are_wrong_gpu_not_one_buffer() {
        let (gpu, other) = (Gpu::new().await.expect("first"), Gpu::new().await.expect("second"));
        let ours = gpu.buffer_from(&[3u32, 1, 2, 0]).expect("ours");
        let theirs = other.buffer_from(&[0u32, 1, 2, 3]).expect("theirs");
        // On wgpu 30 these compare equal (the same id on each device): what made them pass for
        // one buffer. The checks must not depend on it either way.

        let sort = RadixSort::<u32>::new(&gpu, SortParams::default()).expect("sort");
        wrong_gpu(sort.run(SortPairsArgs { keys: &ours, values: &theirs }), "radix sort: the values buffer");
        wrong_gpu(sort.run(ArgsortArgs { keys: &ours, indices: &theirs }), "radix sort: the indices buffer");
        wrong_gpu(sort.run(SortPairsArgs { keys: &theirs, values: &ours }), "radix sort: the keys buffer");
        let wide = RadixSort::<U64>::new(&gpu, SortParams::default()).expect("sort");
        wrong_gpu(wide.run(ArgsortArgs { keys: &theirs.view_as::<U64>(), indices: &ours }), "radix sort: the keys buffer");

        let compact = Compact::new(&gpu).expect("compact");
        let split = compact.partition("x < 2u").expect("partition");
        let (values, kept) = (gpu.buffer_from(&[5u32, 0, 1, 9]).expect("values"), gpu.buffer_zeroed::<u32>(4).expect("kept"));
        let counts = (CompactCount::new(&gpu).expect("count"), CompactCount::new(&gpu).expect("count"));
        let mut commands = gpu.commands();
        wrong_gpu(compact.record(&mut commands, PartitionArgs { values: &values, partition: &split, kept: &ours, rejected: &theirs, kept_count: &counts.0, rejected_count: &counts.1, next_workgroup: 0 }), "partition: the rejected buffer");
        wrong_gpu(compact.record(&mut commands, PartitionArgs { values: &theirs, partition: &split, kept: &ours, rejected: &kept, kept_count: &counts.0, rejected_count: &counts.1, next_workgroup: 0 }), "partition: the values buffer");
        let their_count = CompactCount { buffer: theirs.clone() };
        wrong_gpu(compact.record(&mut commands, PartitionArgs { values: &values, partition: &split, kept: &ours, rejected: &kept, kept_count: &counts.0, rejected_count: &their_count, next_workgroup: 0 }), "partition: the rejected count buffer");

        let seg = Segmented::<u32>::new(&gpu).expect("segmented");
        let heads = gpu.buffer_from(&[1u32, 0, 1, 0]).expect("heads");
        wrong_gpu(seg.run(SegmentedScanArgs { values: &ours, heads: &heads, output: &theirs, op: Op::Sum, inclusive: true }), "segmented scan: the output buffer");
        wrong_gpu(seg.run(RunLengthsArgs { keys: &ours, unique_keys: &kept, lengths: &theirs, count: &counts.0 }), "run lengths: the lengths buffer");
        wrong_gpu(seg.run(RunLengthsArgs { keys: &ours, unique_keys: &kept, lengths: &values, count: &their_count }), "run lengths: the count buffer");

        let scan = Scan::<u32>::new(&gpu).expect("scan");
        wrong_gpu(scan.run(ScanArgs { input: &ours, output: &theirs, spec: ScanSpec::inclusive(Op::Sum) }), "scan: the output buffer");
        let workgroup = WorkgroupScan::<u32>::new(&gpu).expect("workgroup scan");
        wrong_gpu(workgroup.run(WorkgroupScanArgs { input: &ours, output: &theirs, op: Op::Sum, inclusive: true }), "workgroup scan: the output buffer");

        // Nothing was recorded into the batch; each device's own buffers still work.
        commands.submit().expect("submit");
        sort.run(SortPairsArgs { keys: &ours, values: &kept }).expect("sort pairs");
        assert_eq!(ours.read().await.expect("read"), [0, 1, 2, 3]);
    }
}

/// `result` is an [`Error::BindingKind`] of `kernel` whose message names every part of `parts`.
fn one_buffer<T: std::fmt::Debug>(result: shoal::Result<T>, kernel: &str, parts: &[&str]) {
    let e = result.expect_err(kernel);
    assert!(matches!(e, Error::BindingKind { .. }), "{kernel}: {e}");
    for part in std::iter::once(&kernel).chain(parts) {
        assert!(e.to_string().contains(part), "`{e}` should name `{part}`");
    }
}

shoal_conformance::async_test! {
    /// Reduce, histogram, compaction, reduce-by-key and the segmented scan with an output that is
    /// an input (or its view, or a slice of its buffer), or of another `Gpu`: a typed error
    /// naming the call's own buffers, whatever the size (a reduce of a few elements once failed
    /// on internal bindings and one of many ran), and nothing recorded (the histogram's and the
    /// compaction's clears of their outputs came first).
    async fn outputs_that_are_inputs_are_refused_before_anything_is_recorded() {
        let (gpu, other) = (Gpu::new().await.expect("first"), Gpu::new().await.expect("second"));
        let data = [3u32, 1, 1, 0, 2, 2, 2, 5];
        let (x, out) = (gpu.buffer_from(&data).expect("x"), gpu.buffer_zeroed::<u32>(8).expect("out"));
        let theirs = other.buffer_zeroed::<u32>(8).expect("theirs");
        let mut commands = gpu.commands();

        let reduce = Reduce::<u32>::new(&gpu).expect("reduce");
        for n in [4u64, 8, 300_000] {
            let big = gpu.buffer_zeroed::<u32>(n).expect("big");
            let e = reduce.record(&mut commands, ReduceArgs { input: &big, output: &big.slice(..1).expect("slice"), op: Op::Sum.into() });
            one_buffer(e, "reduce", &["`output`", "another part of the input's wgpu buffer"]);
        }
        one_buffer(reduce.record(&mut commands, ReduceArgs { input: &x, output: &x, op: Op::Sum.into() }), "reduce", &["the input buffer itself"]);
        wrong_gpu(reduce.record(&mut commands, ReduceArgs { input: &x, output: &theirs, op: Op::Sum.into() }), "reduce: the output buffer");

        let hist = Histogram::new(&gpu).expect("histogram");
        one_buffer(hist.record(&mut commands, HistogramArgs { input: &x, counts: &x }), "histogram", &["`counts`"]);
        one_buffer(hist.record(&mut commands, HistogramArgs { input: &x, counts: &x.view_as::<u32>() }), "histogram", &["`counts`"]);
        wrong_gpu(hist.record(&mut commands, HistogramArgs { input: &x, counts: &theirs }), "histogram: the counts buffer");

        let compact = Compact::new(&gpu).expect("compact");
        let flags = gpu.buffer_from(&[1u32, 0, 1, 0, 1, 0, 1, 0]).expect("flags");
        let count = CompactCount::new(&gpu).expect("count");
        let as_count = CompactCount { buffer: x.clone() };
        one_buffer(compact.record(&mut commands, CompactArgs { values: &x, keep: Keep::Flags(&flags), output: &x, count: &count, next_workgroup: 0 }), "compact", &["`output`"]);
        one_buffer(compact.record(&mut commands, CompactArgs { values: &x, keep: Keep::Flags(&flags), output: &flags, count: &count, next_workgroup: 0 }), "compact", &["`output`", "flags"]);
        one_buffer(compact.record(&mut commands, CompactArgs { values: &x, keep: Keep::Flags(&flags), output: &out, count: &as_count, next_workgroup: 0 }), "compact", &["`count`"]);
        wrong_gpu(compact.record(&mut commands, CompactArgs { values: &x, keep: Keep::Flags(&flags), output: &theirs, count: &count, next_workgroup: 0 }), "compact: the output buffer");
        // The values as their own flags are only read: allowed.
        compact.record(&mut commands, CompactArgs { values: &x, keep: Keep::Flags(&x), output: &out, count: &count, next_workgroup: 0 }).expect("values as flags");

        let seg = Segmented::<u32>::new(&gpu).expect("segmented");
        let (unique, reduced) = (gpu.buffer_zeroed::<u32>(8).expect("unique"), gpu.buffer_zeroed::<u32>(8).expect("reduced"));
        let by_key = |keys: &Buffer<u32>, values: &Buffer<u32>, unique: &Buffer<u32>, reduced: &Buffer<u32>, count: &CompactCount| seg.record(&mut gpu.commands(), ReduceByKeyArgs { keys, values, unique_keys: unique, reduced, count, op: Op::Sum });
        one_buffer(by_key(&x, &flags, &x, &reduced, &count), "reduce by key", &["`unique keys`"]);
        one_buffer(by_key(&x, &flags, &unique, &flags, &count), "reduce by key", &["`reduced`"]);
        one_buffer(by_key(&x, &flags, &unique, &reduced, &as_count), "reduce by key", &["`count`"]);
        one_buffer(by_key(&x, &flags, &unique, &unique, &count), "reduce by key", &["`reduced`"]);
        wrong_gpu(by_key(&x, &flags, &unique, &theirs, &count), "reduce by key: the reduced buffer");
        one_buffer(seg.record(&mut commands, SegmentedScanArgs { values: &x, heads: &flags, output: &flags, op: Op::Sum, inclusive: true }), "segmented scan", &["`output`", "heads"]);
        wrong_gpu(seg.record(&mut commands, SegmentedScanArgs { values: &theirs, heads: &flags, output: &out, op: Op::Sum, inclusive: true }), "segmented scan: the values buffer");
        // The values as their own heads are only read: allowed.
        seg.record(&mut commands, SegmentedScanArgs { values: &x, heads: &x, output: &reduced, op: Op::Sum, inclusive: true }).expect("values as heads");

        // Only the two allowed calls were recorded: the inputs are intact.
        commands.submit().expect("submit").wait().await.expect("wait");
        assert_eq!(x.read().await.expect("x"), data);
        assert_eq!(flags.read().await.expect("flags"), [1, 0, 1, 0, 1, 0, 1, 0]);
        assert_eq!(count.read().await.expect("count"), 7, "the compaction of the values by themselves");
    }
}

shoal_conformance::async_test! {
    /// A tiling of few keys per work group makes the 8-bit sort's counters per invocation 256
    /// bytes per key: on a device whose bindings hold 1 MiB, 4,128 keys of 16 KB need just over
    /// it. That is `InvalidParameter` naming the scratch and the tiling, not a `BindingTooLarge`
    /// whose remedy is a smaller input; the default tiling sorts the same keys. (WebGPU gives no
    /// device less than its default, 128 MiB: there the keys are 128 times as many.)
    async fn scratch_past_a_binding_is_named_with_the_tiling() {
        let limits = Gpu::new().await.expect("device").device().limits();
        let limits = shoal::wgpu::Limits { max_storage_buffer_binding_size: 1 << 20, ..limits };
        let options = shoal::GpuOptions { limits: Some(limits), ..Default::default() };
        let gpu = Gpu::with_options(options).await.expect("a device of 1 MiB bindings");
        let tiling = Tiling { per_invocation: 4, one_subgroup: false, workgroup: Some(8) };
        let few = SortTiling { tiling, digit_bits: 8, counters: SortCounters::Shared };
        let limit = gpu.limits().max_storage_buffer_binding_size;
        let n = u32::try_from(limit / 256 + 32).expect("keys");
        let keys: Vec<u32> = (0..n).rev().collect();
        let buffer = gpu.buffer_from(&keys).expect("keys");
        let e = RadixSort::<u32>::with_tiling(&gpu, few, SortParams::default()).expect("sort").run(SortArgs { keys: &buffer }).map(|_| ()).expect_err("counters past a binding");
        assert!(matches!(e, Error::InvalidParameter { .. }), "{e}");
        for part in ["counts per invocation", &format!("{limit} bytes"), "tiling"] {
            assert!(e.to_string().contains(part), "`{e}` should name `{part}`");
        }
        RadixSort::<u32>::new(&gpu, SortParams::default()).expect("sort").run(SortArgs { keys: &buffer }).expect("the default tiling");
        let mut want = keys;
        want.sort_unstable();
        assert_eq!(buffer.read().await.expect("read"), want);
    }
}

shoal_conformance::async_test! {
    /// A slice the device cannot bind (a byte offset that is not a multiple of
    /// `Limits::slice_alignment`) given to a call of several dispatches is `InvalidParameter`
    /// naming the call and the buffer, before anything is recorded: a partition into the halves
    /// of a buffer whose second half starts at byte 4,000 once recorded the kept side and its
    /// count's clear, then failed at the rejected side's dispatch; run lengths, the histogram and
    /// a compaction likewise cleared their counts first.
    async fn slices_the_device_cannot_bind_are_refused_before_anything_is_recorded() {
        let gpu = Gpu::new().await.expect("device");
        let n = 1000u64;
        let values = gpu.buffer_from(&random_u32(3, n, 20)).expect("values");
        let out = gpu.buffer_zeroed::<u32>(2 * n).expect("out");
        let sentinel = [7u32; 8];
        let counts = gpu.buffer_from(&sentinel).expect("counts");
        let count = |range: std::ops::Range<u64>| CompactCount { buffer: counts.slice(range).expect("count slice") };
        let refused = |result: shoal::Result<()>, kernel: &str, buffer: &str| {
            let e = result.expect_err(kernel);
            let text = e.to_string();
            assert!(matches!(e, Error::InvalidParameter { .. }), "{kernel}: {e}");
            assert!(text.contains(kernel) && text.contains(buffer) && text.contains("slice_alignment"), "`{text}` should name {kernel} and {buffer}");
        };
        let mut commands = gpu.commands();
        let compact = Compact::new(&gpu).expect("compact");
        let below = compact.partition("x < 10u").expect("predicate");
        let halves = (&out.slice(..n).expect("kept"), &out.slice(n..).expect("rejected"));
        let (whole, other) = (CompactCount::new(&gpu).expect("count"), CompactCount::new(&gpu).expect("count"));
        let args = PartitionArgs { values: &values, partition: &below, kept: halves.0, rejected: halves.1, kept_count: &count(0..4), rejected_count: &other, next_workgroup: 0 };
        refused(compact.record(&mut commands, args), "partition", "rejected");
        let rejected = gpu.buffer_zeroed::<u32>(n).expect("rejected");
        let (kept, separate) = (&out.slice(..n).expect("kept"), &rejected);
        refused(compact.record(&mut commands, PartitionArgs { values: &values, partition: &below, kept, rejected: separate, kept_count: &count(0..4), rejected_count: &count(4..8), next_workgroup: 0 }), "partition", "rejected count");
        let seg = Segmented::<u32>::new(&gpu).expect("segmented");
        let lengths = out.slice(1..n + 1).expect("lengths");
        refused(seg.record(&mut commands, RunLengthsArgs { keys: &values, unique_keys: &gpu.buffer_zeroed::<u32>(n).expect("unique"), lengths: &lengths, count: &count(0..4) }), "run lengths", "lengths");
        let hist = Histogram::new(&gpu).expect("histogram");
        refused(hist.record(&mut commands, HistogramArgs { input: &values, counts: &out.slice(1..257).expect("bins") }), "histogram", "counts");
        refused(compact.record(&mut commands, CompactArgs { values: &values.slice(1..).expect("input"), keep: Keep::Flags(&values), output: &out, count: &whole, next_workgroup: 0 }), "compact", "values");
        // Nothing was recorded: the counts keep their sentinel, the output its zeros.
        commands.submit().expect("submit").wait().await.expect("wait");
        assert_eq!(counts.read().await.expect("counts"), sentinel);
        assert!(out.read().await.expect("out").iter().all(|&x| x == 0), "an output was written");
    }
}
