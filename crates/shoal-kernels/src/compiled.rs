//! [`Compiled`]: the kernels a family compiles on first use, kept by key and listed in the order
//! they were compiled, so that [`shoal::Family::kernels`] can lend each for as long as the family
//! lives (a map behind a lock could only lend them while locked).

use std::sync::{Mutex, OnceLock};

use shoal::{Kernel, Result};

use crate::wgsl;

/// Kernels by key, compiled on first use and never dropped before the family: a chain whose
/// links are set once, so a reference to a kept kernel stays valid while more are added.
pub(crate) struct Compiled<K> {
    head: OnceLock<Box<Link<K>>>,
    /// Held while a kernel is compiled and added: one compilation per key, one writer per link.
    adding: Mutex<()>,
}

/// One kept kernel and the link after it.
struct Link<K> {
    key: K,
    kernel: Kernel,
    next: OnceLock<Box<Link<K>>>,
}

impl<K> Default for Compiled<K> {
    fn default() -> Self {
        Self {
            head: OnceLock::new(),
            adding: Mutex::new(()),
        }
    }
}

impl<K> std::fmt::Debug for Compiled<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled")
            .field("kernels", &self.all().len())
            .finish()
    }
}

impl<K: PartialEq> Compiled<K> {
    /// The kernel kept for `key`, or the one `build` compiles, kept from now on.
    pub(crate) fn get_or_build(
        &self,
        key: K,
        build: impl FnOnce() -> Result<Kernel>,
    ) -> Result<Kernel> {
        if let Some(kernel) = self.find(&key) {
            return Ok(kernel.clone());
        }
        let _adding = self.adding.lock().map_err(|_| wgsl::poisoned())?;
        // Another caller may have added it while this one waited.
        if let Some(kernel) = self.find(&key) {
            return Ok(kernel.clone());
        }
        let kernel = build()?;
        let mut slot = &self.head;
        while let Some(link) = slot.get() {
            slot = &link.next;
        }
        // Only the holder of `adding` sets a link, and the last one is empty.
        let _ = slot.set(Box::new(Link {
            key,
            kernel: kernel.clone(),
            next: OnceLock::new(),
        }));
        Ok(kernel)
    }

    fn find(&self, key: &K) -> Option<&Kernel> {
        self.links()
            .find(|link| link.key == *key)
            .map(|link| &link.kernel)
    }
}

impl<K> Compiled<K> {
    /// Every kept kernel, in the order they were compiled.
    pub(crate) fn all(&self) -> Vec<&Kernel> {
        self.links().map(|link| &link.kernel).collect()
    }

    fn links(&self) -> impl Iterator<Item = &Link<K>> {
        std::iter::successors(self.head.get(), |link| link.next.get()).map(|link| &**link)
    }
}
