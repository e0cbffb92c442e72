//! [`Commands`]: several dispatches and copies recorded together and submitted once.
//!
//! Between two dispatches that touch the same buffer, wgpu's resource tracking inserts the
//! barrier itself: this is what `glMemoryBarrier` and UAV barriers do in the documents, and
//! there is nothing for the caller to call. Inside one dispatch, WGSL's `workgroupBarrier()` and
//! `storageBarrier()` remain the kernel's business.

#[cfg(target_arch = "wasm32")]
use futures_intrusive::channel::shared::oneshot_channel;

use crate::buffer::Buffer;
use crate::dispatch::Dispatch;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::image::Image;
use crate::profile::{Timing, TimingSource};
use crate::profiler::Profiler;
use crate::readback;
use crate::turn::Turn;

/// Why a batch always has its encoder: only [`Commands::submit`] takes it, consuming the batch.
const ENCODER_TAKEN: &str = "only `submit` takes the encoder, and it consumes the batch";

/// A batch of GPU work, submitted with [`Commands::submit`].
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// let gpu = shoal::Gpu::blocking()?;
/// let add_one = gpu.kernel("
///     @group(0) @binding(0) var<storage, read_write> v: array<u32>;
///     @compute @workgroup_size(64)
///     fn add_one(@builtin(global_invocation_id) id: vec3<u32>) {
///         if id.x < arrayLength(&v) { v[id.x] += 1u; }
///     }")?;
/// let (v, copy) = (gpu.buffer_from(&[1u32, 2, 3])?, gpu.buffer_zeroed::<u32>(3)?);
/// let mut commands = gpu.commands();
/// for _ in 0..2 {
///     add_one.bind("v", &v).invocations(3).record(&mut commands)?; // ordered: wgpu tracks use
/// }
/// commands.copy(&v, &copy)?;
/// commands.submit()?.wait_blocking()?;
/// assert_eq!(copy.read_blocking()?, [3, 4, 5]);
/// # Ok(()) }
/// ```
pub struct Commands {
    gpu: Gpu,
    /// Taken only by [`Commands::submit`], which consumes the batch.
    encoder: Option<wgpu::CommandEncoder>,
    profiler: Option<Profiler>,
    /// The label of what is recorded now ([`Commands::labelled`]).
    pub(crate) scope: Option<String>,
    /// A mistake found while recording by a call that returns no `Result`; `submit` returns it.
    error: Option<Error>,
    /// Held while the fields above drop: a batch dropped unsubmitted may hold the last handle
    /// of a buffer or of its query set, whose destruction takes wgpu's GL context lock, so it
    /// waits for the GL turn like every other call (`wait.rs`). Declared last, so it is
    /// released last.
    dropping: Option<Turn>,
}

impl Drop for Commands {
    fn drop(&mut self) {
        self.dropping = Some(self.gpu.turn());
    }
}

impl Gpu {
    /// Starts a batch.
    pub fn commands(&self) -> Commands {
        let _turn = self.turn();
        let encoder = self
            .device()
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("shoal"),
            });
        Commands {
            gpu: self.clone(),
            encoder: Some(encoder),
            profiler: None,
            scope: None,
            error: None,
            dropping: None,
        }
    }
}

impl Commands {
    /// Times each dispatch of this batch (read with [`Submission::timings`]), and each copy,
    /// clear and recorded write between buffers where the device writes timestamps between
    /// passes ([`Gpu::has_timestamps_between_passes`]: Vulkan, Metal, DX12 and GL, not the
    /// browser), labelled `copy`, `clear` (also an
    /// [`AppendBuffer::record_clear`](crate::AppendBuffer::record_clear)) and `write`.
    /// Every one is timed, however many the batch holds (query sets are added as it grows).
    /// A dispatch is labelled with its kernel, or with [`Dispatch::label`].
    pub fn profiled(mut self) -> Self {
        self.profiler = Some(Profiler::new(&self.gpu));
        self
    }

    /// Records a dispatch (the same as `dispatch.record(&mut commands)`).
    pub fn dispatch(&mut self, dispatch: Dispatch<'_>) -> Result<&mut Self> {
        dispatch.record(self)?;
        Ok(self)
    }

