//! [`Gpu`]: an adapter, its device and queue, and what Shoal keeps beside them.

use std::sync::Arc;

use crate::backend::{self, BackendChoice};
use crate::error::{Error, Result};
use crate::health::{ErrorHandler, Health, LostHandler};
use crate::identity::{GpuTag, ResourceId};
use crate::limits::Limits;
use crate::staging::StagingPool;

/// How to choose the adapter.
#[derive(Debug, Clone, Default)]
pub struct GpuOptions {
    /// The backend; `None` reads `SHOAL_BACKEND` (unset means [`BackendChoice::Auto`]).
    pub backend: Option<BackendChoice>,
    /// The limits to require instead of the adapter's own: lower ones to try a smaller device;
    /// ones the adapter does not have are [`Error::RequestDevice`]. `None`: the adapter's.
    pub limits: Option<wgpu::Limits>,
    /// Features Shoal would ask for (where the adapter has them) not to ask for: with
    /// `wgpu::Features::SUBGROUP` an adapter that has subgroups runs the kernels' paths for one
    /// without (the browser's), e.g. Chromium's SwiftShader run natively; with
    /// `wgpu::Features::IMMEDIATES` kernels read their immediate data from a binding Shoal owns,
    /// as in the browser (docs/immediates.md). Empty by default.
    pub withheld_features: wgpu::Features,
}

/// What the adapter is.
#[derive(Debug, Clone, PartialEq)]
pub struct AdapterDetails {
    /// The adapter's name, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
    pub name: String,
    /// The wgpu backend.
    pub backend: wgpu::Backend,
    /// The driver's name.
    pub driver: String,
    /// The driver's version string.
    pub driver_info: String,
    /// Discrete, integrated, virtual, CPU or other.
    pub device_type: wgpu::DeviceType,
    /// The smallest and largest subgroup the adapter may run (equal where the size is fixed:
    /// 8 on lavapipe; meaningful where the device has subgroup operations).
    pub subgroup_sizes: [u32; 2],
}

impl AdapterDetails {
    fn from_info(info: &wgpu::AdapterInfo) -> Self {
        Self {
            name: info.name.clone(),
            backend: info.backend,
            driver: info.driver.clone(),
            driver_info: info.driver_info.clone(),
            device_type: info.device_type,
            subgroup_sizes: [info.subgroup_min_size, info.subgroup_max_size],
        }
    }

    fn from_device(device: &wgpu::Device) -> Self {
        #[cfg_attr(
            not(target_arch = "wasm32"),
            expect(unused_mut, reason = "only the browser's name is filled in")
        )]
        let mut details = Self::from_info(&device.adapter_info());
        #[cfg(target_arch = "wasm32")]
        if details.name.is_empty() {
            if let Some(name) = browser_adapter_name(device) {
                details.name = name;
            }
        }
        details
    }

    /// Whether this is a software rasteriser (lavapipe, llvmpipe, SwiftShader, WARP).
    pub fn is_software(&self) -> bool {
        let name = self.name.to_ascii_lowercase();
        self.device_type == wgpu::DeviceType::Cpu
            || ["llvmpipe", "lavapipe", "swiftshader", "warp", "softpipe"]
                .iter()
                .any(|s| name.contains(s))
    }
}

impl std::fmt::Display for AdapterDetails {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = if self.is_software() {
            "software"
        } else {
            "hardware"
        };
        write!(f, "{} ({:?}, {kind}", self.name, self.backend)?;
        if !self.driver.is_empty() {
            write!(f, ", {} {}", self.driver, self.driver_info)?;
        }
        f.write_str(")")
    }
}

