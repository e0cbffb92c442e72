//! Property tests over Shoal's public entry points (issue 15): random sizes (0, the device's
//! limits and their neighbours, values near `u32::MAX` and `u64::MAX`), random and non-finite
//! parameters, and mutated WGSL. Each input must give a correct result or a typed error, never
//! a panic.
//!
//! `cargo xtask test` runs them with a fixed seed and a few inputs each; `cargo xtask fuzz
//! [--minutes N]` runs them for a while with random seeds and reports how many inputs were
//! tried. The runner and its knobs (`SHOAL_FUZZ_CASES`, `SHOAL_FUZZ_SEED`,
//! `SHOAL_FUZZ_SECONDS`) are [`crate::property`]'s; `SHOAL_FUZZ_SHOW`, when set, makes the WGSL
//! property print what each mutant gave.
//!
//! The properties run on a device with small limits ([`small_gpu`]), so the limits' boundaries
//! are reached with buffers and images of a few hundred KiB.

mod sizes;
mod wgsl;

use std::sync::OnceLock;

use shoal::Gpu;

pub(crate) use crate::property::{check, ensure};

/// [`small_gpu`]'s `max_buffer_size`.
pub(crate) const SMALL_BUFFER: u64 = 1 << 20;
/// [`small_gpu`]'s `max_storage_buffer_binding_size`.
pub(crate) const SMALL_BINDING: u64 = 256 << 10;
/// [`small_gpu`]'s `max_texture_dimension_2d`.
pub(crate) const SMALL_TEXTURE: u32 = 256;

/// The device of the property tests: the test adapter with `max_buffer_size`,
/// `max_storage_buffer_binding_size` and `max_texture_dimension_2d` lowered, so that every
/// size a property draws, up to and past each limit, is cheap to make.
pub(crate) fn small_gpu() -> Gpu {
    static GPU: OnceLock<Gpu> = OnceLock::new();
    GPU.get_or_init(|| {
        let probe = Gpu::blocking().unwrap_or_else(|e| panic!("no device for the properties: {e}"));
        let adapter = probe.adapter().expect("an adapter Shoal chose").clone();
        let own = adapter.limits();
        let required_limits = shoal::wgpu::Limits {
            max_buffer_size: SMALL_BUFFER.min(own.max_buffer_size),
            max_storage_buffer_binding_size: SMALL_BINDING.min(own.max_storage_buffer_binding_size),
            max_uniform_buffer_binding_size: (64 << 10).min(own.max_uniform_buffer_binding_size),
            max_texture_dimension_2d: SMALL_TEXTURE.min(own.max_texture_dimension_2d),
            ..own
        };
        let (device, queue) =
            pollster::block_on(adapter.request_device(&shoal::wgpu::DeviceDescriptor {
                label: Some("shoal properties"),
                required_limits,
                ..Default::default()
            }))
            .unwrap_or_else(|e| panic!("a device with small limits: {e}"));
        Gpu::from_wgpu(&adapter, device, queue)
    })
    .clone()
}
