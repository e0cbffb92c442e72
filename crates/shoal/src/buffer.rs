//! [`Buffer<T>`]: a typed storage (or uniform, or indirect) buffer.

use std::marker::PhantomData;

use crate::binding::{Bindable, BufferResource, Resource};
use crate::element::Element;
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::identity::ResourceId;
use crate::readback;
use crate::size;
use crate::turn::Turn;

/// What a buffer may be used for, beyond copies (every Shoal buffer can be copied from and to).
pub type Usage = wgpu::BufferUsages;

/// `len` elements of `T` on the GPU, laid out as WGSL lays out `array<T>`.
///
/// Cheap to clone: clones are the same GPU buffer. Dropping its last handle (the buffer, its
/// clones and its [`view_as`](Self::view_as) views) frees its memory once work submitted with it
/// has finished: kernels' bind-group caches do not keep it (see [`Kernel`](crate::Kernel)).
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// let gpu = shoal::Gpu::blocking()?;
/// let buffer = gpu.buffer_from(&[1u32, 2, 3])?;
/// buffer.write_at(1, &[20])?;
/// let copy = gpu.buffer_zeroed::<u32>(3)?;
/// copy.copy_from(&buffer)?;
/// assert_eq!(copy.read_blocking()?, [1, 20, 3]);
/// // vec3 padding: a glam::Vec3 takes 16 bytes, as in `array<vec3<f32>>`.
/// let points = gpu.buffer_from(&[glam::Vec3::ONE; 2])?;
/// assert_eq!(points.byte_len(), 32);
/// # Ok(()) }
/// ```
pub struct Buffer<T> {
    gpu: Gpu,
    raw: wgpu::Buffer,
    len: u64,
    /// Bytes of `raw` before the first element: 0 but for a [`slice`](Buffer::slice).
    offset: u64,
    /// Whether the bytes after the last element up to a whole word are padding of this
    /// allocation (a buffer Shoal made, or a view or slice reaching its end), which a write or
    /// a clear of the last element may zero; otherwise they may be another element's or the
    /// owner's of a `from_raw` buffer.
    padded_tail: bool,
    id: ResourceId,
    _element: PhantomData<fn() -> T>,
    /// Held while the fields above drop: on GL, dropping the last handle of a buffer takes
    /// wgpu's context lock, so it waits for the GL turn like every other call (`wait.rs`).
    /// Declared last, so it is released last.
    dropping: Option<Turn>,
}

impl<T> Drop for Buffer<T> {
    fn drop(&mut self) {
        self.dropping = Some(self.gpu.turn());
    }
}

impl<T> Clone for Buffer<T> {
    fn clone(&self) -> Self {
        Self {
            gpu: self.gpu.clone(),
            raw: self.raw.clone(),
            len: self.len,
            offset: self.offset,
            padded_tail: self.padded_tail,
            id: self.id.share(),
            _element: PhantomData,
            dropping: None,
        }
    }
}

impl<T> std::fmt::Debug for Buffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Buffer")
            .field("element", &std::any::type_name::<T>())
            .field("len", &self.len)
            .field("offset", &self.offset)
            .field("usage", &self.raw.usage())
            .finish()
    }
}

impl Gpu {
    /// A storage buffer holding `data` (usable as `var<storage, read>` or `read_write`).
    pub fn buffer_from<T: Element>(&self, data: &[T]) -> Result<Buffer<T>> {
        self.buffer_from_with(data, Usage::STORAGE)
    }

    /// A storage buffer of `len` zeroed elements.
    pub fn buffer_zeroed<T: Element>(&self, len: u64) -> Result<Buffer<T>> {
        self.buffer_zeroed_with(len, Usage::STORAGE)
    }

    /// A buffer holding `data` with the given usage (plus copies), e.g.
    /// `Usage::STORAGE | Usage::INDIRECT` for indirect arguments a kernel writes.
    pub fn buffer_from_with<T: Element>(&self, data: &[T], usage: Usage) -> Result<Buffer<T>> {
        // Refused before the host copy is made: a slice too large for the device never doubles.
        size::within(
            || format!("creating a buffer of {} x {}", data.len(), T::type_name()),
            data.len() as u64,
            T::STRIDE,
            0,
            "max_buffer_size",
            self.limits().max_buffer_size,
        )?;
        let mut bytes = Vec::new();
        T::encode(data, &mut bytes)?;
        self.create_buffer::<T>(data.len() as u64, usage, Some(&bytes))
    }

