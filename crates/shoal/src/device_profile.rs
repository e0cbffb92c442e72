//! [`DeviceProfile`]: what a kernel family plans from — the adapter's kind, its limits, its
//! subgroups — without a device, so that the variants a device would compile can be planned,
//! composed and validated anywhere (`cargo xtask check-wgsl`, `cargo xtask wgsl`).

use crate::gpu::Gpu;
use crate::limits::Limits;

/// A device as a kernel family's planner sees it: the adapter's name, backend and type, its
/// compute limits, and its subgroups. [`From<&Gpu>`](DeviceProfile::from) describes a real
/// device; [`lavapipe`](Self::lavapipe), [`llvmpipe`](Self::llvmpipe),
/// [`webgpu`](Self::webgpu) and [`gpu`](Self::gpu) describe the four kinds of device Shoal's
/// planners tell apart, so what each would compile can be seen without it.
///
/// ```
/// let lavapipe = shoal::DeviceProfile::lavapipe();
/// assert!(lavapipe.is_software() && lavapipe.is_llvmpipe());
/// assert_eq!(lavapipe.subgroup_size(), Some(8));
/// assert_eq!(lavapipe.without_subgroups().subgroup_size(), None);
/// assert_eq!(shoal::DeviceProfile::webgpu().max_workgroup_1d(1024), 256);
/// assert_eq!(shoal::DeviceProfile::named("gpu"), Some(shoal::DeviceProfile::gpu()));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceProfile {
    /// The adapter's name, as [`AdapterDetails::name`](crate::AdapterDetails::name) gives it
    /// (Mesa's llvmpipe is told apart by it).
    pub adapter: String,
    /// The backend that runs the kernels.
    pub backend: wgpu::Backend,
    /// What kind of adapter it is: [`wgpu::DeviceType::Cpu`] for a software one.
    pub device_type: wgpu::DeviceType,
    /// The compute limits.
    pub limits: Limits,
    /// Whether subgroup operations are available (wgpu's `SUBGROUP`).
    pub subgroups: bool,
    /// The smallest and the largest subgroup size the adapter runs.
    pub subgroup_sizes: [u32; 2],
}

/// The names [`DeviceProfile::named`] takes, in order.
pub const PROFILE_NAMES: [&str; 4] = ["lavapipe", "llvmpipe", "webgpu", "gpu"];

impl DeviceProfile {
    /// Mesa's lavapipe (Vulkan on the CPU): work groups of up to 1024 invocations, 32 KiB of
    /// shared memory, subgroups of 8.
    pub fn lavapipe() -> Self {
        Self {
            adapter: "llvmpipe (LLVM, 256 bits)".into(),
            backend: wgpu::Backend::Vulkan,
            device_type: wgpu::DeviceType::Cpu,
            limits: Limits::from_wgpu(&native_limits([1024, 1024, 1024])),
            subgroups: true,
            subgroup_sizes: [8, 8],
        }
    }

    /// Mesa's llvmpipe through OpenGL: lavapipe's work groups and shared memory, no subgroups.
    pub fn llvmpipe() -> Self {
        Self {
            adapter: "llvmpipe (LLVM, 256 bits)".into(),
            backend: wgpu::Backend::Gl,
            device_type: wgpu::DeviceType::Cpu,
            limits: Limits::from_wgpu(&native_limits([1024, 1024, 1024])),
            subgroups: false,
            subgroup_sizes: [0, 0],
        }
    }

    /// WebGPU in a browser on its fallback adapter (SwiftShader, which the browser reports as a
    /// CPU), with WebGPU's default limits ([`WEBGPU_LIMITS`](crate::WEBGPU_LIMITS): work groups
    /// of 256 invocations, 16 KiB of shared memory) and no subgroups.
    pub fn webgpu() -> Self {
        Self {
            adapter: "swiftshader".into(),
            backend: wgpu::Backend::BrowserWebGpu,
            device_type: wgpu::DeviceType::Cpu,
            limits: Limits::from_wgpu(&crate::WEBGPU_LIMITS),
            subgroups: false,
            subgroup_sizes: [0, 0],
        }
    }

