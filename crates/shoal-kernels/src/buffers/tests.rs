//! Buffers of two `Gpu`s: wgpu numbers each device's buffers from the same start, so the first
//! buffer of each compares equal as a `wgpu::Buffer`; the same-buffer checks must name the wrong
//! `Gpu`, not "the same buffer".

use crate::test_support::*;
use crate::{Segmented, U64};
use shoal::Error;

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

        let sort = RadixSort::<u32>::new(&gpu).expect("sort");
        wrong_gpu(sort.run_pairs(&ours, &theirs), "radix sort: the values buffer");
        wrong_gpu(sort.run_argsort(&ours, &theirs), "radix sort: the indices buffer");
        wrong_gpu(sort.run_pairs(&theirs, &ours), "radix sort: the keys buffer");
        let wide = RadixSort::<U64>::new(&gpu).expect("sort");
        wrong_gpu(wide.run_argsort(&theirs.view_as::<U64>(), &ours), "radix sort: the keys buffer");

        let compact = Compact::new(&gpu).expect("compact");
        let split = compact.partition("x < 2u").expect("partition");
        let (values, kept) = (gpu.buffer_from(&[5u32, 0, 1, 9]).expect("values"), gpu.buffer_zeroed::<u32>(4).expect("kept"));
        let counts = (CompactCount::new(&gpu).expect("count"), CompactCount::new(&gpu).expect("count"));
        let mut commands = gpu.commands();
        wrong_gpu(compact.record_partition(&mut commands, &values, &split, (&ours, &theirs), (&counts.0, &counts.1), 0), "partition: the rejected buffer");
        wrong_gpu(compact.record_partition(&mut commands, &theirs, &split, (&ours, &kept), (&counts.0, &counts.1), 0), "partition: the values buffer");
        let their_count = CompactCount { buffer: theirs.clone() };
        wrong_gpu(compact.record_partition(&mut commands, &values, &split, (&ours, &kept), (&counts.0, &their_count), 0), "partition: the rejected count buffer");

        let seg = Segmented::<u32>::new(&gpu).expect("segmented");
        let heads = gpu.buffer_from(&[1u32, 0, 1, 0]).expect("heads");
        wrong_gpu(seg.run_scan(&ours, &heads, &theirs, Op::Sum, true), "segmented scan: the output buffer");
        wrong_gpu(seg.run_run_lengths(&ours, &kept, &theirs, &counts.0), "run lengths: the lengths buffer");
        wrong_gpu(seg.run_run_lengths(&ours, &kept, &values, &their_count), "run lengths: the count buffer");

        let scan = Scan::<u32>::new(&gpu).expect("scan");
        wrong_gpu(scan.run(&ours, &theirs, ScanSpec::inclusive(Op::Sum)), "scan: the output buffer");
        let workgroup = WorkgroupScan::<u32>::new(&gpu).expect("workgroup scan");
        wrong_gpu(workgroup.run(&ours, &theirs, Op::Sum, true), "workgroup scan: the output buffer");

        // Nothing was recorded into the batch; each device's own buffers still work.
        commands.submit().expect("submit");
        sort.run_pairs(&ours, &kept).expect("sort pairs");
        assert_eq!(ours.read().await.expect("read"), [0, 1, 2, 3]);
    }
}
