//! Reading GPU buffers back: staging buffers from the pool (`staging.rs`), `map_async` answered through a
//! futures-intrusive channel, and a poll of the device natively (the browser polls by itself).

use futures_intrusive::channel::shared::oneshot_channel;

use crate::error::{Error, Result};
use crate::gpu::Gpu;

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
