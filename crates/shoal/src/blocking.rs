//! The blocking twins of the async calls a native program makes, under one rule: the async
//! call's name followed by `_blocking` (`read` and `read_blocking`, `timings` and
//! `timings_blocking`), each the same call run to completion on the calling thread with
//! pollster. Only [`Gpu::blocking`](crate::Gpu::blocking), the twin of `Gpu::new`, is named
//! otherwise. Native only: a browser's thread must not block.
//!
//! The twins that sit beside their async calls: `Gpu::with_options_blocking`,
//! `Buffer::read_blocking`, `AppendBuffer::read_blocking`, `Image::read_blocking`,
//! `Submission::wait_blocking` and `Submission::timings_blocking`; the others are here.

use crate::append::AppendBuffer;
use crate::buffer::Buffer;
use crate::dispatch::Dispatch;
use crate::element::Element;
use crate::error::Result;
use crate::image::Image;
use crate::kernel::Kernel;
use crate::printf::PrintLog;
use crate::profile::Timing;

impl<T: Element> Buffer<T> {
    /// [`read_range`](Self::read_range), blocking the thread (native only).
    pub fn read_range_blocking(&self, range: std::ops::Range<u64>) -> Result<Vec<T>> {
        pollster::block_on(self.read_range(range))
    }
}

impl<T: Element> AppendBuffer<T> {
    /// [`count`](Self::count), blocking the thread (native only).
    pub fn count_blocking(&self) -> Result<u64> {
        pollster::block_on(self.count())
    }
}

impl Image {
    /// [`read_bytes`](Self::read_bytes), blocking the thread (native only).
    pub fn read_bytes_blocking(&self) -> Result<Vec<u8>> {
        pollster::block_on(self.read_bytes())
    }
}

impl Kernel {
    /// [`printed`](Self::printed), blocking the thread (native only).
    pub fn printed_blocking(&self) -> Result<PrintLog> {
        pollster::block_on(self.printed())
    }
}

impl Dispatch<'_> {
    /// [`run_timed`](Self::run_timed), blocking the thread (native only).
    pub fn run_timed_blocking(self) -> Result<Timing> {
        pollster::block_on(self.run_timed())
    }
}

#[cfg(test)]
mod tests {
    use crate::Gpu;

    #[test]
    fn the_blocking_twins_read_what_the_async_calls_read() {
        let gpu = Gpu::blocking().expect("device");
        let k = gpu
            .kernel(
                "#import shoal::append(odds, u32)
                @group(0) @binding(0) var<storage, read_write> v: array<u32>;
                @group(0) @binding(1) var<storage, read_write> odds: ShoalAppend_odds;
                @compute @workgroup_size(64)
                fn odd(@builtin(global_invocation_id) id: vec3<u32>) {
                    if id.x < arrayLength(&v) {
                        v[id.x] = 3u * id.x;
                        if id.x % 2u == 1u { _ = odds_append(id.x); }
                    }
                }",
            )
            .expect("kernel");
        for n in [1u32, 64, 65, 200] {
            let v = gpu.buffer_zeroed::<u32>(n as u64).expect("buffer");
            let odds = gpu.append_buffer::<u32>(n as u64).expect("append buffer");
            let t = k
                .bind("v", &v)
                .bind("odds", &odds)
                .invocations(n as u64)
                .label("odd")
                .run_timed_blocking()
                .expect("timed");
            assert_eq!(t.label, "odd");
            let want: Vec<u32> = (0..n).map(|i| 3 * i).collect();
            let from = (n / 3) as u64;
            assert_eq!(
                v.read_range_blocking(from..n as u64).expect("range"),
                want[from as usize..]
            );
            assert_eq!(odds.count_blocking().expect("count"), (n / 2) as u64);
            assert!(k.printed_blocking().expect("printed").records.is_empty());
        }
    }
}