    /// `len` zeroed elements with the given usage (plus copies).
    pub fn buffer_zeroed_with<T: Element>(&self, len: u64, usage: Usage) -> Result<Buffer<T>> {
        self.create_buffer::<T>(len, usage, None)
    }

    /// A uniform buffer holding one `value` (`var<uniform>`), laid out by WGSL's rules.
    pub fn uniform<T: Element>(&self, value: &T) -> Result<Buffer<T>> {
        self.buffer_from_with(std::slice::from_ref(value), Usage::UNIFORM)
    }

    fn create_buffer<T: Element>(
        &self,
        len: u64,
        usage: Usage,
        init: Option<&[u8]>,
    ) -> Result<Buffer<T>> {
        let bytes = size::within(
            || format!("creating a buffer of {len} x {}", T::type_name()),
            len,
            T::STRIDE,
            0,
            "max_buffer_size",
            self.limits().max_buffer_size,
        )?;
        // wgpu copies and maps in multiples of 4 and cannot bind an empty buffer.
        let size = bytes.next_multiple_of(4).max(4);
        // Nothing to copy for an empty slice: a zeroed buffer is the same thing.
        let init = init.filter(|b| !b.is_empty());
        // Element::encode gives exactly `bytes`; anything else would overrun or leave garbage.
        if let Some(init) = init
            && init.len() as u64 != bytes
        {
            return Err(Error::Length {
                what: format!("filling a new buffer of {len} x {} (bytes)", T::type_name()),
                expected: bytes,
                got: init.len() as u64,
            });
        }
        let raw = self.scoped("creating a buffer", || {
            self.device().create_buffer(&wgpu::BufferDescriptor {
                label: Some(T::type_name()),
                size,
                usage: usage | Usage::COPY_SRC | Usage::COPY_DST,
                mapped_at_creation: init.is_some(),
            })
        })?;
        if let Some(init) = init {
            let _turn = self.turn();
            {
                let mut view = raw
                    .slice(..)
                    .get_mapped_range_mut()
                    .map_err(|e| Error::Wgpu {
                        context: "filling a new buffer".into(),
                        message: e.to_string(),
                    })?;
                view.slice(..init.len()).copy_from_slice(init);
            }
            raw.unmap();
        }
        Ok(Buffer {
            gpu: self.clone(),
            raw,
            len,
            offset: 0,
            padded_tail: true,
            id: self.resource_id(),
            _element: PhantomData,
            dropping: None,
        })
    }
}

impl<T: Element> Buffer<T> {
    /// Wraps a wgpu buffer created elsewhere as `len` elements of `T`.
    ///
    /// `raw` must come from `gpu.device()`: the buffer takes `gpu`'s identity, and wgpu offers
    /// no way to check which device made a buffer, so one from another device is only caught
    /// by wgpu (as [`Error::Wgpu`] or a wgpu panic).
    pub fn from_raw(gpu: &Gpu, raw: wgpu::Buffer, len: u64) -> Result<Self> {
        if size::bytes(len, T::STRIDE, 0).is_none_or(|b| b > raw.size()) {
            return Err(Error::Length {
                what: "Buffer::from_raw".into(),
                expected: raw.size() / T::STRIDE,
                got: len,
            });
        }
        let padded_tail = raw.size() == (len * T::STRIDE).next_multiple_of(4).max(4);
        Ok(Self {
            gpu: gpu.clone(),
            raw,
            len,
            offset: 0,
            padded_tail,
            id: gpu.resource_id(),
            _element: PhantomData,
            dropping: None,
        })
    }

    /// Elements in the buffer.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the buffer holds no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the elements occupy (`len × STRIDE`).
    pub fn byte_len(&self) -> u64 {
        self.len * T::STRIDE
    }

