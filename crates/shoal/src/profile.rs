//! GPU time per dispatch: timestamp queries around each compute pass where the device has them,
//! the wall clock of the whole submission otherwise (and then labelled so).

/// Where a time came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimingSource {
    /// GPU timestamps written at the start and end of the compute pass.
    GpuTimestamp,
    /// Host wall clock from submit to completion, including queue latency: an upper bound.
    WallClock,
}

/// The time one dispatch (or one batch, for the wall clock) took.
#[derive(Debug, Clone, PartialEq)]
pub struct Timing {
    /// The kernel (or the kernels of the batch).
    pub label: String,
    /// Nanoseconds.
    pub nanos: f64,
    /// How it was measured.
    pub source: TimingSource,
}

impl Timing {
    /// Milliseconds.
    pub fn millis(&self) -> f64 {
        self.nanos / 1e6
    }

    pub(crate) fn nothing_ran(label: String) -> Self {
        Self {
            label,
            nanos: 0.0,
            source: TimingSource::WallClock,
        }
    }
}

impl std::fmt::Display for Timing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let how = match self.source {
            TimingSource::GpuTimestamp => "GPU timestamps",
            TimingSource::WallClock => "wall clock",
        };
        write!(f, "{}: {:.3} ms ({how})", self.label, self.millis())
    }
}
