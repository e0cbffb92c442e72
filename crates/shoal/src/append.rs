//! [`AppendBuffer<T>`]: Direct3D's append and consume buffers (the Direct3D 12 book, §13.5) on any adapter — an
//! array and an atomic counter in one binding, filled and drained by kernels in no particular
//! order, with the WGSL side in `wgsl/shared/append.wgsl` (`#import shoal::append(name, T)`).
//!
//! The buffer never grows. An append past the capacity writes nothing but is still counted, so
//! reading the count afterwards is [`Error::AppendOverflow`] with the number attempted. The count
//! can become the next dispatch's size on the GPU ([`AppendBuffer::record_dispatch_args`]),
//! without a readback.

use std::marker::PhantomData;
use std::sync::{Arc, Mutex, OnceLock};

use crate::binding::{Bindable, BufferResource, Resource};
use crate::buffer::{Buffer, Usage};
use crate::commands::Commands;
use crate::dispatch::DispatchArgs;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::gpu::Gpu;
use crate::identity::ResourceId;
use crate::kernel::Kernel;
use crate::readback;
use crate::size;

/// Bytes before the items: `count: atomic<i32>`, `capacity: u32` and two padding words, so the
/// items start at byte 16 whatever their type (vec4 and vec3 items are 16-aligned).
pub(crate) const HEADER: u64 = 16;

/// An append/consume buffer of at most `capacity` items of `T`.
///
/// In WGSL, `#import shoal::append(out, T)` and declare the binding
/// `var<storage, read_write> out: ShoalAppend_out;`; then `out_append(value)` and
/// `out_consume(&value)` return whether they succeeded. Cheap to clone: clones share the buffer.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// let gpu = shoal::Gpu::blocking()?;
/// let evens = gpu.append_buffer::<u32>(16)?;
/// let kernel = gpu.kernel("
/// #import shoal::append(evens, u32)
/// @group(0) @binding(0) var<storage, read_write> evens: ShoalAppend_evens;
/// @compute @workgroup_size(16)
/// fn keep(@builtin(global_invocation_id) id: vec3<u32>) {
///     if id.x % 2u == 0u { evens_append(id.x); }
/// }")?;
/// kernel.bind("evens", &evens).invocations(16).run()?;
/// let mut got = evens.read_blocking()?; // in the order the invocations appended
/// got.sort();
/// assert_eq!(got, [0, 2, 4, 6, 8, 10, 12, 14]);
/// # Ok(()) }
/// ```
pub struct AppendBuffer<T> {
    gpu: Gpu,
    raw: wgpu::Buffer,
    capacity: u64,
    id: ResourceId,
    /// The header alone as `array<u32, 4>`, for the dispatch-arguments kernel.
    header: Buffer<u32>,
    args_kernel: Arc<OnceLock<Kernel>>,
    /// The dispatch-arguments kernel's parameters, one uniform per `items_per_group` asked
    /// for: made on the first call with it and bound again after, not made per call.
    args_params: Arc<Mutex<Vec<ArgsParams>>>,
    _item: PhantomData<fn() -> T>,
}

