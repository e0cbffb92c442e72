//! [`Dispatch`]: bind resources by their WGSL names, say how many work groups, run or record.

use crate::aliasing;
use crate::binding::{self, Bindable, Resource};
use crate::buffer::Buffer;
use crate::commands::{Commands, Submission};
use crate::element::Element;
use crate::error::{Error, Result};
use crate::fold::linear_groups;
use crate::identity::ResourceId;
use crate::kernel::Kernel;
use crate::profile::Timing;

/// Indirect dispatch arguments, as the GPU reads them: work groups in x, y and z.
#[repr(C)]
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    bytemuck::Pod,
    bytemuck::Zeroable,
    encase::ShaderType,
)]
pub struct DispatchArgs {
    /// Work groups in x.
    pub x: u32,
    /// Work groups in y.
    pub y: u32,
    /// Work groups in z.
    pub z: u32,
}

impl DispatchArgs {
    /// `[x, y, z]` work groups.
    pub const fn new(x: u32, y: u32, z: u32) -> Self {
        Self { x, y, z }
    }
}

/// How many work groups a dispatch runs.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Grid<'a> {
    Unset,
    Groups([u32; 3]),
    /// A 1D count of invocations, folded into y and z when x would exceed the limit.
    Linear(u64),
    Invocations([u32; 3]),
    Indirect {
        buffer: &'a wgpu::Buffer,
        id: &'a ResourceId,
        /// Of the arguments within the `Buffer` (a slice's own offset is `base`).
        offset: u64,
        base: u64,
        /// The `Buffer`'s bytes, to whole words.
        bytes: u64,
    },
}

/// A dispatch being put together: bindings by name, then a size, then [`run`](Self::run) or
/// [`record`](Self::record). Mistakes are kept and returned by `run`/`record`, so the chain
/// reads straight.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// let gpu = shoal::Gpu::blocking()?;
/// let kernel = gpu.kernel("
///     @group(0) @binding(0) var<storage, read_write> ids: array<u32>;
///     @compute @workgroup_size(4)
///     fn write_ids(@builtin(global_invocation_id) id: vec3<u32>) { ids[id.x] = id.x; }")?;
/// let ids = gpu.buffer_zeroed::<u32>(8)?;
/// kernel.bind("ids", &ids).groups([2, 1, 1]).run()?; // 2 work groups of 4
/// assert_eq!(ids.read_blocking()?, [0, 1, 2, 3, 4, 5, 6, 7]);
/// // A misspelt name is an error before anything is submitted.
/// let wrong = kernel.bind("idz", &ids).groups([2, 1, 1]).run();
/// assert!(matches!(wrong, Err(shoal::Error::UnknownBinding { .. })));
/// # Ok(()) }
/// ```
#[must_use = "a dispatch does nothing until .run() or .record(&mut commands)"]
pub struct Dispatch<'a> {
    kernel: &'a Kernel,
    bound: Vec<Option<Resource<'a>>>,
    grid: Grid<'a>,
    error: Option<Error>,
    /// The immediate data's bytes, from [`Dispatch::immediates`].
    immediates: Option<Vec<u8>>,
    /// What a profile calls it ([`Dispatch::label`]); the kernel's name otherwise.
    label: Option<String>,
}

impl Kernel {
    /// Starts a dispatch and binds `resource` to the WGSL variable `name`.
    pub fn bind<'a>(&'a self, name: &str, resource: &'a (impl Bindable + ?Sized)) -> Dispatch<'a> {
        self.dispatch().bind(name, resource)
    }

    /// Starts a dispatch with nothing bound yet.
    pub fn dispatch(&self) -> Dispatch<'_> {
        let bindings = &self.inner.reflection.bindings;
        let mut bound = vec![None; bindings.len()];
        // The printf ring is the framework's: bound here, so the caller never names it.
        if let Some(ring) = &self.inner.printf
            && let Some(slot) = bindings
                .iter()
                .position(|b| b.name == crate::printf::BINDING)
        {
            bound[slot] = Some(ring.buffer.resource());
        }
        // So is the binding that holds the immediate data where the device does not take it.
        if let Some(owned) = &self.inner.immediates {
            bound[owned.slot] = Some(owned.resource());
        }
        Dispatch {
            kernel: self,
            bound,
            grid: Grid::Unset,
            error: None,
            immediates: None,
            label: None,
        }
    }
}

