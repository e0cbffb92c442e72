//! WebGPU's default limits and features, checked natively: [`GpuOptions::webgpu`] opens a
//! device held to them, [`validate_for`] checks a source against any limits without a device,
//! and a kernel built natively past them is named once in a `log` warning.
//!
//! A native adapter offers more than a browser: lavapipe runs 1024 invocations per work group
//! where WebGPU promises 256, so a kernel that works natively can fail only in the browser.

#[cfg(not(target_arch = "wasm32"))]
use std::collections::HashSet;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Mutex;

use crate::error::Result;
use crate::gpu::GpuOptions;
use crate::kernel_checks::check_limits;
use crate::reflect::Reflection;

/// WebGPU's default limits: what every browser device has unless a page asks for more.
pub const WEBGPU_LIMITS: wgpu::Limits = wgpu::Limits::defaults();

/// The features of the WebGPU standard, which a browser may have; every other wgpu feature is
/// native-only. Subgroups count as WebGPU's (its `subgroups` feature), as Shoal's kernels check
/// [`Gpu::has_subgroups`](crate::Gpu::has_subgroups) before using them.
pub const WEBGPU_FEATURES: wgpu::Features =
    wgpu::Features::all_webgpu_mask().union(wgpu::Features::SUBGROUP);

impl GpuOptions {
    /// Options that open the adapter held to WebGPU's default limits ([`WEBGPU_LIMITS`]) and
    /// without native-only features, so a kernel that would fail in the browser fails natively
    /// too, with the same [`Error`](crate::Error) (`WorkgroupTooLarge` for a work group of 512,
    /// `MissingFeature` for 64-bit atomics).
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// let gpu = shoal::Gpu::with_options_blocking(shoal::GpuOptions::webgpu())?;
    /// assert_eq!(gpu.limits().max_compute_work_group_invocations, 256);
    /// let e = gpu.kernel("@compute @workgroup_size(512) fn big() {}").expect_err("512 > 256");
    /// assert_eq!(e.name(), "WorkgroupTooLarge");
    /// # Ok(()) }
    /// ```
    ///
    /// An adapter below WebGPU's defaults (some GL drivers) fails to open with
    /// [`Error::RequestDevice`](crate::Error::RequestDevice) naming the limit.
    pub fn webgpu() -> Self {
        Self {
            limits: Some(WEBGPU_LIMITS),
            withheld_features: !WEBGPU_FEATURES,
            ..Self::default()
        }
    }
}

/// [`validate`](crate::validate), then each entry point checked against `limits` and
/// `features` as a device with them would check it when building the kernel: work-group size
/// and invocations, shared memory, bindings per stage and per group, and the features its WGSL
/// needs. [`WEBGPU_LIMITS`] and [`WEBGPU_FEATURES`] check a kernel for the browser, with no
/// device.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// let big = shoal::Source::new("big.wgsl", "@compute @workgroup_size(512) fn big() {}");
/// assert!(shoal::validate(&big).is_ok());
/// let e = shoal::validate_for(&big, &shoal::WEBGPU_LIMITS, shoal::WEBGPU_FEATURES)
///     .expect_err("256 invocations at most");
/// assert!(e.to_string().contains("big.wgsl:big"));
/// # Ok(()) }
/// ```
pub fn validate_for(
    source: &crate::Source,
    limits: &wgpu::Limits,
    features: wgpu::Features,
) -> Result<Vec<Reflection>> {
    let reflections = crate::validate(source)?;
    for r in &reflections {
        let name = format!("{}:{}", source.path(), r.entry_point);
        check_limits(&name, r, limits, features, || "given".to_string())?;
    }
    Ok(reflections)
}

/// Kernels already warned about, by name and warning: each is logged once per process.
#[cfg(not(target_arch = "wasm32"))]
static WARNED: Mutex<Option<HashSet<String>>> = Mutex::new(None);

/// Logs a warning, once per kernel, when the kernel `name` just built on a native device
/// needs more than WebGPU's defaults or a native-only feature. With `sized_by_program`
/// (override constants given), the limits are the program's choice, made from the device (as
/// Shoal's kernel families size their work groups), and only the features are compared.
/// Native only: in the browser, the browser's own limits refuse such a kernel.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn warn_unportable(
    name: &str,
    r: &Reflection,
    device: &wgpu::Limits,
    sized_by_program: bool,
) {
    let limits = if sized_by_program {
        device
    } else {
        &WEBGPU_LIMITS
    };
    let Err(e) = check_limits(name, r, limits, WEBGPU_FEATURES, || "WebGPU".to_string()) else {
        return;
    };
    let warning = format!(
        "{e} (WebGPU's default): this kernel runs here but not in a browser; open the Gpu with \
         GpuOptions::webgpu() to make it an error natively"
    );
    let mut warned = WARNED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if warned
        .get_or_insert_with(HashSet::new)
        .insert(warning.clone())
    {
        log::warn!("{warning}");
    }
}