    /// Records a copy of every element of `src` into `dst` (same length). A buffer copied onto
    /// itself (or onto a view of itself as the same type) is already its copy: nothing is
    /// recorded. A source without `COPY_SRC` or a destination without `COPY_DST` usage (only a
    /// buffer wrapped with [`Buffer::from_raw`] can lack them) is [`Error::MissingUsage`].
    pub fn copy<T: Element>(&mut self, src: &Buffer<T>, dst: &Buffer<T>) -> Result<&mut Self> {
        for (buffer, role) in [(src, "source"), (dst, "destination")] {
            self.gpu
                .check_owner(|| format!("the {role} of a copy"), buffer.id().gpu())?;
        }
        let needs = [
            (src, "source", wgpu::BufferUsages::COPY_SRC),
            (dst, "destination", wgpu::BufferUsages::COPY_DST),
        ];
        for (buffer, role, usage) in needs {
            if !buffer.raw().usage().contains(usage) {
                return Err(Error::MissingUsage {
                    kernel: "Commands::copy".into(),
                    binding: format!("the {role} of a copy, a Buffer<{}>", T::type_name()),
                    usage: format!("{usage:?}"),
                    has: format!("{:?}", buffer.raw().usage()),
                    fix: format!(
                        "create the wgpu buffer with BufferUsages::{usage:?} before wrapping it \
                         with Buffer::from_raw (every buffer Shoal creates has it)"
                    ),
                });
            }
        }
        if src.len() != dst.len() {
            return Err(Error::Length {
                what: "copying between buffers".into(),
                expected: dst.len(),
                got: src.len(),
            });
        }
        if !dst.whole_words() {
            return Err(partial_word("Commands::copy", dst));
        }
        // One allocation: the same buffer, its views and slices, or two wrappers of one wgpu
        // buffer (`Buffer::from_raw`), which have identities of their own.
        let same_memory = src.id().same_memory(dst.id()) || src.raw() == dst.raw();
        if same_memory && src.offset() != dst.offset() && src.byte_len() > 0 {
            // WebGPU copies between two buffers only, whatever the ranges.
            return Err(Error::InvalidParameter {
                kernel: "Commands::copy".into(),
                parameter: "the source and destination".into(),
                value: format!(
                    "two slices of one buffer, at bytes {} and {}",
                    src.offset(),
                    dst.offset()
                ),
                rule: "wgpu copies between two different buffers only: copy through a buffer \
                       of its own, or write a kernel that moves the elements"
                    .into(),
            });
        }
        // The same memory at the same offset and length is the same bytes: already copied.
        if src.byte_len() > 0 && !same_memory {
            self.outside_passes("copy", |encoder| {
                encoder.copy_buffer_to_buffer(
                    src.raw(),
                    src.offset(),
                    dst.raw(),
                    dst.offset(),
                    src.byte_len().next_multiple_of(4),
                )
            });
        }
        Ok(self)
    }

