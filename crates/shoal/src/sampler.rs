//! [`Sampler`]: how a kernel's `textureSampleLevel` reads an [`Image`](crate::Image).
//!
//! Whether a sampler filters decides the layout of the textures sampled with it: a filtering
//! sampler needs a filterable texture, and 32-bit float formats are filterable only with the
//! `FLOAT32_FILTERABLE` feature. Shoal derives that pairing from the kernel's WGSL and the
//! sampler bound at dispatch (see [`Kernel`](crate::Kernel)), so the same kernel samples an
//! `rgba8unorm` image linearly and an `r32float` image with a nearest sampler.

use crate::binding::{Bindable, Resource, SamplerResource};
use crate::gpu::Gpu;
use crate::identity::ResourceId;

/// A texture sampler. Cheap to clone.
pub struct Sampler {
    gpu: Gpu,
    raw: wgpu::Sampler,
    id: std::sync::Arc<ResourceId>,
    filtering: bool,
    comparison: bool,
    /// Held while the fields above drop: on GL, deleting a sampler takes wgpu's context lock,
    /// so it waits for the GL turn like every other call (`wait.rs`). Declared last.
    dropping: Option<crate::turn::Turn>,
}

impl Drop for Sampler {
    fn drop(&mut self) {
        self.dropping = Some(self.gpu.turn());
    }
}

impl Clone for Sampler {
    fn clone(&self) -> Self {
        Self {
            gpu: self.gpu.clone(),
            raw: self.raw.clone(),
            id: std::sync::Arc::clone(&self.id),
            filtering: self.filtering,
            comparison: self.comparison,
            dropping: None,
        }
    }
}

impl std::fmt::Debug for Sampler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sampler")
            .field("filtering", &self.filtering)
            .field("comparison", &self.comparison)
            .finish()
    }
}

impl Gpu {
    /// Bilinear filtering, coordinates clamped to the edge.
    pub fn sampler_linear(&self) -> Sampler {
        self.make_sampler(&wgpu::SamplerDescriptor {
            label: Some("shoal linear"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        })
    }

    /// Nearest texel, coordinates clamped to the edge (samples every float format).
    pub fn sampler_nearest(&self) -> Sampler {
        self.make_sampler(&wgpu::SamplerDescriptor {
            label: Some("shoal nearest"),
            ..Default::default()
        })
    }

    /// A sampler as `desc` says; it filters when any of its filters is linear. A descriptor
    /// wgpu refuses (a negative `lod_min_clamp`, anisotropy without linear filters) is
    /// [`Error::Wgpu`](crate::Error::Wgpu), as is a lost device
    /// ([`Error::DeviceLost`](crate::Error::DeviceLost)).
    pub fn sampler(&self, desc: &wgpu::SamplerDescriptor<'_>) -> crate::Result<Sampler> {
        self.scoped("creating a sampler", || self.make_sampler(desc))
    }

    /// The sampler of `desc`, which wgpu accepts (the fixed descriptors above; `sampler`
    /// calls it inside error scopes).
    fn make_sampler(&self, desc: &wgpu::SamplerDescriptor<'_>) -> Sampler {
        let filtering = desc.mag_filter == wgpu::FilterMode::Linear
            || desc.min_filter == wgpu::FilterMode::Linear
            || desc.mipmap_filter == wgpu::MipmapFilterMode::Linear;
        let raw = {
            let _turn = self.turn();
            self.device().create_sampler(desc)
        };
        Sampler {
            gpu: self.clone(),
            raw,
            id: std::sync::Arc::new(self.resource_id()),
            filtering,
            comparison: desc.compare.is_some(),
            dropping: None,
        }
    }
}

impl Sampler {
    /// Whether the sampler filters (then the textures it samples must be filterable).
    pub fn is_filtering(&self) -> bool {
        self.filtering
    }

    /// The wgpu sampler, for render passes.
    pub fn raw(&self) -> &wgpu::Sampler {
        &self.raw
    }
}

impl Bindable for Sampler {
    fn resource(&self) -> Resource<'_> {
        Resource::Sampler(SamplerResource {
            raw: &self.raw,
            id: &self.id,
            comparison: self.comparison,
            filtering: self.filtering,
        })
    }
}
