//! Property tests over Shoal's public entry points (issue 15): random sizes (0, the device's
//! limits and their neighbours, values near `u32::MAX` and `u64::MAX`), random and non-finite
//! parameters, and mutated WGSL. Each input must give a correct result or a typed error, never
//! a panic.
//!
//! `cargo xtask test` runs them with a fixed seed and [`DEFAULT_CASES`] inputs each;
//! `cargo xtask fuzz [--minutes N]` runs them for a while with random seeds and reports how
//! many inputs were tried. The knobs are environment variables:
//!
//! - `SHOAL_FUZZ_CASES`: inputs per run of a property (default [`DEFAULT_CASES`]);
//! - `SHOAL_FUZZ_SEED`: the first run's seed (default [`DEFAULT_SEED`]);
//! - `SHOAL_FUZZ_SECONDS`: when set, each property runs again with fresh random seeds until
//!   that many seconds have passed, and prints `fuzz: <property>: <n> inputs`;
//! - `SHOAL_FUZZ_SHOW`: when set, the WGSL property prints what each mutant gave.
//!
//! The properties run on a device with small limits ([`small_gpu`]), so the limits' boundaries
//! are reached with buffers and images of a few hundred KiB.

mod sizes;
mod wgsl;

use std::sync::{Mutex, OnceLock};

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngSeed, TestCaseResult, TestRunner};
use shoal::Gpu;

/// Inputs per property in `cargo xtask test`.
pub(crate) const DEFAULT_CASES: u32 = 48;
/// The seed of `cargo xtask test`'s run (the number).
pub(crate) const DEFAULT_SEED: u64 = 15;
/// [`small_gpu`]'s `max_buffer_size`.
pub(crate) const SMALL_BUFFER: u64 = 1 << 20;
/// [`small_gpu`]'s `max_storage_buffer_binding_size`.
pub(crate) const SMALL_BINDING: u64 = 256 << 10;
/// [`small_gpu`]'s `max_texture_dimension_2d`.
pub(crate) const SMALL_TEXTURE: u32 = 256;

fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok()?.parse().ok()
}

/// The device of the property tests: the test adapter with `max_buffer_size`,
/// `max_storage_buffer_binding_size` and `max_texture_dimension_2d` lowered, so that every
/// size a property draws, up to and past each limit, is cheap to make.
pub(crate) fn small_gpu() -> Gpu {
    static GPU: OnceLock<Gpu> = OnceLock::new();
    GPU.get_or_init(|| {
        let probe = Gpu::blocking().unwrap_or_else(|e| panic!("no device for the properties: {e}"));
        let adapter = probe.adapter().expect("an adapter Shoal chose").clone();
        let own = adapter.limits();
        let required_limits = shoal::wgpu::Limits {
            max_buffer_size: SMALL_BUFFER.min(own.max_buffer_size),
            max_storage_buffer_binding_size: SMALL_BINDING.min(own.max_storage_buffer_binding_size),
            max_uniform_buffer_binding_size: (64 << 10).min(own.max_uniform_buffer_binding_size),
            max_texture_dimension_2d: SMALL_TEXTURE.min(own.max_texture_dimension_2d),
            ..own
        };
        let (device, queue) =
            pollster::block_on(adapter.request_device(&shoal::wgpu::DeviceDescriptor {
                label: Some("shoal properties"),
                required_limits,
                ..Default::default()
            }))
            .unwrap_or_else(|e| panic!("a device with small limits: {e}"));
        Gpu::from_wgpu(&adapter, device, queue)
    })
    .clone()
}

/// Runs `test` over `strategy`: once with the fixed seed, then, with `SHOAL_FUZZ_SECONDS` set,
/// with random seeds until the time is up. A failing input is shrunk and reported with the seed.
///
/// The properties take turns (one lock): on GL every device shares one context lock, which
/// wgpu-hal gives up on after six seconds.
pub(crate) fn check<S: Strategy>(name: &str, strategy: S, test: impl Fn(S::Value) -> TestCaseResult)
where
    S::Value: std::fmt::Debug,
{
    static TURN: Mutex<()> = Mutex::new(());
    let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
    let cases = env("SHOAL_FUZZ_CASES").unwrap_or(DEFAULT_CASES);
    let seconds: Option<f64> = env("SHOAL_FUZZ_SECONDS");
    let started = std::time::Instant::now();
    let mut seed = env("SHOAL_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let mut tried = 0u64;
    loop {
        let config = Config {
            cases,
            rng_seed: RngSeed::Fixed(seed),
            failure_persistence: None,
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        if let Err(e) = runner.run(&strategy, &test) {
            panic!("property `{name}` failed with SHOAL_FUZZ_SEED={seed}: {e}");
        }
        tried += u64::from(cases);
        match seconds {
            Some(s) if started.elapsed().as_secs_f64() < s => {
                seed = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos() as u64)
                    .unwrap_or(seed.wrapping_add(1))
                    ^ tried;
            }
            _ => break,
        }
    }
    if seconds.is_some() {
        println!("fuzz: {name}: {tried} inputs");
    }
}

/// Fails the case with `message` unless `ok`.
pub(crate) fn ensure(ok: bool, message: impl FnOnce() -> String) -> TestCaseResult {
    if ok {
        Ok(())
    } else {
        Err(proptest::test_runner::TestCaseError::fail(message()))
    }
}
