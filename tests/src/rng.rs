//! The suites' seeded generator: the core's [`shoal::SplitMix64`], under the name the suites and
//! the kernels' tests use.

pub use shoal::SplitMix64 as Rng;
