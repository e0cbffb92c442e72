//! The sum of uniformly random 32-bit values (wrapping, on both sides), beside lampshade's
//! `Reducer`; and the same sum written as a user's operator.

use shoal::{Commands, Gpu};
use shoal_kernels::{Op, Operation, Record, Reduce, ReduceArgs};

use super::{Io, err, io, nanos, peer_nanos, read, same};
use crate::harness::{Case, Fut};

/// Shoal's reduce and lampshade's.
struct ReduceCase {
    reduce: Reduce<u32>,
    /// The built-in sum or the same sum as an operator (then without the peer).
    op: Operation,
    io: Io,
    peer: lampshade::Reducer,
    /// Where the peer writes its sum.
    peer_out: shoal::Buffer<u32>,
}

/// The reduce case with `op`.
pub(super) fn reduce_case(gpu: &Gpu, n: u64, op: Operation) -> Result<Box<dyn Case>, String> {
    Ok(Box::new(ReduceCase {
        reduce: Reduce::new(gpu).map_err(err)?,
        op,
        io: io(gpu, n, 0, 1)?,
        peer: lampshade::Reducer::new(gpu.device(), gpu.queue()),
        peer_out: gpu.buffer_zeroed(1).map_err(err)?,
    }))
}

impl ReduceCase {
    /// The CPU twin's sum.
    fn want(&self) -> u32 {
        self.io.host.iter().fold(0u32, |a, &x| a.wrapping_add(x))
    }
}

impl Case for ReduceCase {
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        self.reduce.record(
            c,
            ReduceArgs {
                input: &self.io.input,
                output: &self.io.output,
                op: self.op,
            },
        )
    }
    fn verify(&mut self) -> Fut<'_, Result<(), String>> {
        Box::pin(async { same(&read(&self.io.output).await?, &[self.want()]) })
    }
    fn cpu(&mut self) -> f64 {
        nanos(|| {
            std::hint::black_box(self.want());
        })
    }
    fn peer_configs(&self) -> Vec<String> {
        if self.op == Op::Sum.into() {
            vec!["Reducer::new (its only constructor)".into()]
        } else {
            Vec::new()
        }
    }
    fn peer(&mut self, _config: usize, check: bool) -> Fut<'_, Result<f64, String>> {
        Box::pin(async move {
            let n = self.io.host.len() as u32;
            let t = peer_nanos(
                self.peer
                    .profile_reduce_gpu_to_gpu(
                        self.io.input.raw(),
                        self.peer_out.raw(),
                        n,
                        lampshade::U32Reduction::Sum,
                    )
                    .await,
            )?;
            if check {
                same(&read(&self.peer_out).await?, &[self.want()])?;
            }
            Ok(t)
        })
    }
}