/// The browser's name for the adapter. wgpu takes a browser adapter's name from its
/// `description`, which browsers leave empty unless the page asks to unmask it; the vendor and
/// architecture are always there (`google swiftshader`).
#[cfg(target_arch = "wasm32")]
fn browser_adapter_name(device: &wgpu::Device) -> Option<String> {
    let info = device.as_webgpu()?.adapter_info();
    let parts: Vec<String> = [info.vendor(), info.architecture(), info.device()]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect();
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// The features Shoal asks for when the adapter has them; kernels that need one the device lacks
/// get [`Error::MissingFeature`] at creation.
/// The loop iterations one invocation may run in all on Mesa's llvmpipe
/// ([`Gpu::loop_iteration_budget`]).
pub const LLVMPIPE_LOOP_ITERATIONS: u32 = 65_535;

const WANTED_FEATURES: wgpu::Features = wgpu::Features::TIMESTAMP_QUERY
    .union(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS)
    .union(wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES)
    .union(wgpu::Features::SHADER_INT64)
    .union(wgpu::Features::SHADER_INT64_ATOMIC_MIN_MAX)
    .union(wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS)
    .union(wgpu::Features::SHADER_FLOAT32_ATOMIC)
    .union(wgpu::Features::SHADER_F16)
    .union(wgpu::Features::SHADER_F64)
    .union(wgpu::Features::SUBGROUP)
    .union(wgpu::Features::SUBGROUP_BARRIER)
    .union(wgpu::Features::FLOAT32_FILTERABLE)
    .union(wgpu::Features::TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES)
    .union(wgpu::Features::CLEAR_TEXTURE)
    .union(wgpu::Features::IMMEDIATES);

/// A device to run kernels on. Cheap to clone: clones share the device.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// let gpu = shoal::Gpu::blocking()?; // SHOAL_BACKEND=vulkan|gl|…, or the best adapter
/// let details = gpu.adapter_details();
/// println!("{} on {:?}", details.name, details.backend);
/// // WebGPU's minimum (the compute-shader model's is 1024, what lavapipe and llvmpipe offer).
/// assert!(gpu.limits().max_compute_work_group_invocations >= 256);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Gpu {
    inner: Arc<GpuInner>,
}

struct GpuInner {
    instance: Option<wgpu::Instance>,
    adapter: Option<wgpu::Adapter>,
    details: AdapterDetails,
    device: wgpu::Device,
    queue: wgpu::Queue,
    limits: Limits,
    /// This `Gpu`'s identity: resources carry it, dispatches compare it.
    tag: GpuTag,
    staging: StagingPool,
    health: Health,
}

impl std::fmt::Debug for Gpu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gpu")
            .field("adapter", &self.inner.details)
            .finish_non_exhaustive()
    }
}

impl Gpu {
    /// Opens the adapter `SHOAL_BACKEND` names (or the best one) with its own limits.
    pub async fn new() -> Result<Self> {
        Self::with_options(GpuOptions::default()).await
    }

    /// Opens an adapter as `options` say.
    pub async fn with_options(options: GpuOptions) -> Result<Self> {
        Self::open(options)
            .await
            .inspect_err(|e| log::debug!("shoal: no Gpu: {e}"))
    }

    /// [`Gpu::with_options`], its error not yet logged.
    async fn open(options: GpuOptions) -> Result<Self> {
        let choice = match options.backend {
            Some(choice) => choice,
            None => BackendChoice::from_env()?,
        };
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        desc.backends = choice.backends();
        let instance = wgpu::Instance::new(desc);
        let adapter = pick_adapter(&instance, choice).await?;
        let features = adapter.features() & WANTED_FEATURES & !options.withheld_features;
        if !options.withheld_features.is_empty() {
            log::info!("shoal: features withheld: {:?}", options.withheld_features);
        }
        let (device, queue) = request_device(&adapter, features, options.limits).await?;
        Ok(Self::assemble(
            Some(instance),
            Some(adapter),
            device,
            queue,
            None,
            None,
        ))
    }

