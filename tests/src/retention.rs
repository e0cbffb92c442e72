//! A kernel's bind-group cache never keeps a dropped buffer: when the last handle of a buffer
//! (the buffer, its clones, its views) is dropped, the bind groups that bind it leave the cache
//! and wgpu frees the memory, while the kernel lives on. Native only: it counts wgpu's live
//! objects (`Instance::generate_report`) and, on Vulkan, the bytes its allocator holds
//! (`Device::generate_allocator_report`), on a device of its own so that other tests' objects
//! are not counted.

use shoal::{Buffer, Gpu};

/// Elements of each large buffer: 16 MiB of `u32`.
const LARGE: u64 = 4 << 20;
/// Large buffers bound and dropped, one after the other.
const ROUNDS: usize = 24;

/// Bind groups the application (here: Shoal's caches) keeps, and buffers it holds handles of.
fn live(gpu: &Gpu) -> (usize, usize) {
    let _ = gpu
        .device()
        .poll(shoal::wgpu::PollType::wait_indefinitely());
    let report = gpu
        .instance()
        .and_then(|i| i.generate_report())
        .expect("wgpu-core's report");
    let hub = report.hub_report();
    (
        hub.bind_groups.num_kept_from_user,
        hub.buffers.num_kept_from_user,
    )
}

/// Bytes the device's allocator has handed out, where it reports them (Vulkan).
fn allocated(gpu: &Gpu) -> Option<u64> {
    let _ = gpu
        .device()
        .poll(shoal::wgpu::PollType::wait_indefinitely());
    gpu.device()
        .generate_allocator_report()
        .map(|r| r.total_allocated_bytes)
}

/// Runs `add_one` (`v * 2 + 1`) over the first 64 elements of `values`.
fn add_one(kernel: &shoal::Kernel, values: &Buffer<u32>) {
    kernel
        .bind("values", values)
        .invocations(64)
        .run()
        .expect("add_one");
}

crate::async_test! {
    async fn dropped_buffers_leave_a_live_kernels_bind_group_cache() {
    let gpu = Gpu::new().await.expect("a device of this test's own");
    let kernel = gpu.kernel(shoal::wgsl!("../../wgsl/conformance/add_one.wgsl")).expect("kernel");
    let kept = gpu.buffer_from(&[1u32; 64]).expect("kept");
    add_one(&kernel, &kept);
    // The readback staging pool's buffer for the reads below, made before counting.
    assert_eq!(kept.read_range(0..2).await.expect("read"), [3, 3]);
    let (groups, buffers) = live(&gpu);
    let bytes = allocated(&gpu);

    for round in 0..ROUNDS {
        let large = gpu.buffer_zeroed::<u32>(LARGE).expect("a large buffer");
        let (clone, view) = (large.clone(), large.view_as::<u32>());
        add_one(&kernel, &large);
        if let (Some(before), Some(now)) = (bytes, allocated(&gpu)) {
            assert!(now >= before + LARGE * 4, "the allocator counts the buffer: {now} bytes");
        }
        add_one(&kernel, &view); // a view is another cache entry of the same memory
        assert_eq!(live(&gpu).0, groups + 2, "round {round}: both entries cached");
        drop(large);
        drop(view);
        assert_eq!(live(&gpu).0, groups + 2, "round {round}: a clone still holds the memory");
        assert_eq!(clone.read_range(0..2).await.expect("read"), [3, 3]);
        drop(clone);
        if let (Some(before), Some(now)) = (bytes, allocated(&gpu)) {
            assert!(
                now <= before + (1 << 20),
                "round {round}: {now} bytes allocated, {before} before the large buffers"
            );
        }
        assert_eq!(live(&gpu), (groups, buffers), "round {round}: the last handle released it");
    }

    // The kept buffer's entry survived the others coming and going (or is made again).
    add_one(&kernel, &kept);
    assert_eq!(live(&gpu), (groups, buffers), "nothing new is kept");
    assert_eq!(kept.read().await.expect("read"), [7u32; 64]);
    }
}

crate::async_test! {
    /// Dropping the last handle between recording and submitting: the recorded work keeps the
    /// buffer and its bind group (wgpu-core's encoder holds them), so it runs as recorded.
    async fn a_buffer_dropped_after_recording_still_runs() {
    let gpu = Gpu::new().await.expect("a device of this test's own");
    let kernel = gpu.kernel(shoal::wgsl!("../../wgsl/conformance/add_one.wgsl")).expect("kernel");
    let (groups, buffers) = live(&gpu);
    let out = gpu.buffer_zeroed::<u32>(64).expect("out");
    let mut commands = gpu.commands();
    {
        let temporary = gpu.buffer_from(&[5u32; 64]).expect("temporary");
        kernel.bind("values", &temporary).invocations(64).record(&mut commands).expect("record");
        commands.copy(&temporary, &out).expect("copy");
    }
    assert_eq!(live(&gpu).0, groups, "the cache let go of the dropped buffer's group");
    commands.submit().expect("submit");
    assert_eq!(out.read().await.expect("read"), [11u32; 64]);
    drop(out);
    assert_eq!(live(&gpu).0, groups);
    assert!(live(&gpu).1 <= buffers + 1, "at most the staging pool's buffer is new");
    }
}
