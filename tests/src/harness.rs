//! One device shared by the tests of a run (the backend comes from `SHOAL_BACKEND`), and a
//! runner for async test bodies. Other crates' tests (the kernels') use it too.

use std::sync::OnceLock;

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
pub fn run<F: std::future::Future<Output = ()>>(body: impl FnOnce(Gpu) -> F) {
    pollster::block_on(body(gpu()))
}