    /// Blocks on [`Gpu::new`] (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn blocking() -> Result<Self> {
        pollster::block_on(Self::new())
    }

    /// Blocks on [`Gpu::with_options`] (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn with_options_blocking(options: GpuOptions) -> Result<Self> {
        pollster::block_on(Self::with_options(options))
    }

    /// Wraps a device and queue created elsewhere (a renderer, another library), so Shoal's
    /// kernels and the caller's code share one device.
    ///
    /// Shoal installs its own uncaptured-error handler and device-lost callback on `device`,
    /// and wgpu keeps one of each per device and cannot hand back the one it had: an
    /// application with its own handlers passes them to [`Gpu::from_wgpu_chained`] instead,
    /// which keeps them called.
    ///
    /// Wrap a device once and clone the `Gpu` to share it: each wrapper has its own lock for
    /// the calls that poll the device, and wgpu-core 30 panics when two threads poll one
    /// device at once (two wrappers of one device, used from two threads, could); and the
    /// second wrapper's handlers replace the first's, so the first would not see the device
    /// lost. (Shoal cannot recognise a device wrapped twice: wgpu 30 compares devices by an
    /// id that devices of two instances share.) The same holds for the application's own
    /// polls of `device`: make them inside [`Gpu::with_turn`].
    pub fn from_wgpu(adapter: &wgpu::Adapter, device: wgpu::Device, queue: wgpu::Queue) -> Self {
        Self::assemble(None, Some(adapter.clone()), device, queue, None, None)
    }

    /// [`Gpu::from_wgpu`] for an application with its own error handlers: Shoal's handlers
    /// replace whatever `device` had (wgpu allows one of each) and call these.
    ///
    /// - `errors` receives every error no error scope captured. Shoal's own calls run inside
    ///   error scopes natively and return their errors themselves, so what reaches `errors` is
    ///   the application's (its own wgpu calls outside Shoal). In the browser, errors of Shoal's
    ///   calls are still returned by Shoal (scopes, answered at the next wait or readback).
    /// - `lost` is called when the device is lost, after Shoal marks the `Gpu` lost.
    ///
    /// Install the application's handlers through here only, not on the device afterwards:
    /// that would replace Shoal's, and Shoal would no longer see a loss.
    pub fn from_wgpu_chained(
        adapter: &wgpu::Adapter,
        device: wgpu::Device,
        queue: wgpu::Queue,
        errors: Option<ErrorHandler>,
        lost: Option<LostHandler>,
    ) -> Self {
        Self::assemble(None, Some(adapter.clone()), device, queue, errors, lost)
    }

    /// Requests a device from `adapter` with the adapter's own limits and the features Shoal
    /// uses where they exist: what [`Gpu::new`] does, for callers that choose the adapter
    /// themselves (a window's surface, say).
    pub async fn from_adapter(
        instance: Option<wgpu::Instance>,
        adapter: wgpu::Adapter,
    ) -> Result<Self> {
        let (device, queue) =
            request_device(&adapter, adapter.features() & WANTED_FEATURES, None).await?;
        Ok(Self::assemble(
            instance,
            Some(adapter),
            device,
            queue,
            None,
            None,
        ))
    }

    fn assemble(
        instance: Option<wgpu::Instance>,
        adapter: Option<wgpu::Adapter>,
        device: wgpu::Device,
        queue: wgpu::Queue,
        errors: Option<ErrorHandler>,
        lost: Option<LostHandler>,
    ) -> Self {
        let details = AdapterDetails::from_device(&device);
        let tag = GpuTag::new(&details.name);
        let limits = Limits::from_wgpu(&device.limits());
        log::info!(
            "shoal: {details}: work groups up to {:?} ({} invocations, {} bytes shared), \
             {:?} per dispatch, buffers up to {} bytes",
            limits.max_compute_work_group_size,
            limits.max_compute_work_group_invocations,
            limits.max_compute_shared_memory_size,
            limits.max_compute_work_group_count,
            limits.max_buffer_size,
        );
        log::debug!("shoal: {limits:?}; features {:?}", device.features());
        let health = Health::install(&device, errors, lost);
        Self {
            inner: Arc::new(GpuInner {
                instance,
                adapter,
                details,
                device,
                queue,
                limits,
                tag,
                staging: StagingPool::default(),
                health,
            }),
        }
    }

    /// A fresh identity for a resource this `Gpu`'s device made outside Shoal, for a custom
    /// [`Bindable`](crate::Bindable): keep it with the resource and hand it to
    /// [`BufferResource::new`](crate::BufferResource::new),
    /// [`TextureResource::new`](crate::TextureResource::new) or
    /// [`SamplerResource::new`](crate::SamplerResource::new). It is the resource's key in the
    /// kernels' bind-group caches (no other resource has it) and names this `Gpu`, so binding
    /// the resource to a kernel of another `Gpu` is [`Error::WrongGpu`]. Dropping it says the
    /// resource is gone: the bind groups that bind it leave every kernel's cache (drop it with
    /// the resource; until then the caches may keep the resource alive through their groups).
    pub fn resource_id(&self) -> ResourceId {
        ResourceId::new(&self.inner.tag)
    }

    /// Fails with [`Error::WrongGpu`] when `other` (the `Gpu` of a resource or batch:
    /// `image.gpu()`, `buffer.gpu()`, `commands.gpu()`) is another device than this one; `what`
    /// names it in the message. For code that records wgpu work by hand beside Shoal's checked
    /// calls (render passes), where wgpu-core would panic on a foreign resource.
    pub fn check_same(&self, other: &Gpu, what: &str) -> Result<()> {
        self.check_owner(|| what.to_string(), &other.inner.tag)
    }

    pub(crate) fn tag(&self) -> &GpuTag {
        &self.inner.tag
    }

    /// Fails with [`Error::WrongGpu`] when `owner` is not this `Gpu`; `what` names the use.
    pub(crate) fn check_owner(&self, what: impl FnOnce() -> String, owner: &GpuTag) -> Result<()> {
        if *owner == self.inner.tag {
            return Ok(());
        }
        Err(Error::WrongGpu {
            what: what(),
            resource_gpu: owner.to_string(),
            expected_gpu: self.inner.tag.to_string(),
        })
    }

    /// The wgpu device, for code that draws or computes beside Shoal.
    pub fn device(&self) -> &wgpu::Device {
        &self.inner.device
    }

    /// The wgpu queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.inner.queue
    }

    /// The wgpu instance, when Shoal created it.
    pub fn instance(&self) -> Option<&wgpu::Instance> {
        self.inner.instance.as_ref()
    }

    /// The wgpu adapter, when known.
    pub fn adapter(&self) -> Option<&wgpu::Adapter> {
        self.inner.adapter.as_ref()
    }

    /// Name, backend, driver and kind of the adapter.
    pub fn adapter_details(&self) -> &AdapterDetails {
        &self.inner.details
    }

    /// The compute limits, under the specification's names.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// The device's features.
    pub fn features(&self) -> wgpu::Features {
        self.inner.device.features()
    }

    /// Whether GPU timestamps can be written around compute passes.
    pub fn has_timestamps(&self) -> bool {
        self.features().contains(wgpu::Features::TIMESTAMP_QUERY)
    }

    /// Whether GPU timestamps can also be written between passes, around copies and clears
    /// (wgpu's `TIMESTAMP_QUERY_INSIDE_ENCODERS`; WebGPU in the browser has no such timestamps).
    pub fn has_timestamps_between_passes(&self) -> bool {
        self.has_timestamps()
            && self
                .features()
                .contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS)
    }

    /// Whether 64-bit integer atomics (`atomic<u64>`, all operations) are available.
    pub fn has_int64_atomics(&self) -> bool {
        self.features()
            .contains(wgpu::Features::SHADER_INT64_ATOMIC_ALL_OPS)
    }

    /// Whether subgroup operations are available.
    pub fn has_subgroups(&self) -> bool {
        self.features().contains(wgpu::Features::SUBGROUP)
    }

    /// The subgroup size when the device has subgroup operations and runs every subgroup at one
    /// size (8 on lavapipe); `None` otherwise. A work group of exactly that many invocations is
    /// one subgroup, so its invocations can share values with subgroup operations alone.
    pub fn subgroup_size(&self) -> Option<u32> {
        crate::device_profile::subgroup_size(
            self.has_subgroups(),
            self.adapter_details().subgroup_sizes,
        )
    }

    /// How many loop iterations one invocation of a kernel may run in all, where the device
    /// ends loops past a number (silently: the loop just stops); `None` where it does not.
    ///
    /// Mesa's llvmpipe (lavapipe on Vulkan, and its GL) shares one counter of
    /// [`LLVMPIPE_LOOP_ITERATIONS`] between every loop of a kernel, per invocation
    /// (`LP_MAX_TGSI_LOOP_ITERATIONS` in its sources): a kernel that loops more there gives a
    /// wrong result without an error. Shoal's kernel families plan their work per invocation
    /// under it (or refuse what would need more); a kernel of your own that loops over its
    /// input should too. `tests/src/robustness.rs` pins the behaviour on each adapter.
    pub fn loop_iteration_budget(&self) -> Option<u32> {
        let details = self.adapter_details();
        let llvmpipe = details.name.starts_with("llvmpipe")
            && matches!(details.backend, wgpu::Backend::Vulkan | wgpu::Backend::Gl);
        llvmpipe.then_some(LLVMPIPE_LOOP_ITERATIONS)
    }

    /// The largest 1D work group this device runs, at most `cap`: the number to plan a kernel's
    /// `override` work-group size with (1024 on lavapipe, 256 on WebGPU).
    pub fn max_workgroup_1d(&self, cap: u32) -> u32 {
        let size = crate::device_profile::max_workgroup_1d(self.limits(), cap);
        log::debug!("shoal: 1D work group of {size} invocations planned (asked for at most {cap})");
        size
    }

    pub(crate) fn health(&self) -> &Health {
        &self.inner.health
    }

    pub(crate) fn staging(&self) -> &StagingPool {
        &self.inner.staging
    }

    /// Caps the bytes of idle staging buffers this `Gpu` keeps for readbacks (default
    /// [`DEFAULT_STAGING_CAP`](crate::DEFAULT_STAGING_CAP), 256 MiB), trimming the pool at once.
    /// A read larger than the cap still works: its staging buffer is dropped afterwards. `0`
    /// keeps none. Shared by the clones of this `Gpu`.
    pub fn set_staging_cap(&self, bytes: u64) {
        // Trimming destroys buffers, which takes wgpu's GL context lock (`wait.rs`).
        let _turn = self.turn();
        self.inner.staging.set_cap(bytes);
    }

    /// The byte cap of the staging pool (see [`set_staging_cap`](Self::set_staging_cap)).
    pub fn staging_cap(&self) -> u64 {
        self.inner.staging.cap()
    }

    /// Bytes of idle staging buffers kept for readbacks now: at most
    /// [`staging_cap`](Self::staging_cap).
    pub fn staging_bytes(&self) -> u64 {
        self.inner.staging.bytes()
    }
}