    /// The same memory seen as elements of `U`: as many whole `U`s as the elements' bytes hold
    /// (a remainder is not part of the view). Kernels use it for wider loads, e.g. a
    /// `Buffer<u32>` read as `array<vec4<u32>>` four elements at a time, or bits passed to a
    /// binding of another kind of number on purpose (a `Buffer<u32>` as `array<f32>`, which
    /// binding the buffer itself refuses). Views of the same buffer as the same type share one
    /// identity, so bind groups made for one serve the next.
    pub fn view_as<U: Element>(&self) -> Buffer<U> {
        let len = self.byte_len() / U::STRIDE;
        Buffer {
            gpu: self.gpu.clone(),
            raw: self.raw.clone(),
            len,
            offset: self.offset,
            padded_tail: self.padded_tail && len * U::STRIDE == self.byte_len(),
            id: self.id.view((U::STRIDE, len)),
            _element: PhantomData,
            dropping: None,
        }
    }

    /// Elements `range` of this buffer as a buffer of their own: the same memory, bound, read,
    /// written, copied and cleared as those elements alone (a kernel sees `arrayLength` of the
    /// slice), so any kernel or primitive can work on part of a buffer. A slice of a slice is a
    /// slice of the buffer; dropping the buffer's other handles keeps its memory while a slice
    /// lives.
    ///
    /// wgpu copies whole 4-byte words, so the slice must start at a byte offset that is a
    /// multiple of 4 and end at one, or at the end of a buffer Shoal made (whose last word's
    /// padding is its own; [`Error::InvalidParameter`] otherwise); a range past the end is
    /// [`Error::Length`]. **Binding** a slice also needs its byte offset
    /// ([`offset`](Self::offset)) to be a multiple of
    /// [`Limits::slice_alignment`](crate::Limits::slice_alignment): 256 bytes (WebGPU's default
    /// `min_storage_buffer_offset_alignment`, what browsers give), or the device's alignment where
    /// larger, on every backend, so that a program that runs natively also runs in the browser;
    /// otherwise the dispatch is [`Error::InvalidParameter`] naming the kernel, the binding and
    /// the alignment. A slice bound beside its own buffer (or another slice of it) in one
    /// dispatch is [`Error::Aliasing`] when either is written, even where they do not overlap, as
    /// for any two bindings of one buffer.
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// let gpu = shoal::Gpu::blocking()?;
    /// let buffer = gpu.buffer_from(&(0..300u32).collect::<Vec<_>>())?;
    /// let tail = buffer.slice(256..)?; // bytes 1024.., aligned for binding on every device
    /// assert_eq!((tail.len(), tail.offset()), (44, 1024));
    /// tail.write_at(0, &[7])?;
    /// assert_eq!(buffer.read_blocking()?[255..258], [255, 7, 257]);
    /// assert_eq!(tail.read_blocking()?[..2], [7, 257]);
    /// # Ok(()) }
    /// ```
    pub fn slice(&self, range: impl std::ops::RangeBounds<u64>) -> Result<Buffer<T>> {
        use std::ops::Bound;
        let start = match range.start_bound() {
            Bound::Included(&s) => Some(s),
            Bound::Excluded(&s) => s.checked_add(1),
            Bound::Unbounded => Some(0),
        };
        let end = match range.end_bound() {
            Bound::Included(&e) => e.checked_add(1),
            Bound::Excluded(&e) => Some(e),
            Bound::Unbounded => Some(self.len),
        };
        let (start, end) = match (start, end) {
            (Some(s), Some(e)) if s <= e && e <= self.len => (s, e),
            (s, e) => {
                let shown = |b: Option<u64>| b.map_or("past u64".to_string(), |b| b.to_string());
                return Err(Error::Length {
                    what: format!(
                        "slicing elements {}..{} of a Buffer<{}> of {} elements",
                        shown(s),
                        shown(e),
                        T::type_name(),
                        self.len
                    ),
                    expected: self.len,
                    got: e.unwrap_or(u64::MAX),
                });
            }
        };
        let (first_byte, end_byte) = (start * T::STRIDE, end * T::STRIDE);
        let at_padded_end = end == self.len && self.padded_tail;
        if !first_byte.is_multiple_of(4) || !(end_byte.is_multiple_of(4) || at_padded_end) {
            return Err(Error::InvalidParameter {
                kernel: format!("Buffer<{}>::slice", T::type_name()),
                parameter: "the elements sliced".into(),
                value: format!("{start}..{end} (bytes {first_byte}..{end_byte})"),
                rule: format!(
                    "wgpu copies and binds whole 4-byte words, and elements of {} bytes starting \
                     or ending there are not: start at an element whose byte offset is a \
                     multiple of 4, and end at one or at the end of a buffer Shoal made",
                    T::STRIDE
                ),
            });
        }
        let len = end - start;
        let offset = self.offset + first_byte;
        Ok(Buffer {
            gpu: self.gpu.clone(),
            raw: self.raw.clone(),
            len,
            offset,
            padded_tail: at_padded_end,
            id: self.id.view(("slice", T::STRIDE, offset, len)),
            _element: PhantomData,
            dropping: None,
        })
    }

