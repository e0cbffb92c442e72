//! [`Member`]: one device's side of the spread computations, with the kernel families compiled
//! for it kept from one call to the next.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use shoal::{Gpu, Result};

type Families = HashMap<(TypeId, u32), Arc<dyn Any + Send + Sync>>;

/// A device taking part in spread computations: its [`Gpu`] and the kernel families (sorts,
/// scans, reductions) compiled for it on first use and kept, so a second call compiles nothing.
/// Cheap to clone: clones share the families.
#[derive(Clone)]
pub struct Member {
    gpu: Gpu,
    families: Arc<Mutex<Families>>,
}

impl std::fmt::Debug for Member {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Member")
            .field("gpu", &self.gpu)
            .finish_non_exhaustive()
    }
}

impl Member {
    /// A member driving `gpu`.
    pub fn new(gpu: Gpu) -> Self {
        Self {
            gpu,
            families: Arc::default(),
        }
    }

    /// Its device.
    pub fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    /// The family of type `F` made with `variant` (an order, say), made by `make` the first time.
    pub(crate) fn family<F: Any + Send + Sync>(
        &self,
        variant: u32,
        make: impl FnOnce(&Gpu) -> Result<F>,
    ) -> Result<Arc<F>> {
        let key = (TypeId::of::<F>(), variant);
        let found = self
            .families
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
            .cloned();
        if let Some(f) = found.and_then(|f| f.downcast::<F>().ok()) {
            return Ok(f);
        }
        // Made outside the lock: compiling takes long, and other threads may want other families.
        let made = Arc::new(make(&self.gpu)?);
        self.families
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key, made.clone());
        Ok(made)
    }
}
