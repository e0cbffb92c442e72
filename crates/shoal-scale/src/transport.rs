//! [`Transport`]: the few collectives the spread primitives need, and the status exchange that
//! makes every member agree on an error before a collective step.

use shoal::{Element, Error, Result};
use shoal_kernels::{Op, Scalar};

/// How the members of a spread computation (the parts of a [`Spread`](crate::Spread), one per
/// device; or MPI ranks, one per process) exchange host memory.
///
/// Every member calls every collective, in the same order: the primitives of this crate are
/// written once over these calls (each member runs the same code on its own part), so the same
/// algorithm runs in one process ([`Local`](crate::Local), through host memory) and across
/// processes (an MPI communicator). The collectives themselves do not fail: a transport that
/// loses a member ends the job (MPI's `mpirun` does). What may fail is each member's own GPU
/// work, so before each collective step every member calls [`agree`](Transport::agree) with its
/// status, and all of them go on, or all return the same error.
pub trait Transport {
    /// This member's index, from 0.
    fn rank(&self) -> usize;
    /// How many members there are.
    fn ranks(&self) -> usize;
    /// Every member's `mine`, in rank order (MPI's Allgatherv).
    fn all_gather(&self, mine: Vec<u8>) -> Vec<Vec<u8>>;
    /// Sends `sends[q]` to member `q` (one entry per member) and returns what each member sent
    /// here, in rank order (MPI's Alltoallv).
    fn all_to_all(&self, sends: Vec<Vec<u8>>) -> Vec<Vec<u8>>;
    /// `Ok` on every member when every status is `Ok`; otherwise the error of the lowest failing
    /// rank, the same on every member.
    fn agree(&self, status: Result<()>) -> Result<()>;
    /// Runs `work`, the member's device work, in its turn: in one process, GL devices take turns
    /// (see [`Group`](crate::Group)); other transports run it at once. Never called around a
    /// collective.
    fn device_turn<R>(&self, work: impl FnOnce() -> R) -> R {
        work()
    }
    /// The element-wise sums of every member's `values` (MPI's Allreduce with `MPI_SUM`): the
    /// same length on every member.
    fn all_reduce_sum(&self, values: &[u64]) -> Vec<u64> {
        let mut sums = vec![0u64; values.len()];
        for bytes in self.all_gather(words(values)) {
            for (sum, v) in sums.iter_mut().zip(from_words(&bytes)) {
                *sum = sum.wrapping_add(v);
            }
        }
        sums
    }
    /// The sum of `value` over the members before this one (MPI's Exscan; 0 on member 0).
    fn exscan_sum(&self, value: u64) -> u64 {
        let all = self.all_gather(words(&[value]));
        all[..self.rank()]
            .iter()
            .flat_map(|b| from_words(b))
            .fold(0, u64::wrapping_add)
    }
    /// `op` over every member's `value`, folded in rank order (MPI's Allreduce with `MPI_SUM`,
    /// `MPI_MIN` or `MPI_MAX`).
    fn all_reduce<T: Scalar>(&self, value: T, op: Op) -> Result<T> {
        let all = gather_values(self, &[value])?;
        Ok(all
            .into_iter()
            .flatten()
            .fold(op.identity(), |a, b| op.apply(a, b)))
    }
}

/// Every member's `values`, in rank order, through [`Transport::all_gather`] and the element's
/// own encoding.
pub(crate) fn gather_values<T: Element, C: Transport + ?Sized>(
    comm: &C,
    values: &[T],
) -> Result<Vec<Vec<T>>> {
    let mut bytes = Vec::new();
    T::encode(values, &mut bytes)?;
    comm.all_gather(bytes)
        .iter()
        .map(|b| T::decode(b))
        .collect()
}

/// Little-endian bytes of `values`.
pub(crate) fn words(values: &[u64]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The `u64`s of little-endian `bytes`.
pub(crate) fn from_words(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks_exact(8)
        .map(|c| {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            u64::from_le_bytes(w)
        })
        .collect()
}

/// The status of a member's step, for [`Transport::agree`]: a panic-free way to keep an error
/// until every member has spoken.
pub(crate) fn first_error(statuses: impl IntoIterator<Item = Option<Error>>) -> Result<()> {
    match statuses.into_iter().flatten().next() {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// `result` once every member has agreed on its status: each member's value where all
/// succeeded, else the same error everywhere (the lowest failing rank's).
pub(crate) fn step<T, C: Transport + ?Sized>(comm: &C, result: Result<T>) -> Result<T> {
    let (value, status) = match result {
        Ok(v) => (Some(v), Ok(())),
        Err(e) => (None, Err(e)),
    };
    comm.agree(status)?;
    value.ok_or_else(|| Error::Readback("a member's status was lost in the agreement".into()))
}
