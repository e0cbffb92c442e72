//! One device shared by the tests of a test binary, and the [`gpu_test!`](crate::gpu_test) and
//! [`async_test!`](crate::async_test) macros that turn an async test body into a test. Other
//! crates' tests (the kernels') use them too, so every suite is written once for every adapter:
//! natively (the backend comes from `SHOAL_BACKEND`) and in the browser (WebGPU, through
//! wasm-bindgen-test).

pub use shoal::Gpu;

/// Re-exported so the macros' expansion finds wasm-bindgen-test through this crate: a crate
/// whose tests use [`gpu_test!`](crate::gpu_test) needs no dependency on it of its own.
#[cfg(target_arch = "wasm32")]
pub use wasm_bindgen_test;

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::sync::OnceLock;

    use shoal::Gpu;

    /// The device of this test binary, opened once (tests run on parallel threads).
    pub fn gpu() -> Gpu {
        static GPU: OnceLock<Gpu> = OnceLock::new();
        GPU.get_or_init(|| {
            let gpu = Gpu::blocking().unwrap_or_else(|e| panic!("no device for the tests: {e}"));
            eprintln!("shoal tests on {}", gpu.adapter_details());
            gpu
        })
        .clone()
    }

    /// Runs an async test body on the shared device. Test threads share it; on GL, Shoal's
    /// turn (`wait.rs` in `shoal`) keeps them from waiting on wgpu's context lock.
    pub fn run<F: std::future::Future<Output = ()>>(body: impl FnOnce(Gpu) -> F) {
        pollster::block_on(body(gpu()))
    }

    /// Runs an async test body that makes its own device (or none).
    pub fn run_alone<F: std::future::Future<Output = ()>>(body: impl FnOnce() -> F) {
        pollster::block_on(body())
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub use native::{gpu, run, run_alone};

#[cfg(target_arch = "wasm32")]
mod web {
    use std::cell::RefCell;

    use shoal::Gpu;

    thread_local! {
        // wasm has one thread and wgpu's browser objects are not `Sync`: a thread-local is the
        // per-binary cell. wasm-bindgen-test runs one test at a time, so two tests never race
        // to open the device.
        static GPU: RefCell<Option<Gpu>> = const { RefCell::new(None) };
    }

    /// The browser's WebGPU device for this test binary, requested by the first test that
    /// needs it (requesting one is asynchronous in the browser, so it cannot happen earlier).
    pub async fn gpu() -> Gpu {
        if let Some(gpu) = GPU.with(|g| g.borrow().clone()) {
            return gpu;
        }
        let gpu = Gpu::new()
            .await
            .unwrap_or_else(|e| panic!("no WebGPU device for the tests: {e}"));
        // The runner shows the console on failure, and always with `--nocapture`.
        wasm_bindgen_test::console_log!("shoal tests on {}", gpu.adapter_details());
        GPU.with(|g| *g.borrow_mut() = Some(gpu.clone()));
        gpu
    }
}

#[cfg(target_arch = "wasm32")]
pub use web::gpu;

/// Prints a line of a test's report: to stderr natively, to the browser's console in wasm32
/// (where stderr goes nowhere); both show with `--nocapture` or when the test fails.
pub fn report(line: &str) {
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("{line}");
    #[cfg(target_arch = "wasm32")]
    wasm_bindgen_test::console_log!("{line}");
}

/// Declares GPU tests whose bodies are async and get the device of the test binary:
///
/// ```ignore
/// shoal_conformance::gpu_test! {
///     /// Doc comments and attributes are kept.
///     async fn doubles(gpu) {
///         let b = gpu.buffer_from(&[1u32]).expect("buffer");
///         assert_eq!(b.read().await.expect("read"), [1]);
///     }
/// }
/// ```
///
/// Natively each becomes a `#[test]` that blocks on the body. On wasm32 each becomes an async
/// `#[wasm_bindgen_test]` that awaits the browser's device: so a body must never block (no
/// `read_blocking`, `pollster`, threads or `std::time::Instant`: `.await` the async API).
#[macro_export]
macro_rules! gpu_test {
    ($($(#[$meta:meta])* async fn $name:ident($gpu:ident) $body:block)+) => {$(
        $(#[$meta])*
        #[cfg(not(target_arch = "wasm32"))]
        #[test]
        fn $name() {
            $crate::harness::run(|$gpu: $crate::harness::Gpu| async move $body)
        }

        $(#[$meta])*
        #[cfg(target_arch = "wasm32")]
        #[$crate::harness::wasm_bindgen_test::wasm_bindgen_test(crate = $crate::harness::wasm_bindgen_test)]
        async fn $name() {
            let $gpu: $crate::harness::Gpu = $crate::harness::gpu().await;
            $body
        }
    )+};
}

/// Declares async tests that need no shared device (they open their own, or none), natively
/// and in the browser, like [`gpu_test!`](crate::gpu_test):
///
/// ```ignore
/// shoal_conformance::async_test! {
///     async fn opens_its_own_device() {
///         let gpu = shoal::Gpu::new().await.expect("device");
///         assert!(gpu.limits().max_compute_work_group_invocations >= 256);
///     }
/// }
/// ```
#[macro_export]
macro_rules! async_test {
    ($($(#[$meta:meta])* async fn $name:ident() $body:block)+) => {$(
        $(#[$meta])*
        #[cfg(not(target_arch = "wasm32"))]
        #[test]
        fn $name() {
            $crate::harness::run_alone(|| async move $body)
        }

        $(#[$meta])*
        #[cfg(target_arch = "wasm32")]
        #[$crate::harness::wasm_bindgen_test::wasm_bindgen_test(crate = $crate::harness::wasm_bindgen_test)]
        async fn $name() $body
    )+};
}
