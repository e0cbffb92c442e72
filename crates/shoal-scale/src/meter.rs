//! [`Meter`]: what a spread primitive cost one member: its local device work, its waits in the
//! exchange, and the bytes that left its device.

use std::time::{Duration, Instant};

/// One member's costs in a spread primitive, for benchmarks ([`Group::sort_measured`](crate::Group::sort_measured)).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Meter {
    /// Time in the member's own device work (kernels, uploads and readbacks of its part).
    pub local: Duration,
    /// Time in collectives: waiting for the others and passing bytes through the transport.
    pub exchange: Duration,
    /// Bytes this member sent to others (samples, splitters, buckets; not what it kept).
    pub bytes_sent: u64,
}

impl Meter {
    /// Runs `work` as local device work.
    pub(crate) fn local<R>(&mut self, work: impl FnOnce() -> R) -> R {
        let t = Instant::now();
        let r = work();
        self.local += t.elapsed();
        r
    }

    /// Runs `work` as exchange.
    pub(crate) fn exchange<R>(&mut self, work: impl FnOnce() -> R) -> R {
        let t = Instant::now();
        let r = work();
        self.exchange += t.elapsed();
        r
    }
}