    /// Records zeroing every element of `buffer` (of a view, the bytes it sees; of a buffer whose
    /// bytes are not a whole number of 4-byte words, its padding to the next one too). A buffer
    /// of another `Gpu` is not recorded; [`submit`](Self::submit) returns [`Error::WrongGpu`].
    pub fn clear<T: Element>(&mut self, buffer: &Buffer<T>) -> &mut Self {
        match self
            .gpu
            .check_owner(|| "a buffer to clear".into(), buffer.id().gpu())
        {
            // wgpu clears whole words; a view's last word is its own (views of wider elements
            // are whole words).
            Ok(()) if !buffer.whole_words() => {
                self.error
                    .get_or_insert(partial_word("Commands::clear", buffer));
            }
            Ok(()) if buffer.byte_len() > 0 => self.outside_passes("clear", |encoder| {
                let bytes = buffer.byte_len().next_multiple_of(4);
                let most = buffer.raw().size() - buffer.offset();
                encoder.clear_buffer(buffer.raw(), buffer.offset(), Some(bytes.min(most)))
            }),
            Ok(()) => {}
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
        self
    }

    /// Records writing `data` into `buffer` from its start, **in the batch's order**: dispatches
    /// recorded before it see the old values, those recorded after it the new ones. This is
    /// the in-order form of [`Buffer::write`], which takes effect before the whole of any batch
    /// submitted after it (also one recorded before it).
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// let gpu = shoal::Gpu::blocking()?;
    /// let v = gpu.buffer_from(&[1u32])?;
    /// let (first, second) = (gpu.buffer_zeroed(1)?, gpu.buffer_zeroed(1)?);
    /// let mut commands = gpu.commands();
    /// commands.copy(&v, &first)?.write(&v, &[2])?.copy(&v, &second)?;
    /// commands.submit()?.wait_blocking()?;
    /// assert_eq!((first.read_blocking()?, second.read_blocking()?), (vec![1], vec![2]));
    /// # Ok(()) }
    /// ```
    ///
    /// The data is copied now into a staging buffer of its own, and from there into `buffer` when
    /// the GPU reaches this point of the batch. The rules of [`Buffer::write_at`] apply: a
    /// buffer of another `Gpu` is [`Error::WrongGpu`], one without `COPY_DST` usage
    /// [`Error::MissingUsage`], a range past the end [`Error::Length`], and a range of 2-byte
    /// elements that does not start and end on a 4-byte word (or at the buffer's end)
    /// [`Error::InvalidParameter`].
    pub fn write<T: Element>(&mut self, buffer: &Buffer<T>, data: &[T]) -> Result<&mut Self> {
        self.write_at(buffer, 0, data)
    }

    /// Records writing `data` into elements `first..first + data.len()` of `buffer`, in the
    /// batch's order (see [`write`](Self::write); the in-order form of [`Buffer::write_at`]).
    pub fn write_at<T: Element>(
        &mut self,
        buffer: &Buffer<T>,
        first: u64,
        data: &[T],
    ) -> Result<&mut Self> {
        self.gpu
            .check_owner(|| "the buffer of a write".into(), buffer.id().gpu())?;
        if let Some(bytes) = buffer.write_bytes(first, data, "Commands::write_at")? {
            self.write_raw(buffer.raw(), buffer.offset() + first * T::STRIDE, &bytes)?;
        }
        Ok(self)
    }

    /// Records writing `bytes` (whole words) at byte `at` of `raw`, in the batch's order,
    /// through a staging buffer the batch keeps alive.
    pub(crate) fn write_raw(&mut self, raw: &wgpu::Buffer, at: u64, bytes: &[u8]) -> Result<()> {
        let staging = self.gpu.scoped("recording a write", || {
            use wgpu::util::DeviceExt;
            self.gpu
                .device()
                .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("shoal write"),
                    contents: bytes,
                    usage: wgpu::BufferUsages::COPY_SRC,
                })
        })?;
        self.outside_passes("write", |encoder| {
            encoder.copy_buffer_to_buffer(&staging, 0, raw, at, bytes.len() as u64)
        });
        // The batch keeps the staging buffer alive until the GPU has copied it; dropping this
        // handle takes wgpu's GL context lock, so it takes the turn (`wait.rs`).
        let _turn = self.gpu.turn();
        drop(staging);
        Ok(())
    }

    /// Records zeroing `bytes` bytes at `offset` of `raw` (whole words), timed as a `clear`.
    pub(crate) fn clear_words(&mut self, raw: &wgpu::Buffer, offset: u64, bytes: u64) {
        self.outside_passes("clear", |encoder| {
            encoder.clear_buffer(raw, offset, Some(bytes))
        });
    }

    /// The `Gpu` whose device runs this batch.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// Records a copy of every texel of `src` into `dst`, which must have its size and a format
    /// wgpu can copy between (the same, or its sRGB twin; otherwise
    /// [`Error::InvalidParameter`]). An image copied onto itself is already its copy: nothing is
    /// recorded.
    pub fn copy_image(&mut self, src: &Image, dst: &Image) -> Result<&mut Self> {
        for (image, role) in [(src, "source"), (dst, "destination")] {
            self.gpu
                .check_same(image.gpu(), &format!("the {role} image of a copy"))?;
        }
        if src.size() != dst.size() {
            return Err(Error::Length {
                what: format!(
                    "copying a {}x{} image into a {}x{} one (texels)",
                    src.width(),
                    src.height(),
                    dst.width(),
                    dst.height()
                ),
                expected: dst.texels() as u64,
                got: src.texels() as u64,
            });
        }
        if src.format().remove_srgb_suffix() != dst.format().remove_srgb_suffix() {
            return Err(Error::InvalidParameter {
                kernel: "copying an image".into(),
                parameter: "the destination's format".into(),
                value: format!("{:?}", dst.format()),
                rule: format!(
                    "the source's format ({:?}) or its sRGB twin: wgpu copies texels as they are",
                    src.format()
                ),
            });
        }
        if src.raw() == dst.raw() {
            return Ok(self);
        }
        self.raw().copy_texture_to_texture(
            src.raw().as_image_copy(),
            dst.raw().as_image_copy(),
            wgpu::Extent3d {
                width: src.width(),
                height: src.height(),
                depth_or_array_layers: 1,
            },
        );
        Ok(self)
    }

    /// The underlying encoder, for render passes or hand-written work in the same batch.
    pub fn encoder(&mut self) -> &mut wgpu::CommandEncoder {
        self.raw()
    }

    fn raw(&mut self) -> &mut wgpu::CommandEncoder {
        self.encoder.as_mut().expect(ENCODER_TAKEN)
    }

    /// The encoder, the profiler of a profiled batch and the device, borrowed apart (a pass
    /// borrows the encoder while its timestamps come from the profiler).
    pub(crate) fn parts(&mut self) -> (&mut wgpu::CommandEncoder, Option<&mut Profiler>, &Gpu) {
        let encoder = self.encoder.as_mut().expect(ENCODER_TAKEN);
        (encoder, self.profiler.as_mut(), &self.gpu)
    }

    /// Records `f`'s work outside a pass, between two timestamps when profiling on a device
    /// that writes them there.
    fn outside_passes(&mut self, label: &str, f: impl FnOnce(&mut wgpu::CommandEncoder)) {
        let between = self.gpu.has_timestamps_between_passes();
        let encoder = self.encoder.as_mut().expect(ENCODER_TAKEN);
        let timed = match &mut self.profiler {
            Some(p) if between => p.next(&self.gpu, &crate::labels::scoped(&self.scope, label)),
            _ => None,
        };
        if let Some((q, at)) = timed {
            encoder.write_timestamp(q, at);
        }
        f(encoder);
        if let Some((q, at)) = timed {
            encoder.write_timestamp(q, at + 1);
        }
    }

    /// Opens a compute pass (timed when profiling) and lets `f` fill it.
    pub(crate) fn compute_pass(&mut self, label: &str, f: impl FnOnce(&mut wgpu::ComputePass<'_>)) {
        let timestamp_writes = match &mut self.profiler {
            Some(p) => p
                .next(&self.gpu, label)
                .map(|(q, at)| wgpu::ComputePassTimestampWrites {
                    query_set: q,
                    beginning_of_pass_write_index: Some(at),
                    end_of_pass_write_index: Some(at + 1),
                }),
            None => None,
        };
        let mut pass = self
            .encoder
            .as_mut()
            .expect(ENCODER_TAKEN)
            .begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some(label),
                timestamp_writes,
            });
        f(&mut pass);
    }

    /// Submits the batch.
    pub fn submit(mut self) -> Result<Submission> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        let gpu = self.gpu.clone();
        let profiler = self.profiler.take();
        let mut encoder = self.encoder.take().expect(ENCODER_TAKEN);
        let (resolve, labels) = match profiler {
            Some(p) => p.resolve(&gpu, &mut encoder),
            None => (None, Vec::new()),
        };
        let started = web_time::Instant::now();
        // Numbered inside the submitting call's turn, noted once wgpu has accepted it.
        let submitted = gpu.scoped("submitting commands", || {
            (gpu.submit_number(), gpu.queue().submit([encoder.finish()]))
        });
        // An error wgpu reported outside Shoal's scopes (the application's own calls) waits
        // for the next wait or readback: returned here, it would say that a batch the queue
        // took was not submitted.
        let checked = submitted.map(|(number, index)| {
            gpu.submitted(number, &index);
            index
        });
        let index = match checked {
            Ok(index) => index,
            Err(e) => {
                // The resolve buffer's destruction takes the GL context lock too.
                let _turn = gpu.turn();
                drop(resolve);
                return Err(e);
            }
        };
        Ok(Submission {
            gpu,
            index,
            started,
            finished: std::sync::OnceLock::new(),
            resolve,
            labels,
            dropping: None,
        })
    }
}

