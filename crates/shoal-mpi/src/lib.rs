//! # Shoal's spread primitives across processes, through MPI
//!
//! [`Mpi`] implements `shoal_scale::Transport` over an MPI communicator: `all_gather` is
//! `MPI_Allgatherv`, `all_to_all` `MPI_Alltoallv`, the sums `MPI_Allreduce` and `MPI_Exscan`
//! with `MPI_SUM`, and the status exchange an `MPI_Allgatherv` of each rank's error. The
//! primitives are `shoal-scale`'s member functions (`sort_part`, `scan_part`, …), run once per
//! rank, each rank holding one part on one device ([`Mpi::gpu`]: the node-local rank picks the
//! adapter).
//!
//! MPI initialises once per process, so this crate's checks are examples run under `mpirun`
//! (`cargo xtask test` runs them with 2 and 4 ranks). A rank that dies is MPI's to end:
//! `mpirun` ends the job.
//!
//! The example below needs `mpirun`, so it is compiled, not run, as documentation.
//!
//! ```no_run
//! use shoal_kernels::SortOrder;
//! use shoal_scale::{Member, Part, Transport, sort_part};
//! fn main() -> Result<(), shoal::Error> {
//!     let universe = mpi::initialize().expect("MPI initialises once");
//!     let comm = shoal_mpi::Mpi::new(universe.world());
//!     let member = Member::new(comm.gpu()?);             // one device per rank
//!     let mine: Vec<u32> = (0..1000).map(|i| (i * 7919 + comm.rank() as u32) % 1000).collect();
//!     let part = Part::new(member.gpu().buffer_from(&mine)?, 1000 * comm.rank() as u64);
//!     let sorted = sort_part(&comm, &member, part, SortOrder::Ascending)?;
//!     println!("rank {}: keys {:?} of the whole", comm.rank(), sorted.range());
//!     Ok(())
//! }
//! ```

mod codec;

use mpi::Count;
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::*;
use shoal::{BackendChoice, Error, Gpu, Result};
use shoal_scale::Transport;

/// An MPI communicator as a `shoal_scale::Transport`: every rank of it a member.
pub struct Mpi {
    comm: SimpleCommunicator,
}

impl std::fmt::Debug for Mpi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mpi")
            .field("rank", &self.comm.rank())
            .field("size", &self.comm.size())
            .finish()
    }
}

impl Mpi {
    /// The transport over `comm` (usually `universe.world()`).
    pub fn new(comm: SimpleCommunicator) -> Self {
        Self { comm }
    }

    /// This rank's device: the adapters of `SHOAL_BACKEND` (or every backend's), ranked as
    /// `shoal::Gpu::new` ranks them, and the one at this rank's index among the ranks of its
    /// node (`MPI_Comm_split_type` with `MPI_COMM_TYPE_SHARED`), round robin when there are
    /// more ranks than adapters. Agreed: a rank without an adapter makes it every rank's
    /// [`Error::NoAdapter`].
    pub fn gpu(&self) -> Result<Gpu> {
        let node = self.comm.split_shared(self.comm.rank());
        let local = node.rank() as usize;
        let opened = (|| {
            let choice = BackendChoice::from_env()?;
            let mut desc = shoal::wgpu::InstanceDescriptor::new_without_display_handle_from_env();
            desc.backends = choice.backends();
            let instance = shoal::wgpu::Instance::new(desc);
            let adapters = pollster::block_on(instance.enumerate_adapters(choice.backends()));
            if adapters.is_empty() {
                return Err(Error::NoAdapter {
                    requested: format!("{} on MPI rank {}", choice.name(), self.comm.rank()),
                    found: Vec::new(),
                });
            }
            let count = adapters.len();
            let adapter =
                adapters
                    .into_iter()
                    .nth(local % count)
                    .ok_or_else(|| Error::NoAdapter {
                        requested: choice.name().into(),
                        found: Vec::new(),
                    })?;
            pollster::block_on(Gpu::from_adapter(Some(instance), adapter))
        })();
        let (gpu, status) = match opened {
            Ok(g) => (Some(g), Ok(())),
            Err(e) => (None, Err(e)),
        };
        self.agree(status)?;
        gpu.ok_or_else(|| Error::Readback("MPI: this rank's device was lost".into()))
    }
}

