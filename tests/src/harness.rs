//! One device shared by the tests of a run (the backend comes from `SHOAL_BACKEND`), and the
//! [`gpu_test!`](crate::gpu_test) macro that turns an async test body into a test. Other crates'
//! tests (the kernels') use it too, so every suite is written once for every adapter.

use std::sync::{Mutex, OnceLock};

use shoal::Gpu;

/// The device of this test run, opened once.
pub fn gpu() -> Gpu {
    static GPU: OnceLock<Gpu> = OnceLock::new();
    GPU.get_or_init(|| {
        let gpu = Gpu::blocking().unwrap_or_else(|e| panic!("no device for the tests: {e}"));
        eprintln!("shoal tests on {}", gpu.adapter_details());
        gpu
    })
    .clone()
}

/// Runs an async test body on the shared device.
///
/// On GL every wgpu call goes through one context lock, and wgpu-hal panics when a thread waits
/// more than six seconds for it — which a long llvmpipe dispatch on another test thread can
/// cause. GL gains nothing from parallel test threads (the lock serialises them anyway), so there
/// the bodies take turns.
pub fn run<F: std::future::Future<Output = ()>>(body: impl FnOnce(Gpu) -> F) {
    static GL_TURN: Mutex<()> = Mutex::new(());
    let gpu = gpu();
    let _turn = (gpu.adapter_details().backend == shoal::wgpu::Backend::Gl)
        .then(|| GL_TURN.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
    pollster::block_on(body(gpu))
}

/// Declares GPU tests whose bodies are async and get the run's device:
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
/// Natively each becomes a `#[test]` that blocks on the body. The bodies never block themselves
/// (reads are `.await`ed), so the same code can run where nothing may block.
#[macro_export]
macro_rules! gpu_test {
    ($($(#[$meta:meta])* async fn $name:ident($gpu:ident) $body:block)+) => {$(
        $(#[$meta])*
        #[test]
        fn $name() {
            $crate::harness::run(|$gpu: ::shoal::Gpu| async move $body)
        }
    )+};
}
