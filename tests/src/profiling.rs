//! A profiled batch times every dispatch, however many: 300 dispatches report 300 timings (one
//! query set held 256, and the rest were dropped without a word), each under its own label.

use shoal::TimingSource;

use crate::gpu_test;

gpu_test! {
    async fn a_profiled_batch_of_300_dispatches_reports_300_timings(gpu) {
    let kernel = gpu.kernel(shoal::wgsl!("../../wgsl/conformance/add_one.wgsl")).expect("kernel");
    for n in [255usize, 256, 257, 300, 513] {
        let values = gpu.buffer_zeroed::<u32>(64).expect("buffer");
        let mut commands = gpu.commands().profiled();
        for i in 0..n {
            kernel
                .bind("values", &values)
                .invocations(64)
                .label(format!("step {i}"))
                .record(&mut commands)
                .expect("dispatch");
        }
        let timings = commands.submit().expect("submit").timings().await.expect("timings");
        // Every dispatch ran, in order (`add_one` is v * 2 + 1, wrapping).
        let want = (0..n).fold(0u32, |v, _| v.wrapping_mul(2).wrapping_add(1));
        assert_eq!(values.read().await.expect("read"), vec![want; 64], "{n} dispatches");
        if !gpu.has_timestamps() {
            assert_eq!(timings.len(), 1, "one wall-clock entry for the batch");
            assert_eq!(timings[0].source, TimingSource::WallClock);
            continue;
        }
        assert_eq!(timings.len(), n, "{n} dispatches, {} timings", timings.len());
        for (i, t) in timings.iter().enumerate() {
            assert_eq!(t.label, format!("step {i}"));
            assert_eq!(t.source, TimingSource::GpuTimestamp);
            assert!(t.nanos.is_finite() && t.nanos >= 0.0, "{t}");
        }
    }
    }

    async fn an_unlabelled_dispatch_is_named_by_its_kernel(gpu) {
    let kernel = gpu.kernel(shoal::wgsl!("../../wgsl/conformance/add_one.wgsl")).expect("kernel");
    let values = gpu.buffer_zeroed::<u32>(4).expect("buffer");
    let t = kernel.bind("values", &values).invocations(4).run_timed().await.expect("timed");
    assert_eq!(t.label, kernel.name());
    let t = kernel.bind("values", &values).invocations(4).label("mine").run_timed().await.expect("timed");
    assert_eq!(t.label, "mine");
    assert_eq!(values.read().await.expect("read"), [3; 4], "0 * 2 + 1, then 1 * 2 + 1");
    }
}