impl<T> Clone for AppendBuffer<T> {
    fn clone(&self) -> Self {
        Self {
            gpu: self.gpu.clone(),
            raw: self.raw.clone(),
            capacity: self.capacity,
            id: self.id.share(),
            header: self.header.clone(),
            args_kernel: Arc::clone(&self.args_kernel),
            args_params: Arc::clone(&self.args_params),
            _item: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for AppendBuffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppendBuffer")
            .field("item", &std::any::type_name::<T>())
            .field("capacity", &self.capacity)
            .finish()
    }
}

impl Gpu {
    /// An empty append buffer for `capacity` items.
    pub fn append_buffer<T: Element>(&self, capacity: u64) -> Result<AppendBuffer<T>> {
        let what = || {
            format!(
                "creating an AppendBuffer<{}> of {capacity} items",
                T::type_name()
            )
        };
        let limits = self.limits();
        // One binding sees the whole buffer, so the binding limit bounds it, and the buffer limit
        // too where a device has it lower.
        let (limit_name, limit) = if limits.max_buffer_size < limits.max_storage_buffer_binding_size
        {
            ("max_buffer_size", limits.max_buffer_size)
        } else {
            (
                "max_storage_buffer_binding_size",
                limits.max_storage_buffer_binding_size,
            )
        };
        let bytes = size::within(what, capacity.max(1), T::STRIDE, HEADER, limit_name, limit)?;
        let raw = self.scoped("creating an append buffer", || {
            self.device().create_buffer(&wgpu::BufferDescriptor {
                label: Some(T::type_name()),
                size: bytes.next_multiple_of(4),
                usage: Usage::STORAGE | Usage::COPY_SRC | Usage::COPY_DST,
                mapped_at_creation: false,
            })
        })?;
        let header = Buffer::from_raw(self, raw.clone(), HEADER / 4)?;
        let buffer = AppendBuffer {
            gpu: self.clone(),
            raw,
            capacity,
            id: header.id().view("append"),
            header,
            args_kernel: Arc::new(OnceLock::new()),
            args_params: Arc::default(),
            _item: PhantomData,
        };
        buffer.set_count(0)?;
        Ok(buffer)
    }

    /// An append buffer for `capacity` items holding `items` (to be consumed).
    pub fn append_buffer_from<T: Element>(
        &self,
        items: &[T],
        capacity: u64,
    ) -> Result<AppendBuffer<T>> {
        let buffer = self.append_buffer(capacity)?;
        buffer.fill(items)?;
        Ok(buffer)
    }
}

impl<T: Element> AppendBuffer<T> {
    /// Items it can hold.
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// The wgpu buffer: the 16-byte header (count, capacity), then the items.
    pub fn raw(&self) -> &wgpu::Buffer {
        &self.raw
    }

    /// Empties the buffer (the count becomes 0; the items stay but are no longer counted).
    ///
    /// Like [`Buffer::write`], this goes through wgpu's queue: it takes effect before every batch
    /// submitted afterwards, **including a [`Commands`] batch recorded before this call** (its
    /// dispatches see the buffer empty, not what it held when they were recorded). To empty it
    /// between two dispatches of one batch, use [`record_clear`](Self::record_clear).
    pub fn clear(&self) -> Result<()> {
        self.set_count(0)
    }

    /// Records emptying the buffer into `commands`, in the batch's order: dispatches recorded
    /// before it see the items appended so far, those recorded after it an empty buffer (the
    /// in-order form of [`clear`](Self::clear)). An append buffer of another `Gpu` is
    /// [`Error::WrongGpu`].
    pub fn record_clear(&self, commands: &mut Commands) -> Result<()> {
        commands
            .gpu()
            .check_owner(|| "an append buffer to clear".into(), self.id.gpu())?;
        // The count is the header's first word; the capacity after it stays.
        commands.clear_words(&self.raw, 0, 4);
        Ok(())
    }

    /// Replaces the contents by `items` (at most the capacity), ready to be consumed.
    ///
    /// It takes effect as [`clear`](Self::clear) does: before every batch submitted afterwards,
    /// including one recorded before the call. To fill the buffer between two dispatches of one
    /// batch, use [`record_fill`](Self::record_fill). More items than the capacity are
    /// [`Error::AppendOverflow`], and nothing is written.
    pub fn fill(&self, items: &[T]) -> Result<()> {
        let bytes = self.filled(items)?;
        self.gpu.scoped("filling an append buffer", || {
            self.gpu.queue().write_buffer(&self.raw, 0, &bytes)
        })
    }

    /// Records replacing the contents by `items` into `commands`, in the batch's order:
    /// dispatches recorded before it see what they appended, those recorded after it exactly
    /// `items` (the in-order form of [`fill`](Self::fill)). More items than the capacity are
    /// [`Error::AppendOverflow`] and an append buffer of another `Gpu` [`Error::WrongGpu`];
    /// either way nothing is recorded.
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// let gpu = shoal::Gpu::blocking()?;
    /// let queue = gpu.append_buffer::<u32>(8)?;
    /// let mut commands = gpu.commands();
    /// queue.record_fill(&mut commands, &[7, 8, 9])?;
    /// commands.submit()?.wait_blocking()?;
    /// assert_eq!(queue.read_blocking()?, [7, 8, 9]);
    /// # Ok(()) }
    /// ```
    pub fn record_fill(&self, commands: &mut Commands, items: &[T]) -> Result<()> {
        commands
            .gpu()
            .check_owner(|| "an append buffer to fill".into(), self.id.gpu())?;
        let bytes = self.filled(items)?;
        commands.write_raw(&self.raw, 0, &bytes)
    }