impl<'a> Dispatch<'a> {
    /// Names the dispatch in a profile ([`Commands::profiled`], [`Timing::label`]) and in wgpu's
    /// debug labels: `"my_sim: integrate"` instead of the kernel's `file.wgsl:entry`. Shoal's
    /// kernel families label theirs `family: operation` (`reduce_by_key: scan`).
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// Binds `resource` to the WGSL variable `name`.
    pub fn bind(mut self, name: &str, resource: &'a (impl Bindable + ?Sized)) -> Self {
        if self.error.is_some() {
            return self;
        }
        let r = &self.kernel.inner.reflection;
        if let Some(info) = r.immediates.as_ref().filter(|i| i.name == name) {
            self.error = Some(crate::immediates::bound(self.kernel.name(), info));
            return self;
        }
        match r.bindings.iter().position(|b| b.name == name) {
            Some(slot) => self.bound[slot] = Some(resource.resource()),
            None => {
                self.error = Some(Error::UnknownBinding {
                    kernel: self.kernel.name().to_string(),
                    binding: name.to_string(),
                    available: r.bindings.iter().map(|b| b.name.clone()).collect(),
                })
            }
        }
        self
    }

    /// Sets the kernel's immediate data (its `var<immediate>`, or a GLSL push-constant block)
    /// for this dispatch: `value`'s layout is checked against the block's as a bound buffer's
    /// elements are (an `encase::ShaderType` laid out by WGSL's rules, or a
    /// [`pod_element!`](crate::pod_element) type byte for byte).
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// let gpu = shoal::Gpu::blocking()?;
    /// let scale = gpu.kernel("
    ///     struct Params { factor: f32, offset: f32 }
    ///     var<immediate> params: Params;
    ///     @group(0) @binding(0) var<storage, read_write> v: array<f32>;
    ///     @compute @workgroup_size(64)
    ///     fn scale(@builtin(global_invocation_id) id: vec3<u32>) {
    ///         if id.x < arrayLength(&v) { v[id.x] = v[id.x] * params.factor + params.offset; }
    ///     }")?;
    /// let v = gpu.buffer_from(&[1.0f32, 2.0, 3.0])?;
    /// scale.bind("v", &v).immediates(&[10.0f32, 1.0]).invocations(3).run()?;
    /// assert_eq!(v.read_blocking()?, [11.0, 21.0, 31.0]);
    /// # Ok(()) }
    /// ```
    ///
    /// Where the device takes the block as immediate data (wgpu's `IMMEDIATES`, a block within
    /// [`Gpu::max_immediate_size`](crate::Gpu::max_immediate_size)), the value is set with
    /// `set_immediates`; elsewhere (the browser, a larger block) the kernel reads it from a
    /// binding Shoal owns and writes in the batch's order, so each dispatch of a batch sees its
    /// own value either way (docs/immediates.md). A value of another layout, a value for a
    /// kernel without immediate data, or none for a kernel with some, is
    /// [`Error::Immediates`] from `run`/`record`.
    pub fn immediates<T: Element>(mut self, value: &T) -> Self {
        if self.error.is_some() {
            return self;
        }
        match crate::immediates::encode(self.kernel, value) {
            Ok(bytes) => self.immediates = Some(bytes),
            Err(e) => self.error = Some(e),
        }
        self
    }

    /// Runs exactly `[x, y, z]` work groups (each must be within MAX_COMPUTE_WORK_GROUP_COUNT).
    pub fn groups(mut self, groups: [u32; 3]) -> Self {
        self.grid = Grid::Groups(groups);
        self
    }

    /// Runs at least `n` invocations: `ceil(n / work-group invocations)` groups, folded over y
    /// (and z) when x would exceed the limit. Kernels rebuild the index with
    /// `shoal_linear_index` (`#import shoal::fold`) and bound-check it. A dispatch that must fold
    /// for an entry point taking `global_invocation_id` or `workgroup_id` without
    /// `num_workgroups` (which could not rebuild it) is [`Error::TooManyGroups`], as is a count
    /// no fold holds; one that would launch more than 2^32 invocations, which no `u32` index
    /// numbers, [`Error::InvalidParameter`]. (Taking `num_workgroups` is how a kernel says it
    /// handles the fold: a grid-stride loop over `nwg.x` alone would repeat its range per row.)
    pub fn invocations(mut self, n: u64) -> Self {
        self.grid = Grid::Linear(n);
        self
    }

    /// Runs at least `[w, h]` invocations in a 2D grid: `ceil(w / size.x) x ceil(h / size.y)` groups.
    pub fn invocations_2d(mut self, [w, h]: [u32; 2]) -> Self {
        self.grid = Grid::Invocations([w, h, 1]);
        self
    }

    /// Runs at least `[w, h, d]` invocations in a 3D grid.
    pub fn invocations_3d(mut self, size: [u32; 3]) -> Self {
        self.grid = Grid::Invocations(size);
        self
    }

