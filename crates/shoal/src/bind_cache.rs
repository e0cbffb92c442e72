//! A kernel's bind-group cache ([`BindCache`]) and the liveness token ([`Liveness`]) every
//! handle of one GPU resource shares, so that a resource whose last handle is dropped leaves
//! every cache at once instead of being kept alive by its bind groups.
//!
//! A `wgpu::BindGroup` holds the buffers, views and samplers it binds (wgpu-core keeps an `Arc`
//! of each in the group), so a cached group would keep a dropped buffer's memory for as long as
//! the kernel lives. Each cache entry therefore holds weak references to the tokens of the
//! resources it binds, and each token remembers (weakly) the caches it is in. When the last
//! handle of a resource drops — a [`Buffer`](crate::Buffer) and all its clones and views, an
//! [`Image`](crate::Image), a [`Sampler`](crate::Sampler), a custom
//! [`Bindable`](crate::Bindable)'s [`ResourceId`](crate::ResourceId) — its token drops and
//! removes the entries that bind it from those caches, dropping their bind groups.
//!
//! Dropping a bind group is safe whatever the GPU is doing: wgpu-core's passes keep an `Arc` of
//! every bind group they set (`ArcComputeCommand::SetBindGroup`), the encoder's tracker keeps
//! them until submission, and a submission in flight keeps its trackers (`EncoderInFlight`)
//! until the device has finished it; the buffer is destroyed when its last `Arc` goes. So
//! recorded [`Commands`](crate::Commands) and submitted work keep what they use.
//!
//! Locks: the cache's map and a token's list are never held together (a token's drop owns its
//! list); on GL the entries are dropped on the turn (`wait.rs`), which the cache takes itself.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};

use crate::binding::Resource;
use crate::turn::{Turn, TurnLock};

/// Bind groups kept per kernel, keyed by the identities of the bound resources.
const BIND_CACHE: usize = 64;

/// The bind groups for one set of resources in one filtering variant.
pub(crate) type Groups = Arc<Vec<wgpu::BindGroup>>;

/// Shared by every handle of one GPU resource; see the module's documentation.
#[derive(Default)]
pub(crate) struct Liveness {
    /// The caches holding an entry that binds this resource (some may be gone).
    caches: Mutex<Vec<Weak<BindCache>>>,
}

impl std::fmt::Debug for Liveness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Liveness")
    }
}

impl Liveness {
    /// Remembers that `cache` holds an entry binding this resource.
    fn register(&self, cache: &Arc<BindCache>) {
        let mut caches = self.caches.lock().unwrap_or_else(|e| e.into_inner());
        if caches
            .iter()
            .any(|c| std::ptr::eq(c.as_ptr(), Arc::as_ptr(cache)))
        {
            return;
        }
        // Kernels dropped since: their entries are gone with them.
        caches.retain(|c| c.strong_count() > 0);
        caches.push(Arc::downgrade(cache));
    }
}

impl Drop for Liveness {
    fn drop(&mut self) {
        let caches = std::mem::take(self.caches.get_mut().unwrap_or_else(|e| e.into_inner()));
        for cache in caches {
            if let Some(cache) = cache.upgrade() {
                cache.purge();
            }
        }
    }
}

/// One cached set of bind groups and the resources it holds.
struct Entry {
    groups: Groups,
    holds: Vec<Weak<Liveness>>,
}

impl Entry {
    fn alive(&self) -> bool {
        self.holds.iter().all(|l| l.strong_count() > 0)
    }
}

/// A kernel's bind groups, keyed by the identities of the bound resources and the filtering
/// variant; entries leave when a resource they bind is dropped (see the module).
pub(crate) struct BindCache {
    entries: Mutex<HashMap<Vec<u64>, Entry>>,
    /// The GL turn (`None` elsewhere), taken while entries drop.
    turn: Option<Arc<TurnLock>>,
}

impl BindCache {
    /// An empty cache; `turn` is the `Gpu`'s GL turn, if any.
    pub(crate) fn new(turn: Option<Arc<TurnLock>>) -> Arc<Self> {
        Arc::new(Self {
            entries: Mutex::new(HashMap::new()),
            turn,
        })
    }

    fn turn(&self) -> Turn {
        match &self.turn {
            Some(lock) => TurnLock::take(lock),
            None => Turn::none(),
        }
    }

    /// The groups cached for `key`, if any: a hash lookup (the hot path).
    pub(crate) fn get(&self, key: &[u64]) -> Option<Groups> {
        let entries = self.entries.lock().ok()?;
        entries.get(key).map(|e| Arc::clone(&e.groups))
    }

    /// Caches `groups` for `key`, made for `resources` (which are alive: they are borrowed).
    pub(crate) fn insert(self: &Arc<Self>, key: Vec<u64>, groups: Groups, resources: &[Resource]) {
        let holds = resources
            .iter()
            .map(|r| {
                let live = r.identity().live();
                live.register(self);
                Arc::downgrade(live)
            })
            .collect();
        // Taken first, so released after the entries dropped below.
        let _turn = self.turn();
        if let Ok(mut entries) = self.entries.lock() {
            entries.retain(|_, e| e.alive());
            if entries.len() >= BIND_CACHE {
                entries.clear();
            }
            entries.insert(key, Entry { groups, holds });
        }
    }

    /// Drops the entries that bind a resource no handle holds any more.
    fn purge(&self) {
        let _turn = self.turn();
        if let Ok(mut entries) = self.entries.lock() {
            entries.retain(|_, e| e.alive());
        }
    }
}

impl Drop for BindCache {
    fn drop(&mut self) {
        // Whoever drops the last handle (a kernel, or a token purging this cache meanwhile),
        // the bind groups go on the turn.
        let _turn = self.turn();
        self.entries
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }
}
