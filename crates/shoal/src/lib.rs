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
//! [`Commands`] (batches), [`RenderModule`] and [`RenderPipeline`] (drawing through the same
//! preprocessor, bindings by name and profiling), [`Timing`] (profiling), [`Family`] and
//! [`Record`] (the contract of a kernel family), and [`Error`]; [`SplitMix64`] makes the
//! reproducible inputs tests and examples compare with their CPU twins.

mod aliasing;
mod append;
mod backend;
mod bind_cache;
mod binding;
#[cfg(not(target_arch = "wasm32"))]
mod blocking;
mod buffer;
mod commands;
mod device_profile;
mod dispatch;
mod element;
mod error;
#[cfg(test)]
mod errors_page;
mod family;
mod fields;
mod fold;
mod gpu;
mod health;
mod identity;
mod image;
mod immediates;
mod kernel;
mod kernel_checks;
mod labels;
mod limits;
mod panics;
mod portable;
mod printf;
mod profile;
mod profiler;
mod readback;
mod reflect;
mod render;
mod sampler;
mod size;
mod source;
mod splitmix;
mod staging;
mod turn;
mod wait;
mod zero_init;

pub use append::AppendBuffer;
pub use backend::BackendChoice;
pub use binding::{Bindable, BufferResource, Resource, SamplerResource, TextureResource};
pub use buffer::{Buffer, Usage};
pub use commands::{Commands, Submission};
pub use device_profile::{DeviceProfile, PROFILE_NAMES};
pub use dispatch::{Dispatch, DispatchArgs};
pub use element::{Element, LayoutKind};
pub use error::{Error, Result};
pub use family::{Family, Record};
mod hlsl_error;
pub use fields::{ElementField, FieldMismatch};
pub use gpu::{AdapterDetails, Gpu, GpuOptions, LLVMPIPE_LOOP_ITERATIONS};
pub use health::{ErrorHandler, LostHandler};
pub use hlsl_error::HlslError;
pub use identity::ResourceId;
pub use image::{Image, Texel};
pub use immediates::ImmediateError;
pub use kernel::{Kernel, KernelBuilder};
pub use labels::Labelled;
pub use limits::{LimitRow, Limits, PORTABLE_OFFSET_ALIGNMENT};
pub use panics::report_panics;
pub use portable::{WEBGPU_FEATURES, WEBGPU_LIMITS, validate_for};
pub use printf::{DEFAULT_PRINTF_CAPACITY, PrintLog, PrintRecord, PrintValue};
pub use profile::{Timing, TimingSource};
pub use reflect::{
    BindingInfo, BindingKind, BufferShape, ImmediateInfo, NeededFeatures, Reflection, WgslMember,
    WgslStruct, validate,
};
pub use render::{Draw, RenderModule, RenderPipeline};
pub use sampler::Sampler;
/// Options of a GLSL translation ([`Source::glsl_with`]): include directories, values of
/// `constant_id` constants fixed at translation, formats of storage images declared without one.
#[cfg(all(feature = "glsl", not(target_arch = "wasm32")))]
pub use shoal_glsl::Options as GlslOptions;
pub use source::{SNIPPETS, Source, Wgsl};
pub use splitmix::SplitMix64;
pub use staging::DEFAULT_STAGING_CAP;
pub use wait::DEFAULT_TIMEOUT;

pub use {bytemuck, encase, glam, half, naga, wgpu};

/// Derives [`Element`] for a struct with named fields: laid out by WGSL's rules (as encase's
/// `ShaderType` lays it out), and, bound to a WGSL struct, compared with it member by member —
/// a field swapped, missing, extra, renamed or of another type is [`Error::StructField`],
/// naming the member and both sides. Fields are scalars, glam vectors and matrices, arrays of
/// them, or types deriving encase's `ShaderType` (whose own fields are checked by size only).
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// #[derive(shoal::Element, Clone, Copy, Debug, PartialEq)]
/// struct Particle { pos: shoal::glam::Vec2, vel: shoal::glam::Vec2, life: u32, generation: u32 }
///
/// let gpu = shoal::Gpu::blocking()?;
/// let step = gpu.kernel("
///     struct Particle { pos: vec2<f32>, vel: vec2<f32>, life: u32, generation: u32 }
///     @group(0) @binding(0) var<storage, read_write> particles: array<Particle>;
///     @compute @workgroup_size(64)
///     fn step(@builtin(global_invocation_id) id: vec3<u32>) {
///         if id.x < arrayLength(&particles) { particles[id.x].life -= 1u; }
///     }")?;
/// let start = Particle { pos: shoal::glam::Vec2::ZERO, vel: shoal::glam::Vec2::ONE, life: 3, generation: 0 };
/// let particles = gpu.buffer_from(&[start; 2])?;
/// step.bind("particles", &particles).invocations(2).run()?;
/// assert_eq!(particles.read_blocking()?, [Particle { life: 2, ..start }; 2]);
/// # Ok(()) }
/// ```
pub use shoal_derive::Element;

// `#[derive(shoal::Element)]` writes `::shoal` paths, which the crate's own tests use too.
extern crate self as shoal;

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
/// error, or a construct docs/glsl.md lists as untranslatable, is a compile error naming the
/// file and line. Blocks are bound by name as [`Source::glsl`] says.
///
/// Translation options ([`GlslOptions`]) follow the path as `key = "value"`: `include = "dir"`
/// (searched by `#include` after the file's own directory; relative to the invoking file),
/// `constant = "NAME=4"` and `format = "image=rgba8"`. Each file the kernel includes is watched
/// by Cargo like the kernel: editing a header rebuilds.
#[cfg(feature = "glsl")]
#[macro_export]
macro_rules! glsl {
    ($path:literal $(, $key:ident = $value:literal)* $(,)?) => {
        $crate::Source::from_translated($path, $crate::__private::glsl_wgsl!($path $(, $key = $value)*))
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
        $crate::Source::from_translated($path, $crate::__private::hlsl_wgsl!($path, $entry))
    };
}

// wasm32 unit tests run in the browser, where `cargo xtask test` runs every suite (no Node.js).
#[cfg(all(test, target_arch = "wasm32"))]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[doc(hidden)]
pub mod __private {
    pub use crate::element::{check_whole, renamed};
    pub use bytemuck;
    #[cfg(feature = "glsl")]
    pub use shoal_glsl_macro::glsl_wgsl;
    #[cfg(feature = "hlsl")]
    pub use shoal_glsl_macro::hlsl_wgsl;
}