    /// Takes the group counts from `args` at byte `offset` when the GPU runs the dispatch
    /// (`dispatch_workgroups_indirect`); `args` needs `Usage::INDIRECT`. Of a
    /// [`Buffer::slice`](crate::Buffer::slice), `offset` counts from the slice's start and the
    /// 12 bytes must lie within it.
    ///
    /// The offset, the 12 bytes' bounds and the usage are checked when the dispatch is recorded;
    /// the counts are not, since they are on the GPU (a kernel may write them later in the same
    /// batch). A count above `MAX_COMPUTE_WORK_GROUP_COUNT` (65,535) in any dimension makes the
    /// dispatch run **nothing**, without an error anywhere: wgpu's indirect validation (natively,
    /// on Vulkan and GL) and WebGPU skip it, and the `Gpu` stays usable. (wgpu validates them
    /// while `InstanceFlags::VALIDATION_INDIRECT_CALL` is set, its default: with
    /// `WGPU_VALIDATION_INDIRECT_CALL=0` in the environment, or a device of your own through
    /// [`Gpu::from_wgpu`](crate::Gpu::from_wgpu) without the flag, the count reaches the driver,
    /// whose behaviour is undefined.) A kernel that writes
    /// arguments must fold large counts itself, as
    /// [`AppendBuffer::record_dispatch_args`](crate::AppendBuffer::record_dispatch_args) does.
    pub fn indirect<T: Element>(mut self, args: &'a Buffer<T>, offset: u64) -> Self {
        self.grid = Grid::Indirect {
            buffer: args.raw(),
            id: args.id(),
            offset,
            base: args.offset(),
            bytes: args
                .byte_len()
                .next_multiple_of(4)
                .min(args.raw().size() - args.offset()),
        };
        self
    }

    /// Checks everything and submits the dispatch on its own: the [`Submission`] to wait for,
    /// as every `run` of the kernels crate returns (reading a buffer the dispatch wrote waits
    /// for it anyway).
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// let gpu = shoal::Gpu::blocking()?;
    /// let kernel = gpu.kernel(shoal::Source::new(
    ///     "ones.wgsl",
    ///     "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
    ///      @compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    ///          if id.x < arrayLength(&out) { out[id.x] = 1u; }
    ///      }",
    /// ))?;
    /// let out = gpu.buffer_zeroed::<u32>(100)?;
    /// kernel.bind("out", &out).invocations(100).run()?.wait_blocking()?;
    /// assert_eq!(out.read_blocking()?, vec![1; 100]);
    /// # Ok(()) }
    /// ```
    pub fn run(self) -> Result<Submission> {
        let mut commands = self.kernel.gpu().commands();
        self.record(&mut commands)?;
        commands.submit()
    }

    /// Runs the dispatch on its own and returns its GPU time (timestamps where the device has
    /// them, wall clock otherwise, labelled as such).
    pub async fn run_timed(self) -> Result<Timing> {
        let label = self
            .label
            .clone()
            .unwrap_or_else(|| self.kernel.name().to_string());
        let mut commands = self.kernel.gpu().commands().profiled();
        self.record(&mut commands)?;
        let timings = commands.submit()?.timings().await?;
        Ok(timings
            .into_iter()
            .next()
            .unwrap_or(Timing::nothing_ran(label)))
    }

    /// Checks everything and records the dispatch into `commands`, after what is already there.
    pub fn record(self, commands: &mut Commands) -> Result<()> {
        let kernel = self.kernel;
        self.record_checked(commands)
            .inspect_err(|e| log::debug!("shoal: kernel `{}` not dispatched: {e}", kernel.name()))
    }