    /// Bytes of [`raw`](Self::raw) before the first element: 0, but for a
    /// [`slice`](Self::slice).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether whole 4-byte words cover the elements without reaching bytes that are not this
    /// buffer's: the elements end on a word, or the rest of that word is this allocation's
    /// padding. Copies into the buffer and clears of it move whole words.
    pub(crate) fn whole_words(&self) -> bool {
        self.byte_len().is_multiple_of(4) || self.padded_tail
    }

    /// The wgpu buffer, for render passes or other libraries: the whole of it, of which this
    /// buffer's elements take `byte_len()` bytes from [`offset`](Self::offset).
    pub fn raw(&self) -> &wgpu::Buffer {
        &self.raw
    }

    /// The buffer's wgpu usages.
    pub fn usage(&self) -> Usage {
        self.raw.usage()
    }

    pub(crate) fn id(&self) -> &ResourceId {
        &self.id
    }

    /// The device the buffer lives on.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// Overwrites the buffer from its start with `data` (at most [`len`](Self::len) elements).
    ///
    /// **When it takes effect:** the data goes through wgpu's queue (`Queue::write_buffer`), which
    /// copies it before the next batch submitted, ahead of that batch's work. So every batch
    /// submitted afterwards sees it, **including a [`Commands`] batch recorded before this call
    /// but submitted after it**: its dispatches read the new values, not the ones the buffer held
    /// when they were recorded. Batches submitted before the call are not affected. To change a
    /// buffer between two dispatches of one batch, record the write into the batch with
    /// [`Commands::write`] instead, which runs in the order recorded.
    ///
    /// [`Commands`]: crate::Commands
    /// [`Commands::write`]: crate::Commands::write
    pub fn write(&self, data: &[T]) -> Result<()> {
        self.write_at(0, data)
    }

    /// Overwrites elements `first..first + data.len()`.
    ///
    /// It takes effect as [`write`](Self::write) does: before every batch submitted afterwards,
    /// including one recorded before the call; [`Commands::write_at`] is the form recorded in
    /// order inside a batch. Elements past the end, or a `first` past it (even with no data), are
    /// [`Error::Length`]. wgpu copies whole 4-byte words, so
    /// for elements whose stride is not a multiple of 4 (a 2-byte `pod_element!`) the write must
    /// start at a byte offset that is a multiple of 4 and end at one or at the buffer's end
    /// (then the padding after the last element is zeroed), otherwise it is
    /// [`Error::InvalidParameter`]. A buffer without `COPY_DST` usage (one wrapped with
    /// [`from_raw`](Self::from_raw)) is [`Error::MissingUsage`].
    ///
    /// [`Commands::write_at`]: crate::Commands::write_at
    pub fn write_at(&self, first: u64, data: &[T]) -> Result<()> {
        let Some(bytes) = self.write_bytes(first, data, "Buffer::write_at")? else {
            return Ok(());
        };
        self.gpu.scoped("writing a buffer", || {
            self.gpu
                .queue()
                .write_buffer(&self.raw, self.offset + first * T::STRIDE, &bytes)
        })
    }

