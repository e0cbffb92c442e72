//! Memory the device bounds: buffers larger than one binding may see are a typed error naming
//! the limit, the kernel and the binding; the readback staging pool stays within its byte cap.

use shoal::{Error, Gpu};

use crate::harness::report;

const SUM: &str = "
@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> total: array<u32>;
@compute @workgroup_size(1)
fn sum() { total[0] = values[0]; }";

/// A device of the test adapter whose storage bindings see at most `bytes`.
async fn with_storage_binding_limit(bytes: u64) -> Gpu {
    let probe = Gpu::new().await.expect("device");
    // A browser adapter gives one device only: ask the instance for a fresh one there.
    #[cfg(target_arch = "wasm32")]
    let adapter = probe
        .instance()
        .expect("Shoal's instance")
        .request_adapter(&Default::default())
        .await
        .expect("a second adapter");
    #[cfg(not(target_arch = "wasm32"))]
    let adapter = probe.adapter().expect("an adapter Shoal chose").clone();
    let required_limits = shoal::wgpu::Limits {
        max_storage_buffer_binding_size: bytes,
        ..adapter.limits()
    };
    let (device, queue) = adapter
        .request_device(&shoal::wgpu::DeviceDescriptor {
            label: Some("small bindings"),
            required_limits,
            ..Default::default()
        })
        .await
        .expect("a device with a lower limit");
    Gpu::from_wgpu(&adapter, device, queue)
}

crate::async_test! {
    async fn a_buffer_larger_than_the_storage_binding_limit_is_a_typed_error() {
    let gpu = with_storage_binding_limit(1024).await;
    let limit = gpu.limits().max_storage_buffer_binding_size;
    if limit > 1 << 16 {
        // Browsers raise a limit asked below the default back to the default.
        report(&format!("skipped: the device kept max_storage_buffer_binding_size = {limit}"));
        return;
    }
    let k = gpu.kernel(shoal::Source::new("sum.wgsl", SUM)).expect("kernel");
    let total = gpu.buffer_zeroed::<u32>(1).expect("total");
    let fits = gpu.buffer_from(&vec![7u32; (limit / 4) as usize]).expect("at the limit");
    k.bind("values", &fits).bind("total", &total).groups([1, 1, 1]).run().expect("at the limit binds");
    assert_eq!(total.read().await.expect("read"), [7]);
    let large = gpu.buffer_zeroed::<u32>(limit / 4 + 1).expect("a buffer may exceed a binding");
    let e = k.bind("values", &large).bind("total", &total).groups([1, 1, 1]).run().expect_err("too large");
    assert!(matches!(e, Error::BindingTooLarge { limit: l, bytes, .. } if l == limit && bytes == limit + 4), "{e}");
    let message = e.to_string();
    for part in ["sum.wgsl:sum", "`values`", "max_storage_buffer_binding_size", &limit.to_string()] {
        assert!(message.contains(part), "`{message}` should name `{part}`");
    }
    }
}

crate::async_test! {
    /// Its own device: the pool is per `Gpu`, and other tests read on the shared one.
    async fn the_staging_pool_stays_within_its_byte_cap_and_trims() {
    let gpu = Gpu::new().await.expect("device");
    assert_eq!(gpu.staging_cap(), shoal::DEFAULT_STAGING_CAP);
    assert_eq!(shoal::DEFAULT_STAGING_CAP, 256 << 20);
    let big = gpu.buffer_from(&vec![3u32; 1 << 18]).expect("1 MiB");
    assert!(big.read().await.expect("read").iter().all(|&v| v == 3));
    assert!(gpu.staging_bytes() >= 1 << 20, "kept for the next read");

    gpu.set_staging_cap(64 << 10);
    assert_eq!(gpu.staging_bytes(), 0, "lowering the cap trims at once");
    // A read larger than the cap still works; its staging buffer is not kept.
    assert!(big.read().await.expect("read above the cap").iter().all(|&v| v == 3));
    assert_eq!(gpu.staging_bytes(), 0);

    let sizes = [1u64 << 10, 4 << 10, 16 << 10, 32 << 10, 8 << 10, 30 << 10];
    let small: Vec<_> = sizes
        .iter()
        .map(|&bytes| gpu.buffer_from(&vec![1u32; (bytes / 4) as usize]).expect("small"))
        .collect();
    for round in 0..3 {
        for b in &small {
            assert!(b.read().await.expect("read").iter().all(|&v| v == 1));
            let kept = gpu.staging_bytes();
            assert!(kept <= 64 << 10, "round {round}: {kept} bytes kept above the 64 KiB cap");
        }
    }
    assert!(gpu.staging_bytes() > 0, "buffers under the cap are reused");
    gpu.set_staging_cap(0);
    assert_eq!(gpu.staging_bytes(), 0);
    }
}
