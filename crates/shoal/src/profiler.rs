//! The timestamps of a [`profiled`](crate::Commands::profiled) batch: a label per timed pass or
//! copy, and query sets of [`PER_SET`] pairs each, one more whenever a batch outgrows them, so
//! every timed dispatch of a batch of any length gets its time (none is dropped).

use crate::gpu::Gpu;

/// Timed passes per query set (two timestamps each): a set is made per this many.
pub(crate) const PER_SET: u32 = 256;

/// Bytes of resolved timestamps per full set: a multiple of the 256 bytes wgpu resolves at.
const SET_BYTES: u64 = PER_SET as u64 * 16;

/// What a profiled batch has timed so far.
pub(crate) struct Profiler {
    /// Whether the device writes timestamps (otherwise the batch gets its wall clock).
    timestamps: bool,
    /// The query sets, made as the batch needs them.
    sets: Vec<wgpu::QuerySet>,
    /// One label per timed pass or copy, in order.
    pub(crate) labels: Vec<String>,
}

impl Profiler {
    pub(crate) fn new(gpu: &Gpu) -> Self {
        Self {
            timestamps: gpu.has_timestamps(),
            sets: Vec::new(),
            labels: Vec::new(),
        }
    }

    /// Records `label` as the next timed pass and returns the query set and the index of its
    /// first timestamp (the second follows), making a set when the last one is full; `None`
    /// without timestamps.
    pub(crate) fn next(&mut self, gpu: &Gpu, label: &str) -> Option<(&wgpu::QuerySet, u32)> {
        let index = self.labels.len() as u32;
        self.labels.push(label.to_string());
        if !self.timestamps {
            return None;
        }
        let set = (index / PER_SET) as usize;
        if set == self.sets.len() {
            let _turn = gpu.turn();
            self.sets
                .push(gpu.device().create_query_set(&wgpu::QuerySetDescriptor {
                    label: Some("shoal timestamps"),
                    ty: wgpu::QueryType::Timestamp,
                    count: PER_SET * 2,
                }));
        }
        Some((&self.sets[set], (index % PER_SET) * 2))
    }

    /// Records resolving every timestamp into a new buffer (set `k`'s at byte `k * SET_BYTES`),
    /// and returns it with the labels; no buffer without timestamps or timed passes. The query
    /// sets are dropped here, under the turn (their destruction takes wgpu's GL context lock).
    pub(crate) fn resolve(
        self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
    ) -> (Option<wgpu::Buffer>, Vec<String>) {
        let _turn = gpu.turn();
        let timed = self.labels.len() as u64;
        if self.sets.is_empty() || timed == 0 {
            return (None, self.labels);
        }
        let buffer = gpu.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("shoal timestamps"),
            size: (self.sets.len() as u64 - 1) * SET_BYTES + (timed - 1) % PER_SET as u64 * 16 + 16,
            usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        for (k, set) in self.sets.iter().enumerate() {
            let first = k as u64 * PER_SET as u64;
            let pairs = (timed - first).min(PER_SET as u64) as u32;
            encoder.resolve_query_set(set, 0..pairs * 2, &buffer, k as u64 * SET_BYTES);
        }
        (Some(buffer), self.labels)
    }
}
