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

    /// The compute kernels the splatter compiles for `packing`, each as its entry point and the
    /// source it is compiled from (`splat::common` and `splat::entry` imported): the clear, the
    /// coarse depth level, the projection, then the splat of that packing. All but the coarse
    /// depth level take the override `WG` (the device's largest 1D work group up to 256).
    pub fn compute(&self, packing: Packing) -> [(&'static str, Source); 4] {
        let source = |source: &Source| {
            (source.clone())
                .snippet("splat::common", self.common.clone())
                .snippet("splat::entry", ENTRY)
        };
        let main = source(&self.splat);
        let splat = match packing {
            Packing::TwoU32 => ("splat_u32", main.clone()),
            Packing::Int64 => ("splat_u64", source(&self.int64)),
        };
        [
            ("clear_accum", main.clone()),
            ("build_hiz", main.clone()),
            ("project_particles", main),
            splat,
        ]
    }

    /// The render module the rasterized baseline and the composite are drawn with:
    /// `wgsl/splat_raster.wgsl` with this set's `splat::common` (vertex and fragment entry
    /// points, no compute).
    pub fn raster(&self) -> Source {
        raster::source(&self.common)
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
        let builder = |(entry, source): (&str, Source)| gpu.kernel_builder(source).entry(entry);
        let kernel = |compute| builder(compute).constant("WG", wg).build();
        let [clear, hiz, project, splat] = sources.compute(packing);
        Ok(Self {
            clear: kernel(clear)?,
            hiz: builder(hiz).build()?,
            project: kernel(project)?,
            splat: kernel(splat)?,
            raster: raster::Pipelines::new(gpu, sources.raster())?,
        })
    }
}