    /// A discrete GPU on Vulkan: work groups of up to 1024 invocations, 32 KiB of shared
    /// memory, subgroups of 32.
    pub fn gpu() -> Self {
        Self {
            adapter: "a discrete GPU".into(),
            backend: wgpu::Backend::Vulkan,
            device_type: wgpu::DeviceType::DiscreteGpu,
            limits: Limits::from_wgpu(&native_limits([1024, 1024, 64])),
            subgroups: true,
            subgroup_sizes: [32, 32],
        }
    }

    /// The profile of that name ([`PROFILE_NAMES`]: `lavapipe`, `llvmpipe`, `webgpu`, `gpu`),
    /// or `None`.
    pub fn named(name: &str) -> Option<Self> {
        match name {
            "lavapipe" => Some(Self::lavapipe()),
            "llvmpipe" => Some(Self::llvmpipe()),
            "webgpu" => Some(Self::webgpu()),
            "gpu" => Some(Self::gpu()),
            _ => None,
        }
    }

    /// The same device with its subgroups withheld (what
    /// [`GpuOptions`](crate::GpuOptions)'s withheld features do to a real one).
    pub fn without_subgroups(mut self) -> Self {
        self.subgroups = false;
        self
    }

    /// The same device with subgroups of `size` invocations.
    pub fn with_subgroups(mut self, size: u32) -> Self {
        self.subgroups = true;
        self.subgroup_sizes = [size, size];
        self
    }

    /// Whether the adapter is a CPU (lavapipe, llvmpipe, SwiftShader): invocations run a SIMD
    /// row at a time, and barriers and work-group switches are what costs.
    pub fn is_software(&self) -> bool {
        self.device_type == wgpu::DeviceType::Cpu
    }

    /// Whether the adapter is Mesa's llvmpipe (lavapipe on Vulkan, llvmpipe on GL), by its name.
    pub fn is_llvmpipe(&self) -> bool {
        self.is_software() && self.adapter.starts_with("llvmpipe")
    }

    /// The subgroup size where the device has subgroup operations and runs every subgroup at one
    /// size; `None` otherwise ([`Gpu::subgroup_size`]).
    pub fn subgroup_size(&self) -> Option<u32> {
        subgroup_size(self.subgroups, self.subgroup_sizes)
    }

    /// The largest 1D work group the device runs, at most `cap` ([`Gpu::max_workgroup_1d`]).
    pub fn max_workgroup_1d(&self, cap: u32) -> u32 {
        max_workgroup_1d(&self.limits, cap)
    }
}

impl From<&Gpu> for DeviceProfile {
    fn from(gpu: &Gpu) -> Self {
        let details = gpu.adapter_details();
        Self {
            adapter: details.name.clone(),
            backend: details.backend,
            device_type: details.device_type,
            limits: gpu.limits().clone(),
            subgroups: gpu.has_subgroups(),
            subgroup_sizes: details.subgroup_sizes,
        }
    }
}

/// wgpu's default limits with a native device's work groups: `size` per dimension, 1024
/// invocations, 32 KiB of shared memory.
fn native_limits([x, y, z]: [u32; 3]) -> wgpu::Limits {
    wgpu::Limits {
        max_compute_workgroup_size_x: x,
        max_compute_workgroup_size_y: y,
        max_compute_workgroup_size_z: z,
        max_compute_invocations_per_workgroup: 1024,
        max_compute_workgroup_storage_size: 32768,
        ..wgpu::Limits::defaults()
    }
}

/// The one subgroup size of a device with subgroups whose smallest and largest sizes agree.
pub(crate) fn subgroup_size(subgroups: bool, [min, max]: [u32; 2]) -> Option<u32> {
    (subgroups && min == max && min > 0).then_some(min)
}

/// The largest 1D work group `limits` allow, at most `cap`.
pub(crate) fn max_workgroup_1d(limits: &Limits, cap: u32) -> u32 {
    limits
        .max_compute_work_group_invocations
        .min(limits.max_compute_work_group_size[0])
        .min(cap)
}
