//! [`Scene`]: a scene on the GPU — the uniform the passes share, the particles (a storage and a
//! vertex buffer at once) and the opaque triangles — uploaded from a [`SceneData`].

use glam::{Mat4, UVec4, Vec4};
use shoal::{Buffer, Gpu, Result, Usage};

use super::{Camera, Particle, SceneData, TILE, Vertex, twin};

/// `SplatParams` in `splat_common.wgsl`.
#[derive(Debug, Clone, Copy, encase::ShaderType)]
pub(super) struct SplatParams {
    view_proj: Mat4,
    scale: Vec4,
    size: UVec4,
}

/// A scene on the GPU: its camera's parameters, particles and opaque triangles. Made by
/// [`Splat::upload`](super::Splat::upload).
#[derive(Debug)]
pub struct Scene {
    pub(super) camera: Camera,
    pub(super) params: Buffer<SplatParams>,
    pub(super) particles: Buffer<Particle>,
    pub(super) geometry: Buffer<Vertex>,
}

impl Scene {
    /// Uploads `scene`; no particles or no triangles give empty buffers.
    pub(super) fn new(gpu: &Gpu, scene: &SceneData) -> Result<Self> {
        let c = &scene.camera;
        let s = twin::scale();
        let params = SplatParams {
            view_proj: c.view_proj,
            scale: Vec4::new(s[0], s[1], s[2], c.focal_px),
            size: UVec4::new(
                c.width,
                c.height,
                c.width.div_ceil(TILE),
                c.height.div_ceil(TILE),
            ),
        };
        Ok(Self {
            camera: *c,
            params: gpu.uniform(&params)?,
            particles: gpu.buffer_from_with(&scene.particles, Usage::STORAGE | Usage::VERTEX)?,
            geometry: gpu.buffer_from_with(&scene.geometry, Usage::VERTEX)?,
        })
    }

    /// The camera the scene was made with.
    pub fn camera(&self) -> &Camera {
        &self.camera
    }

    /// Number of particles.
    pub fn len(&self) -> u64 {
        self.particles.len()
    }

    /// Whether there are no particles.
    pub fn is_empty(&self) -> bool {
        self.particles.is_empty()
    }
}