    /// The bytes a write of `data` at element `first` copies into the buffer (at byte
    /// `first * STRIDE`), checked and padded to whole 4-byte words; `None` when there is
    /// nothing to copy. Shared by [`write_at`](Self::write_at) and [`Commands::write_at`]; `call`
    /// names the caller in errors.
    ///
    /// [`Commands::write_at`]: crate::Commands::write_at
    pub(crate) fn write_bytes(
        &self,
        first: u64,
        data: &[T],
        call: &str,
    ) -> Result<Option<Vec<u8>>> {
        let name = || {
            format!(
                "{call} on a Buffer<{}> of {} elements",
                T::type_name(),
                self.len
            )
        };
        if first > self.len {
            // Nothing fits there, not even no elements: the message says where the end is.
            let elements = match self.len {
                0 => "it has none".to_string(),
                n => format!("elements 0 to {}", n - 1),
            };
            return Err(Error::Length {
                what: format!(
                    "writing at element {first} of a Buffer<{}> of {} elements, past its end \
                     ({elements})",
                    T::type_name(),
                    self.len
                ),
                expected: 0,
                got: data.len() as u64,
            });
        }
        if first + data.len() as u64 > self.len {
            return Err(Error::Length {
                what: format!("writing at element {first} of a Buffer<{}>", T::type_name()),
                expected: self.len - first,
                got: data.len() as u64,
            });
        }
        if data.is_empty() {
            return Ok(None);
        }
        if !self.raw.usage().contains(Usage::COPY_DST) {
            return Err(Error::MissingUsage {
                kernel: call.to_string(),
                binding: format!("the Buffer<{}> written", T::type_name()),
                usage: "COPY_DST".into(),
                has: format!("{:?}", self.raw.usage()),
                fix: "create the wgpu buffer with BufferUsages::COPY_DST before wrapping it \
                      with Buffer::from_raw (every buffer Shoal creates has it)"
                    .into(),
            });
        }
        let offset = first * T::STRIDE;
        let end = offset + data.len() as u64 * T::STRIDE;
        // Past the last element of a buffer lies padding up to a whole word, zeroed with the
        // write as `clear` does, where it is this allocation's (`padded_tail`): not where the next
        // bytes may be another element's (a view or slice short of the end) or the owner's of a
        // wrapped (`from_raw`) buffer.
        let padded = if end == self.byte_len() && self.padded_tail {
            end.next_multiple_of(4)
        } else {
            end
        };
        let beyond = self.offset + padded > self.raw.size();
        if !offset.is_multiple_of(4) || !padded.is_multiple_of(4) || beyond {
            return Err(Error::InvalidParameter {
                kernel: name(),
                parameter: "the elements written".into(),
                value: format!(
                    "{}..{} (bytes {offset}..{end})",
                    first,
                    first + data.len() as u64
                ),
                rule: format!(
                    "wgpu copies whole 4-byte words, and elements of {} bytes starting or \
                     ending there are not: start at an element whose byte offset is a multiple \
                     of 4, and end at one or at the buffer's end",
                    T::STRIDE
                ),
            });
        }
        let mut bytes = Vec::with_capacity((padded - offset) as usize);
        T::encode(data, &mut bytes)?;
        bytes.resize((padded - offset) as usize, 0);
        Ok(Some(bytes))
    }

    /// Copies every element of `src` into this buffer (same length), on the GPU.
    pub fn copy_from(&self, src: &Buffer<T>) -> Result<()> {
        let mut commands = self.gpu.commands();
        commands.copy(src, self)?;
        commands.submit()?;
        Ok(())
    }

    /// Reads every element back.
    pub async fn read(&self) -> Result<Vec<T>> {
        self.read_range(0..self.len).await
    }

    /// Reads elements `range` back.
    pub async fn read_range(&self, range: std::ops::Range<u64>) -> Result<Vec<T>> {
        if range.start > range.end || range.end > self.len {
            return Err(Error::Length {
                what: format!("reading {range:?}"),
                expected: self.len,
                got: range.end,
            });
        }
        let bytes = readback::read_bytes(
            &self.gpu,
            &self.raw,
            self.offset + range.start * T::STRIDE,
            (range.end - range.start) * T::STRIDE,
        )
        .await?;
        T::decode(&bytes)
    }

    /// Reads every element back, blocking the thread (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn read_blocking(&self) -> Result<Vec<T>> {
        pollster::block_on(self.read())
    }
}

impl<T: Element> Bindable for Buffer<T> {
    fn resource(&self) -> Resource<'_> {
        Resource::Buffer(BufferResource {
            raw: &self.raw,
            id: &self.id,
            offset: self.offset,
            bytes: self.len * T::STRIDE,
            stride: T::STRIDE,
            size: T::SIZE,
            type_name: T::type_name(),
            layout: T::LAYOUT,
            fields: T::FIELDS,
            header: 0,
        })
    }
}
