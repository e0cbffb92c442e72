//! Identities the core allocates: which [`Gpu`](crate::Gpu) a resource belongs to, and the key
//! of each resource in a kernel's bind-group cache.
//!
//! Both are handed out by counters in this module only. A [`ResourceId`] cannot be made, copied
//! or cloned outside Shoal: a custom [`Bindable`](crate::Bindable) asks its `Gpu` for one
//! ([`Gpu::resource_id`](crate::Gpu::resource_id)) and keeps it, so its cache key can never be
//! another resource's, and binding it to a kernel of another `Gpu` is
//! [`Error::WrongGpu`](crate::Error::WrongGpu) instead of a panic inside wgpu.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::bind_cache::Liveness;

static NEXT_GPU: AtomicU64 = AtomicU64::new(1);
static NEXT_RESOURCE: AtomicU64 = AtomicU64::new(1);

/// Which `Gpu` made something: its serial number and its adapter's name, for messages.
#[derive(Debug, Clone)]
pub(crate) struct GpuTag {
    serial: u64,
    adapter: Arc<str>,
}

impl GpuTag {
    /// A tag for a newly assembled `Gpu`.
    pub(crate) fn new(adapter: &str) -> Self {
        Self {
            serial: NEXT_GPU.fetch_add(1, Ordering::Relaxed),
            adapter: adapter.into(),
        }
    }
}

impl PartialEq for GpuTag {
    fn eq(&self, other: &Self) -> bool {
        self.serial == other.serial
    }
}

impl std::fmt::Display for GpuTag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Gpu #{} ({})", self.serial, self.adapter)
    }
}

/// The identity of one GPU resource: the `Gpu` that made it and its key in the bind-group
/// caches. Made only by Shoal ([`Gpu::resource_id`](crate::Gpu::resource_id) for custom
/// [`Bindable`](crate::Bindable)s); neither `Clone` nor `Copy`, so it cannot be duplicated.
/// Dropping the last identity of a resource (Shoal's handles share one per allocation) takes
/// the resource out of every kernel's bind-group cache.
#[derive(Debug)]
pub struct ResourceId {
    gpu: GpuTag,
    serial: u64,
    /// The serial of the GPU allocation: the same for every view of one buffer.
    memory: u64,
    /// Shared by every identity of the allocation (clones, views): dropped with the last, it
    /// takes the resource out of every kernel's bind-group cache (`bind_cache.rs`).
    live: Arc<Liveness>,
}

impl ResourceId {
    pub(crate) fn new(gpu: &GpuTag) -> Self {
        let serial = NEXT_RESOURCE.fetch_add(1, Ordering::Relaxed);
        Self {
            gpu: gpu.clone(),
            serial,
            memory: serial,
            live: Arc::default(),
        }
    }

    /// The same identity, for clones of one resource (which are the same GPU object).
    pub(crate) fn share(&self) -> Self {
        Self {
            gpu: self.gpu.clone(),
            serial: self.serial,
            memory: self.memory,
            live: Arc::clone(&self.live),
        }
    }

    /// The identity of a view of the same memory, the same for every view made with `key`
    /// (so bind groups made for one view serve the next), never a counter's identity.
    pub(crate) fn view(&self, key: impl std::hash::Hash) -> Self {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::hash::DefaultHasher::new();
        (self.serial, key).hash(&mut hasher);
        Self {
            gpu: self.gpu.clone(),
            // The counter's identities never reach the top bit.
            serial: hasher.finish() | 1 << 63,
            memory: self.memory,
            live: Arc::clone(&self.live),
        }
    }

    /// Whether both name the same GPU memory (a resource and its views).
    pub(crate) fn same_memory(&self, other: &Self) -> bool {
        self.memory == other.memory
    }

    pub(crate) fn gpu(&self) -> &GpuTag {
        &self.gpu
    }

    pub(crate) fn serial(&self) -> u64 {
        self.serial
    }

    /// The allocation's liveness token, shared by all its identities.
    pub(crate) fn live(&self) -> &Arc<Liveness> {
        &self.live
    }
}

impl PartialEq for ResourceId {
    fn eq(&self, other: &Self) -> bool {
        self.serial == other.serial
    }
}
