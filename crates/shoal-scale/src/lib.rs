//! # Shoal over several devices
//!
//! A [`Group`] holds several [`shoal::Gpu`]s in one process (every adapter of some backends, or
//! one adapter opened several times); a [`Spread`] is a buffer split over them, each [`Part`] a
//! [`shoal::Buffer`] on its device with its place in the whole. The primitives — reduce, scan,
//! sort of keys and pairs, histogram — run on every part at once and exchange only what they
//! must: partial results, samples, and for a sort each element once.
//!
//! Each primitive is written once over [`Transport`], a handful of collectives (gather to all,
//! all to all, sums, and the status exchange that makes every member return the same error).
//! [`Local`] implements it in one process, through host memory; an MPI communicator implements
//! it across processes (the `shoal-mpi` crate), running the same member functions
//! ([`sort_part`], [`scan_part`], …) once per rank.
//!
//! ```
//! # fn main() -> Result<(), shoal::Error> {
//! use shoal_kernels::{Op, SortOrder};
//! let group = shoal_scale::Group::same_adapter(2, Default::default())?;
//! let data: Vec<u32> = (0..1000).map(|i| i * 7919 % 1000).collect();
//! let spread = group.split_even(&data)?;
//! assert_eq!(group.reduce(&spread, Op::Sum)?, 499_500);
//! let sorted = group.sort(spread, SortOrder::Ascending)?;
//! assert_eq!(sorted.read()?, (0..1000).collect::<Vec<u32>>());
//! # Ok(()) }
//! ```
//!
//! docs/scale.md explains the design and what it costs.

mod group;
mod histogram;
mod keys;
mod local;
mod member;
mod meter;
mod ops;
mod part;
mod reduce;
mod scan;
mod sort;
mod transport;

pub use group::{Group, even};
pub use histogram::histogram_part;
pub use keys::SpreadKey;
pub use local::Local;
pub use member::Member;
pub use meter::Meter;
pub use part::{Part, Spread};
pub use reduce::reduce_part;
pub use scan::{ScanKind, scan_part};
pub use sort::{sort_pairs_part, sort_part, sort_part_measured};
pub use transport::Transport;
