//! [`Group`]: several devices in one process, the buffers spread over them, and the threads
//! that run one member of a computation per device.

use std::sync::{Arc, Mutex};

use shoal::{Buffer, Element, Error, Gpu, GpuOptions, Result};

use crate::local::Local;
use crate::member::Member;
use crate::part::{Part, Spread};

/// Several devices driven by one process: every adapter of some backends, or one adapter opened
/// several times (each a device of its own, which is how one machine tests several).
///
/// A computation over a [`Spread`] runs one thread per part, each driving its own device and
/// meeting the others through host memory ([`Local`]). On Vulkan, Metal and DX12 the devices
/// work at once: each thread records, submits and reads back on its own device. GL devices of
/// one process take turns: wgpu's GL backend holds one context lock per device and each
/// llvmpipe submission runs its kernels inside the call, so a group holding a GL device runs
/// each member's device work while holding one lock of the group (the members still meet at
/// every collective; only their device work is one at a time).
#[derive(Debug, Clone)]
pub struct Group {
    gpus: Vec<Gpu>,
    /// One per device, keeping its compiled kernel families.
    members: Vec<Member>,
    /// Held around each member's device work when a device is GL.
    turn: Option<Arc<Mutex<()>>>,
}

impl Group {
    /// A group of `gpus`, device `i` holding part `i` of every [`Spread`]. An empty list is
    /// [`Error::InvalidParameter`].
    pub fn new(gpus: Vec<Gpu>) -> Result<Self> {
        if gpus.is_empty() {
            return Err(Error::InvalidParameter {
                kernel: "Group".into(),
                parameter: "gpus".into(),
                value: "none".into(),
                rule: "a group holds at least one Gpu".into(),
            });
        }
        let gl = gpus
            .iter()
            .any(|g| g.adapter_details().backend == shoal::wgpu::Backend::Gl);
        Ok(Self {
            members: gpus.iter().cloned().map(Member::new).collect(),
            gpus,
            turn: gl.then(Arc::default),
        })
    }

    /// The adapter `options` choose (as [`Gpu::with_options`] does) opened `n` times: `n`
    /// devices, each with its own queue and memory.
    pub fn same_adapter(n: usize, options: GpuOptions) -> Result<Self> {
        let gpus = (0..n)
            .map(|_| pollster::block_on(Gpu::with_options(options.clone())))
            .collect::<Result<Vec<_>>>()?;
        Self::new(gpus)
    }

    /// A device on every adapter of `backends` (e.g. `wgpu::Backends::VULKAN`), best first as
    /// [`Gpu::new`] ranks them; no adapter is [`Error::NoAdapter`].
    pub fn every_adapter(backends: shoal::wgpu::Backends) -> Result<Self> {
        let mut desc = shoal::wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        desc.backends = backends;
        let instance = shoal::wgpu::Instance::new(desc);
        let adapters = pollster::block_on(instance.enumerate_adapters(backends));
        if adapters.is_empty() {
            return Err(Error::NoAdapter {
                requested: format!("{backends:?}"),
                found: Vec::new(),
            });
        }
        let gpus = adapters
            .into_iter()
            .map(|a| pollster::block_on(Gpu::from_adapter(Some(instance.clone()), a)))
            .collect::<Result<Vec<_>>>()?;
        Self::new(gpus)
    }

    /// The first `n` devices (at least one) as a group of their own, sharing their compiled
    /// kernels and their GL turn with this group.
    pub fn first(&self, n: usize) -> Result<Self> {
        let n = n.min(self.gpus.len());
        let mut group = Self::new(self.gpus[..n].to_vec())?;
        group.members = self.members[..n].to_vec();
        group.turn = self.turn.clone();
        Ok(group)
    }

    /// Its devices' members, in part order (each keeps the kernels compiled for its device).
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// Its devices, in part order.
    pub fn gpus(&self) -> &[Gpu] {
        &self.gpus
    }

    /// How many devices.
    pub fn len(&self) -> usize {
        self.gpus.len()
    }