    /// [`Dispatch::record`], its error not yet logged.
    fn record_checked(self, commands: &mut Commands) -> Result<()> {
        let Dispatch {
            kernel,
            bound,
            grid,
            error,
            immediates,
            label,
        } = self;
        if let Some(e) = error {
            return Err(e);
        }
        let name = kernel.name();
        if let (Some(info), None) = (&kernel.inner.reflection.immediates, &immediates) {
            return Err(crate::immediates::missing(name, info));
        }
        let gpu = kernel.gpu();
        commands
            .gpu()
            .check_owner(|| format!("kernel `{name}`"), gpu.tag())?;
        let r = &kernel.inner.reflection;
        // A dispatch that launches no work group reads and writes nothing: an empty buffer may
        // be bound where a kernel needs at least one element (every other check still holds).
        let launches = match grid {
            Grid::Groups(g) | Grid::Invocations(g) => !g.contains(&0),
            Grid::Linear(n) => n > 0,
            Grid::Unset | Grid::Indirect { .. } => true,
        };
        let mut resources = Vec::with_capacity(bound.len());
        for (info, res) in r.bindings.iter().zip(bound) {
            let res = res.ok_or_else(|| Error::Unbound {
                kernel: name.to_string(),
                binding: info.name.clone(),
                group: info.group,
                index: info.binding,
            })?;
            gpu.check_owner(
                || format!("the resource bound to `{}` of kernel `{name}`", info.name),
                res.gpu(),
            )?;
            binding::check(name, info, &res, launches)?;
            binding::check_size(gpu.limits(), name, info, &res)?;
            binding::check_offset(gpu.limits(), name, info, &res, launches)?;
            resources.push(res);
        }
        aliasing::check(name, &r.bindings, &resources)?;
        if let Grid::Indirect { id, buffer, .. } = grid {
            gpu.check_owner(
                || format!("the indirect arguments of kernel `{name}`"),
                id.gpu(),
            )?;
            aliasing::check_indirect(name, &r.bindings, &resources, (id, buffer))?;
        }
        let limits = gpu.limits();
        let max = limits.max_compute_work_group_count;
        let size = r.workgroup_size;
        let groups = match grid {
            Grid::Unset => {
                return Err(Error::NoSize {
                    kernel: name.to_string(),
                });
            }
            Grid::Groups(g) => Some(g),
            Grid::Linear(n) => Some(linear_groups(name, r, n, max)?),
            Grid::Invocations(n) => Some([0, 1, 2].map(|i| n[i].div_ceil(size[i]))),
            Grid::Indirect {
                buffer,
                offset,
                bytes,
                ..
            } => {
                check_indirect(name, buffer, offset, bytes)?;
                None
            }
        };
        if let Some(g) = groups
            && let Some(dimension) = (0..3).find(|&i| g[i] > max[i])
        {
            return Err(Error::TooManyGroups {
                kernel: name.to_string(),
                groups: g,
                dimension,
                limit: max[dimension],
                remedy: match grid {
                    Grid::Invocations(_) => "the grid is too large for one dispatch in that \
                            dimension: split it into parts, one dispatch each"
                        .into(),
                    _ => "use .invocations(n), which folds a large 1D count over y and z (the \
                            kernel rebuilds its index with shoal_linear_index, `#import \
                            shoal::fold`)"
                        .into(),
                },
            });
        }
        log::trace!("shoal: dispatch `{name}`: {groups:?} work groups of {size:?}");
        // Checked for every dispatch, one of no work groups too (`Error::Unfilterable`).
        let mask = binding::filtering_mask(kernel.gpu(), name, r, &resources)?;
        if groups.is_some_and(|g| g.contains(&0)) {
            // The specification: a dispatch with a zero count in any dimension does nothing.
            return Ok(());
        }
        // Where a binding holds the immediate data, its value is copied in just before the pass.
        let owned = kernel.inner.immediates.as_ref();
        if let (Some(owned), Some(bytes)) = (owned, &immediates) {
            owned.record_write(commands, bytes)?;
        }
        let native = immediates.filter(|_| owned.is_none());
        // Taken first, so released last: on GL, the bind groups dropped below may be the last
        // handles of buffers the cache let go of meanwhile (see `Kernel::bind_groups`).
        let _turn = kernel.gpu().turn();
        let variant = kernel.variant(mask)?;
        let bind_groups = kernel.bind_groups(&variant, mask, &resources)?;
        let label = commands.dispatch_label(label, name, &r.entry_point);
        commands.compute_pass(&label, |pass| {
            pass.set_pipeline(&variant.pipeline);
            if let Some(bytes) = &native {
                pass.set_immediates(0, bytes);
            }
            for (i, group) in bind_groups.iter().enumerate() {
                pass.set_bind_group(i as u32, group, &[]);
            }
            match (groups, grid) {
                (Some([x, y, z]), _) => pass.dispatch_workgroups(x, y, z),
                (
                    None,
                    Grid::Indirect {
                        buffer,
                        offset,
                        base,
                        ..
                    },
                ) => pass.dispatch_workgroups_indirect(buffer, base + offset),
                (None, _) => {}
            }
        });
        Ok(())
    }
}

/// Checks indirect arguments at byte `offset` of a `Buffer` of `bytes` bytes (to whole words) in
/// `buffer`.
fn check_indirect(name: &str, buffer: &wgpu::Buffer, offset: u64, bytes: u64) -> Result<()> {
    if !offset.is_multiple_of(4) {
        return Err(Error::IndirectOffset {
            kernel: name.to_string(),
            offset,
        });
    }
    if offset.checked_add(12).is_none_or(|end| end > bytes) {
        return Err(Error::IndirectOutOfBounds {
            kernel: name.to_string(),
            offset,
            buffer_bytes: bytes,
        });
    }
    if !buffer.usage().contains(wgpu::BufferUsages::INDIRECT) {
        return Err(Error::MissingUsage {
            kernel: name.to_string(),
            binding: "indirect arguments".into(),
            usage: "INDIRECT".into(),
            has: format!("{:?}", buffer.usage()),
            fix: "create the arguments with gpu.buffer_from_with(&args, Usage::STORAGE | Usage::INDIRECT)".into(),
        });
    }
    Ok(())
}