/// Counts and displacements of a varcount collective, from each rank's byte count.
fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |at, &c| {
            let here = *at;
            *at += c;
            Some(here)
        })
        .collect()
}

/// `message` after one byte. Every message MPI moves here is at least that byte long: an empty
/// `Vec`'s address is 1, which OpenMPI reads as `MPI_IN_PLACE`.
fn framed(message: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(message.len() + 1);
    out.push(0);
    out.extend_from_slice(message);
    out
}

/// Splits `all` into the [`framed`] messages `counts` long, each without its first byte.
fn split(all: &[u8], counts: &[Count]) -> Vec<Vec<u8>> {
    let mut at = 0usize;
    counts
        .iter()
        .map(|&c| {
            let m = all[at + 1..at + c as usize].to_vec();
            at += c as usize;
            m
        })
        .collect()
}

impl Transport for Mpi {
    fn rank(&self) -> usize {
        self.comm.rank() as usize
    }

    fn ranks(&self) -> usize {
        self.comm.size() as usize
    }

    fn all_gather(&self, mine: Vec<u8>) -> Vec<Vec<u8>> {
        let mine = framed(&mine);
        let n = self.ranks();
        let mut counts = vec![0 as Count; n];
        self.comm
            .all_gather_into(&(mine.len() as Count), &mut counts[..]);
        let displs = displacements(&counts);
        let mut all = vec![0u8; counts.iter().map(|&c| c as usize).sum()];
        {
            let mut partition = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
            self.comm
                .all_gather_varcount_into(&mine[..], &mut partition);
        }
        split(&all, &counts)
    }

    fn all_to_all(&self, sends: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        let sends: Vec<Vec<u8>> = sends.iter().map(|s| framed(s)).collect();
        let send_counts: Vec<Count> = sends.iter().map(|s| s.len() as Count).collect();
        let mut recv_counts = vec![0 as Count; self.ranks()];
        self.comm
            .all_to_all_into(&send_counts[..], &mut recv_counts[..]);
        let flat: Vec<u8> = sends.concat();
        let send_displs = displacements(&send_counts);
        let recv_displs = displacements(&recv_counts);
        let mut all = vec![0u8; recv_counts.iter().map(|&c| c as usize).sum()];
        {
            let partition = Partition::new(&flat[..], &send_counts[..], &send_displs[..]);
            let mut into = PartitionMut::new(&mut all[..], &recv_counts[..], &recv_displs[..]);
            self.comm.all_to_all_varcount_into(&partition, &mut into);
        }
        split(&all, &recv_counts)
    }

    fn agree(&self, status: Result<()>) -> Result<()> {
        let mine = match &status {
            Ok(()) => Vec::new(),
            Err(e) => codec::encode(e),
        };
        // Every rank decodes the same bytes, the failing rank too: the same error everywhere.
        match self.all_gather(mine).iter().find(|b| !b.is_empty()) {
            Some(bytes) => Err(codec::decode(bytes)),
            None => Ok(()),
        }
    }

    fn all_reduce_sum(&self, values: &[u64]) -> Vec<u64> {
        let mut sums = vec![0u64; values.len()];
        self.comm
            .all_reduce_into(values, &mut sums[..], SystemOperation::sum());
        sums
    }

    fn exscan_sum(&self, value: u64) -> u64 {
        let mut before = 0u64;
        self.comm
            .exclusive_scan_into(&value, &mut before, SystemOperation::sum());
        // MPI leaves rank 0's result undefined.
        if self.comm.rank() == 0 { 0 } else { before }
    }
}