async fn pick_adapter(instance: &wgpu::Instance, choice: BackendChoice) -> Result<wgpu::Adapter> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let mut adapters = instance.enumerate_adapters(choice.backends()).await;
        adapters.sort_by_key(|a| backend::preference(&a.get_info()));
        if log::log_enabled!(log::Level::Debug) {
            let names: Vec<String> = adapters.iter().map(|a| a.get_info().name).collect();
            log::debug!(
                "shoal: {} adapters for {}, by preference: {names:?}",
                names.len(),
                choice.name()
            );
        }
        match adapters.into_iter().next() {
            Some(a) => Ok(a),
            None => {
                let mut all = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
                all.backends = wgpu::Backends::all();
                let found = wgpu::Instance::new(all)
                    .enumerate_adapters(wgpu::Backends::all())
                    .await
                    .iter()
                    .map(|a| {
                        let i = a.get_info();
                        format!("{} ({:?})", i.name, i.backend)
                    })
                    .collect();
                Err(Error::NoAdapter {
                    requested: choice.name().to_string(),
                    found,
                })
            }
        }
    }
    #[cfg(target_arch = "wasm32")]
    {
        let _ = backend::preference;
        let options = wgpu::RequestAdapterOptions::default();
        if matches!(choice, BackendChoice::Auto | BackendChoice::WebGpu) {
            return instance
                .request_adapter(&options)
                .await
                .map_err(|e| Error::NoAdapter {
                    requested: format!("{} ({e})", choice.name()),
                    found: Vec::new(),
                });
        }
        // A wasm build has only the browser's WebGPU: a native backend asked for by name is not
        // there. Say what is.
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = wgpu::Backends::BROWSER_WEBGPU;
        let found = match wgpu::Instance::new(desc).request_adapter(&options).await {
            Ok(a) => {
                let i = a.get_info();
                vec![format!("{} ({:?})", i.name, i.backend)]
            }
            Err(_) => Vec::new(),
        };
        Err(Error::NoAdapter {
            requested: choice.name().to_string(),
            found,
        })
    }
}

async fn request_device(
    adapter: &wgpu::Adapter,
    features: wgpu::Features,
    limits: Option<wgpu::Limits>,
) -> Result<(wgpu::Device, wgpu::Queue)> {
    let desc = wgpu::DeviceDescriptor {
        label: Some("shoal"),
        required_features: features,
        // wgpu's defaults cap a work group at 256 invocations and 16 KiB of shared memory:
        // ask for everything the adapter has instead.
        required_limits: limits.unwrap_or_else(|| adapter.limits()),
        ..Default::default()
    };
    adapter
        .request_device(&desc)
        .await
        .map_err(|e| Error::RequestDevice {
            adapter: adapter.get_info().name,
            message: e.to_string(),
        })
}
