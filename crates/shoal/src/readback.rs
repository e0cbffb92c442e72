//! Reading GPU buffers back: pooled staging buffers, `map_async` answered through a
//! futures-intrusive channel, and a poll of the device natively (the browser polls by itself).

use std::sync::Mutex;

use futures_intrusive::channel::shared::oneshot_channel;

use crate::error::{Error, Result};
use crate::gpu::Gpu;

/// Staging buffers kept for reuse, so a loop of reads does not allocate each time.
#[derive(Default)]
pub(crate) struct StagingPool {
    free: Mutex<Vec<wgpu::Buffer>>,
}

/// How many idle staging buffers to keep.
const KEEP: usize = 8;

impl StagingPool {
    fn take(&self, device: &wgpu::Device, size: u64) -> wgpu::Buffer {
        if let Ok(mut free) = self.free.lock() {
            let best = free
                .iter()
                .enumerate()
                .filter(|(_, b)| b.size() >= size)
                .min_by_key(|(_, b)| b.size())
                .map(|(i, _)| i);
            if let Some(i) = best {
                return free.swap_remove(i);
            }
        }
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("shoal staging"),
            size: size.next_power_of_two().max(256),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    fn give(&self, buffer: wgpu::Buffer) {
        if let Ok(mut free) = self.free.lock() {
            if free.len() >= KEEP {
                // Keep the larger buffers: small ones are cheap to make again.
                if let Some((i, _)) = free.iter().enumerate().min_by_key(|(_, b)| b.size()) {
                    if free[i].size() < buffer.size() {
                        free.swap_remove(i);
                    } else {
                        return;
                    }
                }
            }
            free.push(buffer);
        }
    }
}

/// Copies `size` bytes at `offset` of `src` into host memory.
pub(crate) async fn read_bytes(
    gpu: &Gpu,
    src: &wgpu::Buffer,
    offset: u64,
    size: u64,
) -> Result<Vec<u8>> {
    if size == 0 {
        return Ok(Vec::new());
    }
    let padded = size.next_multiple_of(4);
    if !offset.is_multiple_of(4) || offset + padded > src.size() {
        return Err(Error::Readback(format!(
            "range {offset}..{} is not 4-byte aligned or past the end of a {}-byte buffer",
            offset + size,
            src.size()
        )));
    }
    if !src.usage().contains(wgpu::BufferUsages::COPY_SRC) {
        return Err(Error::Readback(format!(
            "the buffer has usage {:?}, without COPY_SRC",
            src.usage()
        )));
    }
    let mut bytes = read_staged(gpu, padded, |encoder, staging| {
        encoder.copy_buffer_to_buffer(src, offset, staging, 0, padded);
    })
    .await?;
    bytes.truncate(size as usize);
    Ok(bytes)
}

/// Records `copy` (which fills the first `size` bytes of a staging buffer) into its own
/// submission, maps the staging buffer and returns those bytes. Buffers and textures are read
/// through here, so the staging pool and the mapping logic exist once.
pub(crate) async fn read_staged(
    gpu: &Gpu,
    size: u64,
    copy: impl FnOnce(&mut wgpu::CommandEncoder, &wgpu::Buffer),
) -> Result<Vec<u8>> {
    let device = gpu.device();
    let staging = gpu.staging().take(device, size);
    let index = gpu.scoped("readback copy", || {
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("shoal readback"),
        });
        copy(&mut encoder, &staging);
        gpu.queue().submit([encoder.finish()])
    })?;
    let (sender, receiver) = oneshot_channel();
    staging
        .slice(..size)
        .map_async(wgpu::MapMode::Read, move |r| {
            let _ = sender.send(r);
        });
    #[cfg(not(target_arch = "wasm32"))]
    device
        .poll(wgpu::PollType::Wait {
            submission_index: Some(index),
            timeout: None,
        })
        .map_err(|e| Error::Readback(e.to_string()))?;
    #[cfg(target_arch = "wasm32")]
    let _ = index;
    match receiver.receive().await {
        Some(Ok(())) => {}
        Some(Err(e)) => return Err(Error::Readback(format!("mapping refused: {e}"))),
        None => {
            return Err(Error::Readback(
                "the device dropped the mapping request".into(),
            ));
        }
    }
    let bytes = {
        let view = staging
            .slice(..size)
            .get_mapped_range()
            .map_err(|e| Error::Readback(e.to_string()))?;
        view.to_vec()
    };
    staging.unmap();
    gpu.staging().give(staging);
    gpu.check_uncaptured("readback")?;
    Ok(bytes)
}
