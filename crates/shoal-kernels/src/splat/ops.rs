//! The operations of [`Splat`] through [`shoal::Record`], one argument struct each: the opaque
//! scene ([`SplatGeometryArgs`]), a whole frame by the compute path ([`SplatFrameArgs`]), a
//! whole frame by the rasterized baseline ([`SplatRasterArgs`]) and the projection
//! ([`SplatProjectionArgs`]). The compute path after the opaque scene is a step of a frame, not
//! an operation of its own.

use shoal::{Buffer, Commands, Family, Gpu, Kernel, Record, Result};

use super::{Scene, Splat, SplatTarget, TILE};

/// The opaque scene alone: clears colour and depth, draws the triangles (both paths start so).
#[derive(Debug, Clone, Copy)]
pub struct SplatGeometryArgs<'a> {
    /// The images drawn into.
    pub target: &'a SplatTarget,
    /// The scene whose triangles are drawn.
    pub scene: &'a Scene,
}

/// A whole frame by the compute path: the opaque scene, then clear, coarse depth, splat and
/// composite. A [`profiled`](Commands::profiled) batch times each dispatch and render pass
/// under `splat: …` labels (the opaque scene's is `splat: splat geometry`).
#[derive(Debug, Clone, Copy)]
pub struct SplatFrameArgs<'a> {
    /// The images and buffers drawn into.
    pub target: &'a SplatTarget,
    /// The scene drawn.
    pub scene: &'a Scene,
}

/// A whole frame by the rasterized baseline: the opaque scene, then the particles as a point
/// list, depth-tested without writes, blended One + One into the HDR target.
#[derive(Debug, Clone, Copy)]
pub struct SplatRasterArgs<'a> {
    /// The images drawn into.
    pub target: &'a SplatTarget,
    /// The scene drawn.
    pub scene: &'a Scene,
}

/// `project_particles`: each particle's fragment (`[status, r, g, b]`, see
/// [`twin::Fragment`](super::twin::Fragment)) as the splat kernels compute it. Needs the coarse
/// depth level, so record it after a [`SplatFrameArgs`] frame.
#[derive(Debug, Clone, Copy)]
pub struct SplatProjectionArgs<'a> {
    /// The frame's images and buffers (its depth and coarse depth are read).
    pub target: &'a SplatTarget,
    /// The scene whose particles are projected.
    pub scene: &'a Scene,
    /// One fragment per particle.
    pub out: &'a Buffer<[u32; 4]>,
}

impl Family for Splat {
    fn gpu(&self) -> &Gpu {
        &self.gpu
    }

    fn kernels(&self) -> Vec<&Kernel> {
        let k = &self.kernels;
        vec![&k.clear, &k.hiz, &k.splat, &k.project]
    }
}

impl Record<SplatGeometryArgs<'_>> for Splat {
    fn record(&self, commands: &mut Commands, args: SplatGeometryArgs<'_>) -> Result<()> {
        let commands = &mut commands.labelled("splat");
        self.check(commands, args.target, args.scene)?;
        (self.kernels.raster).geometry_pass(commands, args.target, args.scene)
    }
}

impl Record<SplatFrameArgs<'_>> for Splat {
    fn record(&self, commands: &mut Commands, args: SplatFrameArgs<'_>) -> Result<()> {
        let SplatFrameArgs { target, scene } = args;
        let commands = &mut commands.labelled("splat");
        self.check(commands, target, scene)?;
        let k = &self.kernels;
        k.raster.geometry_pass(commands, target, scene)?;
        k.clear
            .bind("accum_words", &target.accum)
            .invocations(target.accum.len())
            .record(commands)?;
        k.hiz
            .bind("params", &scene.params)
            .bind("scene_depth", &target.depth)
            .bind("hiz_out", &target.hiz)
            .groups([target.width.div_ceil(TILE), target.height.div_ceil(TILE), 1])
            .record(commands)?;
        if !scene.particles.is_empty() {
            k.splat
                .bind("params", &scene.params)
                .bind("particles", &scene.particles)
                .bind("scene_depth", &target.depth)
                .bind("hiz", &target.hiz)
                .bind("accum", &target.accum)
                .invocations(scene.particles.len())
                .record(commands)?;
        }
        k.raster.composite_pass(commands, target, scene)
    }
}

impl Record<SplatRasterArgs<'_>> for Splat {
    fn record(&self, commands: &mut Commands, args: SplatRasterArgs<'_>) -> Result<()> {
        let SplatRasterArgs { target, scene } = args;
        let commands = &mut commands.labelled("splat");
        self.check(commands, target, scene)?;
        self.kernels.raster.geometry_pass(commands, target, scene)?;
        self.kernels.raster.particle_pass(commands, target, scene)
    }
}

impl Record<SplatProjectionArgs<'_>> for Splat {
    fn record(&self, commands: &mut Commands, args: SplatProjectionArgs<'_>) -> Result<()> {
        let SplatProjectionArgs { target, scene, out } = args;
        let commands = &mut commands.labelled("splat");
        self.check(commands, target, scene)?;
        if scene.particles.is_empty() {
            return Ok(());
        }
        self.kernels
            .project
            .bind("params", &scene.params)
            .bind("particles", &scene.particles)
            .bind("scene_depth", &target.depth)
            .bind("hiz", &target.hiz)
            .bind("projected", out)
            .invocations(scene.particles.len())
            .record(commands)
    }
}