    /// The bytes of the buffer holding `items`: the header with their count, then the items,
    /// padded to a whole word (the buffer is); more than the capacity is
    /// [`Error::AppendOverflow`].
    fn filled(&self, items: &[T]) -> Result<Vec<u8>> {
        if items.len() as u64 > self.capacity {
            return Err(Error::AppendOverflow {
                what: format!(
                    "filling an AppendBuffer<{}> (nothing was written)",
                    T::type_name()
                ),
                capacity: self.capacity,
                attempted: items.len() as u64,
            });
        }
        let mut bytes = bytemuck::cast_slice(&self.header_words(items.len() as u32)).to_vec();
        T::encode(items, &mut bytes)?;
        bytes.resize(bytes.len().next_multiple_of(4), 0);
        Ok(bytes)
    }

    /// The header's words for `count` items.
    fn header_words(&self, count: u32) -> [u32; 4] {
        [count, self.capacity.min(u32::MAX as u64) as u32, 0, 0]
    }

    /// Sets the count (and rewrites the capacity) through wgpu's queue: it takes effect before
    /// every batch submitted afterwards, as [`clear`](Self::clear) says.
    fn set_count(&self, count: u32) -> Result<()> {
        let header = self.header_words(count);
        self.gpu.scoped("writing an append buffer's counter", || {
            self.gpu
                .queue()
                .write_buffer(&self.raw, 0, bytemuck::cast_slice(&header))
        })
    }

    /// Reads how many items the buffer holds. If kernels appended more than the capacity, the
    /// excess was not written and this is [`Error::AppendOverflow`] with the number attempted.
    pub async fn count(&self) -> Result<u64> {
        let bytes = readback::read_bytes(&self.gpu, &self.raw, 0, 4).await?;
        let count = i32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]).max(0) as u64;
        if count > self.capacity {
            return Err(Error::AppendOverflow {
                what: format!(
                    "AppendBuffer<{}>: kernels appended past its capacity, and the items beyond \
                     it were not written",
                    T::type_name()
                ),
                capacity: self.capacity,
                attempted: count,
            });
        }
        Ok(count)
    }

    /// Reads the items the buffer holds (in the order their slots were taken: any order).
    pub async fn read(&self) -> Result<Vec<T>> {
        let count = self.count().await?;
        let bytes = readback::read_bytes(&self.gpu, &self.raw, HEADER, count * T::STRIDE).await?;
        T::decode(&bytes)
    }

    /// Reads the items, blocking the thread (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn read_blocking(&self) -> Result<Vec<T>> {
        pollster::block_on(self.read())
    }

    /// Records, into `commands`, a one-invocation kernel that turns the count the GPU holds at
    /// that point into `ceil(count / items_per_group)` work groups in `args` (element 0), folded
    /// over y beyond `MAX_COMPUTE_WORK_GROUP_COUNT` as [`Dispatch::invocations`] does. A dispatch
    /// recorded after it with `.indirect(&args, 0)` sizes itself to what was appended, without
    /// a readback. `args` needs `Usage::STORAGE | Usage::INDIRECT`.
    ///
    /// Where the capacity needs more than `MAX_COMPUTE_WORK_GROUP_COUNT` groups, the kernel
    /// dispatched with them must not depend on its x position alone: it consumes its items (as
    /// the particles' update does) or rebuilds its index with `shoal_linear_index`. The count is
    /// on the GPU, so unlike `.invocations(n)` Shoal cannot refuse such a dispatch for it.
    ///
    /// [`Dispatch::invocations`]: crate::Dispatch::invocations
    pub fn record_dispatch_args(
        &self,
        commands: &mut Commands,
        args: &Buffer<DispatchArgs>,
        items_per_group: u32,
    ) -> Result<()> {
        let max = self.gpu.limits().max_compute_work_group_count;
        let groups = self.capacity.div_ceil(items_per_group.max(1) as u64);
        if groups > max[0] as u64 * max[1] as u64 {
            return Err(Error::TooManyGroups {
                kernel: "append_dispatch_args".into(),
                groups: [
                    max[0],
                    groups.div_ceil(max[0].max(1) as u64).min(u32::MAX as u64) as u32,
                    1,
                ],
                dimension: 1,
                limit: max[1],
                remedy: "give each work group more items (items_per_group)".into(),
            });
        }
        let kernel = match self.args_kernel.get() {
            Some(k) => k,
            None => {
                let built = self
                    .gpu
                    .kernel(crate::wgsl!("../wgsl/core/append_dispatch_args.wgsl"))?;
                self.args_kernel.get_or_init(|| built)
            }
        };
        let params = self.args_params(items_per_group.max(1), max[0])?;
        kernel
            .bind("header", &self.header)
            .bind("params", &params)
            .bind("args", args)
            .groups([1, 1, 1])
            .record(commands)
    }
}

