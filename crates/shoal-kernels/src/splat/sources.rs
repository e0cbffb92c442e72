//! The WGSL files the splatter is compiled from ([`SplatSources`]), and everything compiled
//! from one set of them ([`Kernels`]): the compute kernels and the render pipelines.

use shoal::{Error, Gpu, Kernel, Result, Source};

use super::{COMMON, ENTRY, Packing, raster};

/// The WGSL files the splatter is compiled from; [`SplatSources::default`] holds the ones built
/// into the crate. Hot reload replaces one at a time with [`SplatSources::set`].
#[derive(Debug, Clone)]
pub struct SplatSources {
    /// `wgsl/splat.wgsl`: the clear, the coarse depth level, the 2 x u32 splat and the
    /// projection.
    pub splat: Source,
    /// `wgsl/splat_int64.wgsl`: the 64-bit splat (compiled only for [`Packing::Int64`]).
    pub int64: Source,
    /// `wgsl/splat_common.wgsl`: the `splat::common` snippet every pass imports, the render
    /// pipelines' included.
    pub common: Source,
}

impl Default for SplatSources {
    /// The files as the crate was built with them.
    fn default() -> Self {
        Self {
            splat: shoal::wgsl!("../../wgsl/splat.wgsl"),
            int64: shoal::wgsl!("../../wgsl/splat_int64.wgsl"),
            common: COMMON,
        }
    }
}

impl SplatSources {
    /// Replaces the file `source` is an edited copy of, told by the file name of its
    /// [`path`](Source::path): `splat.wgsl`, `splat_int64.wgsl` or `splat_common.wgsl`. Any
    /// other name is [`Error::InvalidParameter`] and changes nothing.
    pub fn set(&mut self, source: Source) -> Result<()> {
        let name = source.path().rsplit(['/', '\\']).next().unwrap_or_default();
        let slot = match name {
            "splat.wgsl" => &mut self.splat,
            "splat_int64.wgsl" => &mut self.int64,
            "splat_common.wgsl" => &mut self.common,
            _ => {
                return Err(Error::InvalidParameter {
                    kernel: "Splat".into(),
                    parameter: "source".into(),
                    value: source.path().into(),
                    rule: "an edited splat.wgsl, splat_int64.wgsl or splat_common.wgsl".into(),
                });
            }
        };
        *slot = source;
        Ok(())
    }
}

/// Everything compiled from a [`SplatSources`].
#[derive(Debug)]
pub(super) struct Kernels {
    pub(super) clear: Kernel,
    pub(super) hiz: Kernel,
    pub(super) project: Kernel,
    pub(super) splat: Kernel,
    pub(super) raster: raster::Pipelines,
}

impl Kernels {
    /// Compiles every kernel and pipeline from `sources`, or fails on the first error.
    pub(super) fn new(gpu: &Gpu, sources: &SplatSources, packing: Packing) -> Result<Self> {
        let wg = gpu.max_workgroup_1d(256);
        let builder = |source: &Source, entry: &str| {
            gpu.kernel_builder(
                source
                    .clone()
                    .snippet("splat::common", sources.common.clone())
                    .snippet("splat::entry", ENTRY),
            )
            .entry(entry)
        };
        let kernel =
            |source: &Source, entry: &str| builder(source, entry).constant("WG", wg).build();
        let main = &sources.splat;
        let splat = match packing {
            Packing::TwoU32 => kernel(main, "splat_u32")?,
            Packing::Int64 => kernel(&sources.int64, "splat_u64")?,
        };
        Ok(Self {
            clear: kernel(main, "clear_accum")?,
            hiz: builder(main, "build_hiz").build()?,
            project: kernel(main, "project_particles")?,
            splat,
            raster: raster::Pipelines::new(gpu, &sources.common)?,
        })
    }
}