/// Whether `name` was warned about (for tests).
#[cfg(all(test, not(target_arch = "wasm32")))]
pub(crate) fn warned(name: &str) -> bool {
    let warned = WARNED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    warned
        .as_ref()
        .is_some_and(|w| w.iter().any(|m| m.contains(&format!("`{name}`"))))
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use crate::{Error, Gpu, GpuOptions, Source};

    const BIG: &str = "@group(0) @binding(0) var<storage, read_write> v: array<u32>;
        @compute @workgroup_size(512) fn big(@builtin(global_invocation_id) id: vec3<u32>) {
            if id.x < arrayLength(&v) { v[id.x] = id.x; }
        }";

    #[test]
    fn a_work_group_of_512_is_refused_for_webgpu_without_a_device() {
        let big = Source::new("big.wgsl", BIG);
        assert!(crate::validate(&big).is_ok(), "naga alone has no limits");
        let e = super::validate_for(&big, &super::WEBGPU_LIMITS, super::WEBGPU_FEATURES)
            .expect_err("512 invocations");
        assert!(
            matches!(&e, Error::WorkgroupTooLarge { kernel, invocations: 512, limit: 256, .. }
                if kernel == "big.wgsl:big"),
            "{e:?}"
        );
        let atomics = Source::new(
            "wide.wgsl",
            "@group(0) @binding(0) var<storage, read_write> c: atomic<u64>;
            @compute @workgroup_size(1) fn wide() { atomicMax(&c, 1lu); }",
        );
        let e = super::validate_for(&atomics, &super::WEBGPU_LIMITS, super::WEBGPU_FEATURES)
            .expect_err("64-bit atomics are native-only");
        assert!(
            matches!(&e, Error::MissingFeature { feature, .. } if feature.contains("64-bit atomics")),
            "{e:?}"
        );
        // A device's own limits take it.
        let mut native = super::WEBGPU_LIMITS;
        native.max_compute_invocations_per_workgroup = 1024;
        native.max_compute_workgroup_size_x = 1024;
        super::validate_for(&big, &native, super::WEBGPU_FEATURES).expect("1024 allowed");
    }

    #[test]
    fn a_kernel_past_webgpu_is_warned_natively_and_refused_by_webgpu_options() {
        let gpu = Gpu::blocking().expect("device");
        if gpu.limits().max_compute_work_group_invocations < 512 {
            return; // the adapter refuses it itself, as the browser does
        }
        let k = gpu
            .kernel(Source::new("warned.wgsl", BIG))
            .expect("natively, 512 run");
        let v = gpu.buffer_zeroed::<u32>(1000).expect("buffer");
        k.bind("v", &v).invocations(1000).run().expect("run");
        assert_eq!(
            v.read_blocking().expect("read"),
            (0..1000).collect::<Vec<u32>>()
        );
        assert!(
            super::warned("warned.wgsl:big"),
            "a warning names the kernel"
        );
        // Built with override constants, its size is the program's choice: no warning.
        let sized = "override WG: u32 = 64;
            @compute @workgroup_size(WG) fn sized() {}";
        gpu.kernel_builder(Source::new("sized.wgsl", sized))
            .constant("WG", 512)
            .build()
            .expect("sized by the program");
        assert!(!super::warned("sized.wgsl:sized"));

        let web = match Gpu::with_options_blocking(GpuOptions::webgpu()) {
            Ok(web) => web,
            // An adapter below WebGPU's defaults cannot be held to them.
            Err(Error::RequestDevice { .. }) => return,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(web.limits().max_compute_work_group_invocations, 256);
        assert_eq!(
            web.features() & !super::WEBGPU_FEATURES,
            wgpu::Features::empty()
        );
        let e = web
            .kernel(Source::new("big.wgsl", BIG))
            .expect_err("512 > 256");
        assert!(
            matches!(e, Error::WorkgroupTooLarge { limit: 256, .. }),
            "{e:?}"
        );
    }
}
