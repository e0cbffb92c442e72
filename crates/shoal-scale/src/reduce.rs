//! The spread reduction: each member reduces its part on its device; the partial results are
//! gathered and combined, in part order, on the device of rank 0, and the value shared.

use shoal::Result;
use shoal_kernels::{Operation, Reduce, Value};

use crate::member::Member;
use crate::part::Part;
use crate::transport::{Transport, gather_values, step};

/// `op` (an [`Op`](shoal_kernels::Op) or an [`Operator`](shoal_kernels::Operator)) over every
/// element of the spread buffer whose part is `part`, the same value on every member. Parts are
/// combined in rank order, so an operator need not be commutative.
pub fn reduce_part<T: Value, C: Transport>(
    comm: &C,
    member: &Member,
    part: &Part<T>,
    op: impl Into<Operation>,
) -> Result<T> {
    let op = op.into();
    let gpu = member.gpu();
    let partial = comm.device_turn(|| {
        gpu.check_same(part.gpu(), "a spread reduction's part")?;
        let reduce = member.family(0, Reduce::<T>::new)?;
        let value = pollster::block_on(reduce.value(&part.buffer, op))?;
        Ok((reduce, value))
    });
    let (reduce, partial) = step(comm, partial)?;
    let partials: Vec<T> = gather_values(comm, &[partial])?
        .into_iter()
        .flatten()
        .collect();
    let combined = match comm.rank() {
        0 => comm.device_turn(|| {
            let on_device = gpu.buffer_from(&partials)?;
            pollster::block_on(reduce.value(&on_device, op)).map(|v| vec![v])
        }),
        _ => Ok(Vec::new()),
    };
    let combined = step(comm, combined)?;
    let all = gather_values(comm, &combined)?;
    all.into_iter()
        .flatten()
        .next()
        .ok_or_else(|| shoal::Error::Readback("spread reduce: rank 0 sent no value".into()))
}