/// The dispatch-arguments kernel's parameters for one `items_per_group`.
type ArgsParams = (u32, Buffer<glam::UVec4>);

impl<T> AppendBuffer<T> {
    /// The uniform of [`record_dispatch_args`](Self::record_dispatch_args) for
    /// `items_per_group` on a device of `max_x` groups per dimension, made once.
    fn args_params(&self, items_per_group: u32, max_x: u32) -> Result<Buffer<glam::UVec4>> {
        // A list a panic cannot leave half-changed: a poisoned lock's is whole.
        let mut made = self
            .args_params
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, params)) = made.iter().find(|(per, _)| *per == items_per_group) {
            return Ok(params.clone());
        }
        let params = self
            .gpu
            .uniform(&glam::UVec4::new(items_per_group, max_x, 0, 0))?;
        made.push((items_per_group, params.clone()));
        Ok(params)
    }

    /// How many parameter uniforms the dispatch-arguments kernel has made (for tests).
    #[cfg(all(test, not(target_arch = "wasm32")))]
    pub(crate) fn args_params_made(&self) -> usize {
        self.args_params.lock().map_or(0, |m| m.len())
    }
}

impl<T: Element> Bindable for AppendBuffer<T> {
    fn resource(&self) -> Resource<'_> {
        Resource::Buffer(BufferResource {
            raw: &self.raw,
            id: &self.id,
            offset: 0,
            bytes: HEADER + self.capacity.max(1) * T::STRIDE,
            stride: T::STRIDE,
            size: T::SIZE,
            type_name: T::type_name(),
            layout: T::LAYOUT,
            fields: T::FIELDS,
            header: HEADER,
        })
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use crate::{DispatchArgs, Gpu, Usage};

    #[test]
    fn dispatch_args_reuse_their_parameters_and_size_each_count() {
        let gpu = Gpu::blocking().expect("device");
        let items = gpu.append_buffer::<u32>(1000).expect("append buffer");
        let args = gpu
            .buffer_zeroed_with::<DispatchArgs>(1, Usage::STORAGE | Usage::INDIRECT)
            .expect("args");
        // The arguments the GPU writes for the count it holds, `per` items per group.
        let args_for = |per: u32| {
            let mut commands = gpu.commands();
            items
                .record_dispatch_args(&mut commands, &args, per)
                .expect("args");
            commands
                .submit()
                .expect("submit")
                .wait_blocking()
                .expect("wait");
            args.read_blocking().expect("read")[0]
        };
        for (round, count) in [0u32, 1, 63, 64, 65, 1000].into_iter().enumerate() {
            items.fill(&vec![7; count as usize]).expect("fill");
            let got = args_for(64);
            assert_eq!(
                (got.x, got.y, got.z),
                (count.div_ceil(64), 1, 1),
                "{count} items"
            );
            assert_eq!(
                items.args_params_made(),
                1,
                "round {round}: one uniform, reused"
            );
        }
        assert_eq!(args_for(32).x, 1000u32.div_ceil(32));
        assert_eq!(items.args_params_made(), 2, "another size, another uniform");
    }
}
