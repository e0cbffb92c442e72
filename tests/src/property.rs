//! The property tests' runner, shared by this crate's properties (`src/properties/`) and the
//! kernels' (issue 15): a fixed seed and [`DEFAULT_CASES`] inputs by default, or random seeds
//! for a while under `cargo xtask fuzz`. The knobs are environment variables:
//!
//! - `SHOAL_FUZZ_CASES`: inputs per run of a property (default [`DEFAULT_CASES`]);
//! - `SHOAL_FUZZ_SEED`: the first run's seed (default [`DEFAULT_SEED`]);
//! - `SHOAL_FUZZ_SECONDS`: when set, each property runs again with fresh random seeds until
//!   that many seconds have passed, and prints `fuzz: <property>: <n> inputs`.

use std::sync::Mutex;

pub use proptest;
use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngSeed, TestCaseResult, TestRunner};

/// Inputs per property in `cargo xtask test`.
pub const DEFAULT_CASES: u32 = 48;
/// The seed of `cargo xtask test`'s run (the number).
pub const DEFAULT_SEED: u64 = 15;

fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok()?.parse().ok()
}

/// Runs `test` over `strategy`: once with the fixed seed, then, with `SHOAL_FUZZ_SECONDS` set,
/// with random seeds until the time is up. A failing input is shrunk and reported with the seed.
///
/// The properties take turns (one lock): on GL every device shares one context lock, which
/// wgpu-hal gives up on after six seconds.
pub fn check<S: Strategy>(name: &str, strategy: S, test: impl Fn(S::Value) -> TestCaseResult)
where
    S::Value: std::fmt::Debug,
{
    check_cases(name, DEFAULT_CASES, strategy, test)
}

/// [`check`] with another default number of inputs, for properties whose inputs are slow
/// (each builds pipelines); `SHOAL_FUZZ_CASES` still overrides it.
pub fn check_cases<S: Strategy>(
    name: &str,
    default_cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> TestCaseResult,
) where
    S::Value: std::fmt::Debug,
{
    static TURN: Mutex<()> = Mutex::new(());
    let _turn = TURN.lock().unwrap_or_else(|p| p.into_inner());
    let cases = env("SHOAL_FUZZ_CASES").unwrap_or(default_cases);
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
pub fn ensure(ok: bool, message: impl FnOnce() -> String) -> TestCaseResult {
    if ok {
        Ok(())
    } else {
        Err(proptest::test_runner::TestCaseError::fail(message()))
    }
}
