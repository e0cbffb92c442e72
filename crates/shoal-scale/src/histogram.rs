//! The spread histogram: each member counts its part on its device; the counts are summed over
//! the members (MPI's Allreduce).

use shoal::Result;
use shoal_kernels::{Histogram, HistogramArgs, Record};

use crate::member::Member;
use crate::part::Part;
use crate::transport::{Transport, step};

/// The histogram in `bins` bins (values from `bins - 1` up count in the last, as
/// [`Histogram`] counts) of the spread buffer whose part is `part`: the same counts on every
/// member.
pub fn histogram_part<C: Transport>(
    comm: &C,
    member: &Member,
    part: &Part<u32>,
    bins: u32,
) -> Result<Vec<u32>> {
    let gpu = member.gpu();
    let local = comm.device_turn(|| {
        gpu.check_same(part.gpu(), "a spread histogram's part")?;
        let counts = gpu.buffer_zeroed::<u32>(u64::from(bins))?;
        member.family(0, Histogram::new)?.run(HistogramArgs {
            input: &part.buffer,
            counts: &counts,
        })?;
        counts.read_blocking()
    });
    let counts = step(comm, local)?;
    let wide: Vec<u64> = counts.into_iter().map(u64::from).collect();
    Ok(comm
        .all_reduce_sum(&wide)
        .into_iter()
        .map(|c| c as u32)
        .collect())
}