/// Work handed to the GPU: wait for it, or read the times of its dispatches.
#[derive(Debug)]
pub struct Submission {
    gpu: Gpu,
    #[cfg_attr(
        target_arch = "wasm32",
        allow(dead_code, reason = "the browser tracks submissions itself")
    )]
    index: wgpu::SubmissionIndex,
    started: web_time::Instant,
    /// When a wait first saw the batch finished: the end of the wall-clock timing.
    finished: std::sync::OnceLock<web_time::Instant>,
    resolve: Option<wgpu::Buffer>,
    labels: Vec<String>,
    /// Held while the fields above drop: destroying the timestamps' buffer takes wgpu's GL
    /// context lock (see [`Commands`]). Declared last, so it is released last.
    dropping: Option<Turn>,
}

impl Drop for Submission {
    fn drop(&mut self) {
        self.dropping = Some(self.gpu.turn());
    }
}

impl Submission {
    /// Waits until the GPU has finished the batch.
    ///
    /// Natively the wait polls the device without blocking the thread (an executor runs other
    /// futures meanwhile) and fails with [`Error::Timeout`] after the `Gpu`'s
    /// [`timeout`](Gpu::timeout); the batch still runs then, and a later wait sees it finish.
    /// Errors wgpu reported for the batch are returned by [`Commands::submit`] natively; in the
    /// browser they arrive later and are returned here.
    pub async fn wait(&self) -> Result<()> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let started = std::time::Instant::now();
            let (gpu, index) = (&self.gpu, &self.index);
            crate::wait::until_done(gpu, index, "waiting for the GPU", || true, started).await?;
        }
        #[cfg(target_arch = "wasm32")]
        {
            self.gpu.check_alive("waiting for the GPU")?;
            let (sender, receiver) = oneshot_channel();
            self.gpu.queue().on_submitted_work_done(move || {
                let _ = sender.send(());
            });
            receiver.receive().await;
        }
        // The first wait that sees the batch done ends its wall-clock timing (later ones do not).
        self.finished.get_or_init(web_time::Instant::now);
        self.gpu.check_settled("running commands").await
    }

    /// Waits, blocking the thread (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn wait_blocking(&self) -> Result<()> {
        pollster::block_on(self.wait())
    }

    /// [`timings`](Self::timings), blocking the thread (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn timings_blocking(self) -> Result<Vec<Timing>> {
        pollster::block_on(self.timings())
    }

    /// The time of each dispatch of a [`profiled`](Commands::profiled) batch, in order; without
    /// timestamps, one wall-clock entry for the whole batch.
    ///
    /// It waits for the batch first. The wall-clock entry runs from just before the submit to
    /// the moment the first wait on this `Submission` (this one, or an earlier
    /// [`wait`](Self::wait)) saw the batch finished — not to the call of `timings`, so time
    /// spent between a wait and `timings` is not counted. Natively a wait sees it within one
    /// poll; a batch that finished long before its first wait counts until that wait.
    pub async fn timings(mut self) -> Result<Vec<Timing>> {
        self.wait().await?;
        if self.labels.is_empty() {
            return Ok(Vec::new());
        }
        let Some(resolve) = &self.resolve else {
            // Once: a benchmark asks for timings in a loop.
            static SAID: std::sync::Once = std::sync::Once::new();
            SAID.call_once(|| log::info!("shoal: no GPU timestamps: timings by the wall clock"));
            return Ok(vec![Timing {
                label: self.labels.join(" + "),
                nanos: self
                    .finished
                    .get()
                    .map_or_else(|| self.started.elapsed(), |end| *end - self.started)
                    .as_nanos() as f64,
                source: TimingSource::WallClock,
            }]);
        };
        let bytes = readback::read_bytes(&self.gpu, resolve, 0, resolve.size()).await?;
        // Read word by word: a `Vec<u8>` promises no 8-byte alignment.
        let ticks: Vec<u64> = bytes
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
            .collect();
        let period = self.gpu.queue().get_timestamp_period() as f64;
        Ok(std::mem::take(&mut self.labels)
            .into_iter()
            .zip(ticks.chunks_exact(2))
            .map(|(label, t)| Timing {
                label,
                nanos: t[1].saturating_sub(t[0]) as f64 * period,
                source: TimingSource::GpuTimestamp,
            })
            .collect())
    }
}

/// The error of a copy into, or a clear of, `buffer` whose last element ends inside a word whose
/// other bytes are not its own (a `view_as` with a remainder, a wrapped buffer larger than its
/// elements): wgpu moves whole words.
fn partial_word<T: Element>(call: &str, buffer: &Buffer<T>) -> Error {
    Error::InvalidParameter {
        kernel: call.into(),
        parameter: format!("a Buffer<{}> of {} elements", T::type_name(), buffer.len()),
        value: format!("{} bytes, ending inside a word", buffer.byte_len()),
        rule: "wgpu copies and clears whole 4-byte words, and the rest of this one is not the \
               buffer's (a view with a remainder, or a wrapped buffer's owner's bytes): use a \
               view or slice that ends on a word, or write the elements with Commands::write_at"
            .into(),
    }
}
