//! The pool of staging buffers readbacks copy into, kept for reuse so a loop of reads does not
//! allocate each time, within a byte cap.
//!
//! A buffer is kept when it is given back, unless it alone exceeds the cap; then the least
//! recently returned buffers are dropped until the pool holds at most [`KEEP`] buffers and at
//! most the cap in bytes. Lowering the cap ([`Gpu::set_staging_cap`](crate::Gpu::set_staging_cap))
//! trims at once.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// The default byte cap of a `Gpu`'s staging pool: 256 MiB.
pub const DEFAULT_STAGING_CAP: u64 = 256 << 20;

/// How many idle staging buffers to keep at most.
const KEEP: usize = 8;

/// Sizes up to this are rounded to a power of two (so reads of similar sizes share buffers);
/// larger ones to a multiple of it, so a 300 MiB read does not stage 512 MiB.
const ROUND: u64 = 1 << 20;

pub(crate) struct StagingPool {
    /// Idle buffers, least recently returned first.
    free: Mutex<VecDeque<wgpu::Buffer>>,
    cap: AtomicU64,
}

impl Default for StagingPool {
    fn default() -> Self {
        Self {
            free: Mutex::new(VecDeque::new()),
            cap: AtomicU64::new(DEFAULT_STAGING_CAP),
        }
    }
}

impl StagingPool {
    /// The smallest idle buffer of at least `size` bytes, or a new one.
    pub(crate) fn take(&self, device: &wgpu::Device, size: u64) -> wgpu::Buffer {
        if let Ok(mut free) = self.free.lock() {
            let best = free
                .iter()
                .enumerate()
                .filter(|(_, b)| b.size() >= size)
                .min_by_key(|(_, b)| b.size())
                .map(|(i, _)| i);
            if let Some(buffer) = best.and_then(|i| free.remove(i)) {
                return buffer;
            }
        }
        // Rounded up so that buffers can be reused for other sizes, but never past the device's
        // largest buffer (GL's and DX12's is i32::MAX: a 2.1e9-byte read rounds to 2 GiB).
        let rounded = if size <= ROUND {
            size.next_power_of_two().max(256)
        } else {
            size.checked_next_multiple_of(ROUND).unwrap_or(size)
        }
        .min(device.limits().max_buffer_size)
        .max(size);
        log::debug!("shoal: new staging buffer of {rounded} bytes for a read of {size}");
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("shoal staging"),
            size: rounded,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// Returns a buffer to the pool (or drops it, when it alone exceeds the cap).
    pub(crate) fn give(&self, buffer: wgpu::Buffer) {
        if buffer.size() > self.cap() {
            log::debug!(
                "shoal: staging buffer of {} bytes dropped: over the pool's cap of {}",
                buffer.size(),
                self.cap()
            );
            return;
        }
        if let Ok(mut free) = self.free.lock() {
            free.push_back(buffer);
            self.trim(&mut free);
        }
    }

    fn trim(&self, free: &mut VecDeque<wgpu::Buffer>) {
        let cap = self.cap();
        let mut bytes: u64 = free.iter().map(wgpu::Buffer::size).sum();
        while free.len() > KEEP || bytes > cap {
            match free.pop_front() {
                Some(dropped) => bytes -= dropped.size(),
                None => break,
            }
        }
    }

    pub(crate) fn cap(&self) -> u64 {
        self.cap.load(Ordering::Relaxed)
    }

    pub(crate) fn set_cap(&self, bytes: u64) {
        self.cap.store(bytes, Ordering::Relaxed);
        if let Ok(mut free) = self.free.lock() {
            self.trim(&mut free);
        }
    }

    /// Bytes of the idle buffers kept.
    pub(crate) fn bytes(&self) -> u64 {
        self.free
            .lock()
            .map(|free| free.iter().map(wgpu::Buffer::size).sum())
            .unwrap_or(0)
    }
}
