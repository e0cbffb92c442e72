//! Reading GPU buffers back: staging buffers from the pool (`staging.rs`), `map_async`, and
//! natively non-blocking polls of the device with a deadline (`wait.rs`); the browser polls by
//! itself and answers through a futures-intrusive channel.

use std::sync::{Arc, Mutex};

#[cfg(target_arch = "wasm32")]
use futures_intrusive::channel::shared::oneshot_channel;

use crate::error::{Error, Result};
use crate::gpu::Gpu;
#[cfg(not(target_arch = "wasm32"))]
use crate::wait;

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
    // wgpu copies whole words: the words around the range (2-byte elements may start inside
    // one), read and cut.
    let skip = offset % 4;
    let start = offset - skip;
    let padded = (skip + size).next_multiple_of(4);
    if start + padded > src.size() {
        return Err(Error::Readback(format!(
            "range {offset}..{} ends inside a word past the end of a {}-byte buffer",
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
        encoder.copy_buffer_to_buffer(src, start, staging, 0, padded);
    })
    .await?;
    bytes.truncate((skip + size) as usize);
    bytes.drain(..skip as usize);
    Ok(bytes)
}

/// Records `copy` (which fills the first `size` bytes of a staging buffer) into its own
/// submission, maps the staging buffer and returns those bytes. Buffers and textures are read
/// through here, so the staging pool and the mapping logic exist once.
///
/// Natively the wait polls without blocking and has the `Gpu`'s deadline (`wait.rs`). After a
/// [`Error::Timeout`] the buffer read is unchanged (the copy still runs, into a staging buffer
/// that is then dropped, not pooled; or it was never submitted); reading it again returns its
/// contents once the GPU is done.
///
/// On a Vulkan CPU adapter (lavapipe) the copy is submitted only once the last submission Shoal
/// made on this device has finished, waited for within the same deadline (one clock for both
/// waits): lavapipe's `vkQueueSubmit` does not return while the work submitted before it runs
/// (wgpu chains each submission to the one before with a semaphore, and lavapipe waits for that
/// semaphore inside the submit), so submitting at once would block the thread past the deadline.
/// The copy runs after that work anyway. Elsewhere a submit returns at once and the copy is
/// submitted straight away (waiting first would idle the GPU between the work and the copy).
pub(crate) async fn read_staged(
    gpu: &Gpu,
    size: u64,
    copy: impl FnOnce(&mut wgpu::CommandEncoder, &wgpu::Buffer),
) -> Result<Vec<u8>> {
    let device = gpu.device();
    let answer = Arc::new(Mutex::new(None));
    let slot = Arc::clone(&answer);
    #[cfg(not(target_arch = "wasm32"))]
    let started = std::time::Instant::now();
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(before) = gpu.last_submission().filter(|_| submit_waits(gpu)) {
        wait::until_done(gpu, &before, "readback", || true, started).await?;
    }
    #[cfg(target_arch = "wasm32")]
    let (sender, receiver) = oneshot_channel();
    // The turn `scoped` takes, taken first within the deadline (`scoped` takes it again at once).
    #[cfg(not(target_arch = "wasm32"))]
    let turn = wait::turn_by(gpu, |w| gpu.try_poll_turn(w), "readback", started).await?;
    let (staging, number, index) = gpu.scoped("readback", || {
        let staging = gpu.staging().take(device, size);
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("shoal readback"),
        });
        copy(&mut encoder, &staging);
        let number = gpu.submit_number();
        let index = gpu.queue().submit([encoder.finish()]);
        staging
            .slice(..size)
            .map_async(wgpu::MapMode::Read, move |r| {
                *slot.lock().unwrap_or_else(|p| p.into_inner()) = Some(r);
                #[cfg(target_arch = "wasm32")]
                let _ = sender.send(());
            });
        (staging, number, index)
    })?;
    #[cfg(not(target_arch = "wasm32"))]
    drop(turn);
    gpu.submitted(number, &index);
    #[cfg(not(target_arch = "wasm32"))]
    {
        let mapped = || answer.lock().map(|a| a.is_some()).unwrap_or(true);
        let waited = wait::until_done(gpu, &index, "readback", mapped, started).await;
        if let Err(e) = waited {
            gpu.bury(staging);
            return Err(e);
        }
    }
    #[cfg(target_arch = "wasm32")]
    {
        let _ = index;
        receiver.receive().await;
    }
    let mapped = gpu.check_alive("readback").and_then(|()| {
        match answer.lock().unwrap_or_else(|p| p.into_inner()).take() {
            Some(Ok(())) => Ok(()),
            Some(Err(e)) => Err(Error::Readback(format!("mapping refused: {e}"))),
            None => Err(Error::Readback(
                "the device dropped the mapping request".into(),
            )),
        }
    });
    // Destroying or unmapping the staging buffer takes wgpu's GL context lock: under the turn,
    // natively within the deadline (a buffer given up is destroyed by the turn's holder).
    #[cfg(not(target_arch = "wasm32"))]
    let turn = match mapped {
        Ok(()) => wait::turn_by(gpu, |w| gpu.try_turn(w), "readback", started).await,
        Err(e) => Err(e),
    };
    #[cfg(target_arch = "wasm32")]
    let turn = mapped.map(|()| gpu.turn());
    let turn = match turn {
        Ok(turn) => turn,
        Err(e) => {
            #[cfg(not(target_arch = "wasm32"))]
            gpu.bury(staging);
            #[cfg(target_arch = "wasm32")]
            drop(staging);
            return Err(e);
        }
    };
    let bytes = {
        let _turn = turn;
        let bytes = staging
            .slice(..size)
            .get_mapped_range()
            .map(|view| view.to_vec())
            .map_err(|e| Error::Readback(e.to_string()));
        staging.unmap();
        gpu.staging().give(staging);
        bytes?
    };
    gpu.check_settled("readback").await?;
    Ok(bytes)
}

/// Whether a submit on `gpu` blocks while the work submitted before it runs: Vulkan on a CPU
/// adapter (lavapipe; see [`read_staged`]).
#[cfg(not(target_arch = "wasm32"))]
fn submit_waits(gpu: &Gpu) -> bool {
    let details = gpu.adapter_details();
    details.backend == wgpu::Backend::Vulkan && details.device_type == wgpu::DeviceType::Cpu
}
