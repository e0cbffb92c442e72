//! # Shoal: GPU compute on wgpu
//!
//! Write kernels in WGSL; Shoal reflects each one with naga, derives its bind-group layouts,
//! checks every dispatch against the device and the buffers bound to it, runs it, and reads the
//! results back — natively (Vulkan, Metal, DX12, GL) and in the browser (WebGPU).
//!
//! ```
//! # fn main() -> Result<(), shoal::Error> {
//! let gpu = shoal::Gpu::blocking()?;
//! let a = gpu.buffer_from(&[1.0f32, 2.0, 3.0])?;
//! let out = gpu.buffer_zeroed::<f32>(3)?;
//! let double = gpu.kernel("
//!     @group(0) @binding(0) var<storage, read> a: array<f32>;
//!     @group(0) @binding(1) var<storage, read_write> out: array<f32>;
//!     @compute @workgroup_size(64)
//!     fn main(@builtin(global_invocation_id) id: vec3<u32>) {
//!         if id.x < arrayLength(&a) { out[id.x] = 2.0 * a[id.x]; }
//!     }")?;
//! double.bind("a", &a).bind("out", &out).invocations(3).run()?;
//! assert_eq!(out.read_blocking()?, [2.0, 4.0, 6.0]);
//! # Ok(()) }
//! ```
//!
//! (`id.x` alone covers 65,535 work groups, 4,194,240 elements here; past that
//! [`Dispatch::invocations`] folds the groups over y and z and the kernel rebuilds its index with
//! `shoal_linear_index`, or the dispatch is refused rather than run partly.)
//!
//! The modules, in the order a kernel meets them: [`Source`] (WGSL and `#import`),
//! [`Reflection`] (what naga finds), [`Kernel`] (pipeline and derived layouts), [`Buffer`]
//! (typed data, [`Element`] layouts), [`Image`] and [`Sampler`] (textures), [`Dispatch`] (binding by name, sizes, checks),
//! [`AppendBuffer`] (append/consume with atomic counters), [`PrintLog`] (GPU printf),
//! [`Commands`] (batches), [`Timing`] (profiling), and [`Error`].

mod aliasing;
mod append;
mod backend;
mod bind_cache;
mod binding;
mod buffer;
mod commands;
mod dispatch;
mod element;
mod error;
#[cfg(test)]
mod errors_page;
mod gpu;
mod health;
mod identity;
mod image;
mod immediates;
mod kernel;
mod kernel_checks;
mod limits;
mod printf;
mod profile;
mod readback;
mod reflect;
mod sampler;
mod size;
mod source;
mod staging;
mod turn;
mod wait;
mod zero_init;

pub use append::AppendBuffer;
pub use backend::BackendChoice;
pub use binding::{Bindable, BufferResource, Resource, SamplerResource, TextureResource};
pub use buffer::{Buffer, Usage};
pub use commands::{Commands, Submission};
pub use dispatch::{Dispatch, DispatchArgs};
pub use element::{Element, LayoutKind};
pub use error::{Error, Result};
mod hlsl_error;
pub use hlsl_error::HlslError;
pub use gpu::{AdapterDetails, Gpu, GpuOptions, LLVMPIPE_LOOP_ITERATIONS};
pub use health::{ErrorHandler, LostHandler};
pub use identity::ResourceId;
pub use image::{Image, Texel};
pub use immediates::ImmediateError;
pub use kernel::{Kernel, KernelBuilder};
pub use limits::{LimitRow, Limits, PORTABLE_OFFSET_ALIGNMENT};
pub use printf::{DEFAULT_PRINTF_CAPACITY, PrintLog, PrintRecord, PrintValue};
pub use profile::{Timing, TimingSource};
pub use reflect::{
    BindingInfo, BindingKind, BufferShape, ImmediateInfo, NeededFeatures, Reflection, validate,
};
pub use sampler::Sampler;
pub use source::{SNIPPETS, Source};
pub use staging::DEFAULT_STAGING_CAP;
pub use wait::DEFAULT_TIMEOUT;

pub use {bytemuck, encase, glam, half, naga, wgpu};

/// Compiles a `.wgsl` file into the binary as a [`Source`] that remembers its path, so errors
/// name the file. The path is relative to the file invoking the macro, as with `include_str!`.
#[macro_export]
macro_rules! wgsl {
    ($path:literal) => {
        $crate::Source::from_static($path, include_str!($path))
    };
}

/// Compiles a GLSL compute kernel (`.comp`) into the binary as a [`Source`] named after the GLSL
/// file: glslang and naga translate it to WGSL at compile time, so it runs on every target, the
/// browser included. The path is relative to the invoking file, as with `include_str!`. A GLSL
/// error, or a construct docs/porting.md lists as untranslatable, is a compile error naming the
/// file and line. Blocks are bound by name as [`Source::glsl`] says.
#[cfg(feature = "glsl")]
#[macro_export]
macro_rules! glsl {
    ($path:literal) => {
        $crate::Source::from_static($path, $crate::__private::glsl_wgsl!($path))
    };
}

/// Compiles one entry point of an HLSL compute kernel (`.hlsl`, the `[numthreads]` function named
/// by the second argument) into the binary as a [`Source`] named after the HLSL file: glslang's
/// HLSL front end and naga translate it to WGSL at compile time, so it runs on every target, the
/// browser included. The path is relative to the invoking file, as with `include_str!`. An HLSL
/// error, or a construct docs/hlsl.md lists as refused, is a compile error naming the file and
/// line. Resources are bound by their HLSL names as [`Source::hlsl`] says.
#[cfg(feature = "hlsl")]
#[macro_export]
macro_rules! hlsl {
    ($path:literal, $entry:literal) => {
        $crate::Source::from_static($path, $crate::__private::hlsl_wgsl!($path, $entry))
    };
}

// wasm32 unit tests run in the browser, where `cargo xtask test` runs every suite (no Node.js).
#[cfg(all(test, target_arch = "wasm32"))]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[doc(hidden)]
pub mod __private {
    pub use crate::element::check_whole;
    pub use bytemuck;
    #[cfg(feature = "glsl")]
    pub use shoal_glsl_macro::glsl_wgsl;
    #[cfg(feature = "hlsl")]
    pub use shoal_glsl_macro::hlsl_wgsl;
}
