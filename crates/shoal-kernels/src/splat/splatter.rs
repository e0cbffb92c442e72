//! [`Splat`]: the compute splatter, its composite and the rasterized baseline, compiled once;
//! its operations (`ops.rs`) record the frame's passes into a [`Commands`](shoal::Commands)
//! batch.

use shoal::{Commands, Error, Gpu, Result, Source};

use super::sources::{Kernels, SplatSources};
use super::{Packing, Scene, SceneData, SplatTarget};

/// The compute splatter, its composite, and the rasterized baseline, compiled once.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal::Record;
/// use shoal_kernels::splat::{SceneData, SceneKind, Splat, SplatFrameArgs};
/// let gpu = shoal::Gpu::blocking()?;
/// let splat = Splat::new(&gpu, None)?; // the packing this device supports
/// let target = splat.target(64, 48)?;
/// let scene = splat.upload(&SceneData::generate(SceneKind::Normal, 64, 48, 500, 1))?;
/// splat.run(SplatFrameArgs { target: &target, scene: &scene })?.wait_blocking()?;
/// assert_eq!(target.hdr().size(), [64, 48]);
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Splat {
    pub(super) gpu: Gpu,
    packing: Packing,
    sources: SplatSources,
    pub(super) kernels: Kernels,
}

impl Splat {
    /// Compiles the kernels for `packing`, or for the best the adapter has when `None`: 64-bit
    /// where [`Gpu::has_int64_atomics`], else 2 x u32 ([`Splat::packing`] says which). Asking for
    /// [`Packing::Int64`] on an adapter without 64-bit atomics is [`Error::MissingFeature`].
    /// Every kernel and pipeline is compiled here, so there is nothing to `prepare`.
    pub fn new(gpu: &Gpu, packing: Option<Packing>) -> Result<Self> {
        Self::from_source(gpu, SplatSources::default(), packing)
    }

    /// A splatter like [`Splat::new`] compiled from `sources`, edited copies of the files with
    /// the same entry points and bindings (hot reload). A WGSL error is [`Error::Wgsl`] naming
    /// the file (the snippet's own for an error in `splat_common.wgsl`) and line.
    pub fn from_source(gpu: &Gpu, sources: SplatSources, packing: Option<Packing>) -> Result<Self> {
        let packing = packing.unwrap_or(if gpu.has_int64_atomics() {
            Packing::Int64
        } else {
            Packing::TwoU32
        });
        Ok(Self {
            gpu: gpu.clone(),
            packing,
            kernels: Kernels::new(gpu, &sources, packing)?,
            sources,
        })
    }

    /// Replaces one file of the splatter's sources (see [`SplatSources::set`]) and rebuilds
    /// every kernel and render pipeline from the set, keeping the packing. Only when all of them
    /// compile do they replace the old ones; on an error the old kernels stay, and the new text
    /// is still kept among the sources (it is what the file on disk says), so a later edit of
    /// another file is built together with it.
    pub fn set_source(&mut self, source: impl Into<Source>) -> Result<()> {
        self.sources.set(source.into())?;
        self.kernels = Kernels::new(&self.gpu, &self.sources, self.packing)?;
        Ok(())
    }

    /// The sources the splatter's kernels were last asked to compile from.
    pub fn sources(&self) -> &SplatSources {
        &self.sources
    }

    /// The packing this splatter adds with.
    pub fn packing(&self) -> Packing {
        self.packing
    }

    /// The images and buffers for a `width` x `height` picture. A side of 0 or above the
    /// device's `max_texture_dimension_2d` is [`Error::ImageSize`].
    pub fn target(&self, width: u32, height: u32) -> Result<SplatTarget> {
        SplatTarget::new(&self.gpu, width, height)
    }

    /// Uploads a scene: its particles (usable as a vertex buffer too), triangles and camera.
    /// A scene without particles or triangles is fine: it draws the rest.
    pub fn upload(&self, scene: &SceneData) -> Result<Scene> {
        Scene::new(&self.gpu, scene)
    }

    /// The batch, target and scene belong to this splatter's `Gpu` (a render pass cannot tell
    /// its encoder's device, and wgpu-core would panic on another device's resources) and fit
    /// each other.
    pub(super) fn check(
        &self,
        commands: &Commands,
        target: &SplatTarget,
        scene: &Scene,
    ) -> Result<()> {
        self.gpu
            .check_same(commands.gpu(), "the batch a splat is recorded into")?;
        self.gpu.check_same(target.hdr.gpu(), "the splat target")?;
        self.gpu.check_same(scene.params.gpu(), "the splat scene")?;
        let (w, h) = (scene.camera.width, scene.camera.height);
        if (w, h) != (target.width, target.height) {
            return Err(Error::Length {
                what: format!(
                    "splatting a scene made for {w} x {h} into a {} x {} target",
                    target.width, target.height
                ),
                expected: u64::from(target.width) * u64::from(target.height),
                got: u64::from(w) * u64::from(h),
            });
        }
        Ok(())
    }
}