    /// Never true (a group holds a device); for symmetry with [`len`](Self::len).
    pub fn is_empty(&self) -> bool {
        self.gpus.is_empty()
    }

    /// `data` uploaded in parts of `lens` elements, part `i` to device `i`: one length per device
    /// summing to `data.len()`, else [`Error::Length`].
    pub fn split<T: Element>(&self, data: &[T], lens: &[u64]) -> Result<Spread<T>> {
        if lens.len() != self.gpus.len() {
            return Err(Error::Length {
                what: "spreading a buffer: part lengths (one per device of the group)".into(),
                expected: self.gpus.len() as u64,
                got: lens.len() as u64,
            });
        }
        let total: u64 = lens.iter().sum();
        if total != data.len() as u64 {
            return Err(Error::Length {
                what: "spreading a buffer: the parts' lengths in all".into(),
                expected: data.len() as u64,
                got: total,
            });
        }
        let mut start = 0u64;
        let mut parts = Vec::with_capacity(lens.len());
        for (gpu, &len) in self.gpus.iter().zip(lens) {
            let slice = &data[start as usize..(start + len) as usize];
            parts.push(Part::new(gpu.buffer_from(slice)?, start));
            start += len;
        }
        Ok(Spread { parts })
    }

    /// `data` uploaded in parts as even as can be (the first parts one longer).
    pub fn split_even<T: Element>(&self, data: &[T]) -> Result<Spread<T>> {
        self.split(data, &even(data.len() as u64, self.gpus.len()))
    }

    /// A spread of buffers already on the devices, `buffers[i]` on device `i`, one after another
    /// in the whole. A buffer of another device (another group's, or in the wrong place) is
    /// [`Error::WrongGpu`]; a count other than one per device [`Error::Length`].
    pub fn spread<T: Element>(&self, buffers: Vec<Buffer<T>>) -> Result<Spread<T>> {
        if buffers.len() != self.gpus.len() {
            return Err(Error::Length {
                what: "spreading buffers (one per device of the group)".into(),
                expected: self.gpus.len() as u64,
                got: buffers.len() as u64,
            });
        }
        let mut start = 0;
        let mut parts = Vec::with_capacity(buffers.len());
        for (i, (gpu, buffer)) in self.gpus.iter().zip(buffers).enumerate() {
            gpu.check_same(buffer.gpu(), &format!("part {i} of a spread buffer"))?;
            let len = buffer.len();
            parts.push(Part::new(buffer, start));
            start += len;
        }
        Ok(Spread { parts })
    }

    /// Checks that `spread`'s parts are on this group's devices, in order.
    pub(crate) fn check<T: Element>(&self, spread: &Spread<T>) -> Result<()> {
        if spread.parts.len() != self.gpus.len() {
            return Err(Error::Length {
                what: "a spread buffer's parts (one per device of the group)".into(),
                expected: self.gpus.len() as u64,
                got: spread.parts.len() as u64,
            });
        }
        for (i, (gpu, part)) in self.gpus.iter().zip(&spread.parts).enumerate() {
            gpu.check_same(part.gpu(), &format!("part {i} of a spread buffer"))?;
        }
        Ok(())
    }

    /// Runs `member` once per device, each on its own thread with its rank's endpoint, and
    /// returns their results in rank order (or the error they agreed on).
    pub fn run<R: Send>(
        &self,
        member: impl Fn(&Local, usize) -> Result<R> + Sync,
    ) -> Result<Vec<R>> {
        let endpoints = Local::endpoints(self.gpus.len(), self.turn.clone());
        let results: Vec<Result<R>> = std::thread::scope(|scope| {
            let member = &member;
            let handles: Vec<_> = endpoints
                .into_iter()
                .enumerate()
                .map(|(rank, comm)| scope.spawn(move || member(&comm, rank)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        });
        results.into_iter().collect()
    }
}

/// `n` elements in `parts` parts as even as can be, the first ones one longer.
pub fn even(n: u64, parts: usize) -> Vec<u64> {
    let parts = parts.max(1) as u64;
    (0..parts)
        .map(|i| n / parts + u64::from(i < n % parts))
        .collect()
}
