//! The one error type of Shoal: every variant says what happened, where (the kernel, the binding)
//! and which limit and its value. The checks in [`crate::Dispatch`] and [`crate::Kernel`] run
//! before wgpu, whose reports are error scopes' [`Error::Wgpu`], never a panic.

mod messages;
pub use messages::Result;
use messages::{hint, list_or_none};

/// Everything that can go wrong in Shoal, each case typed.
#[derive(Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No adapter matched the requested backend.
    #[error(
        "no {requested} adapter found; adapters found: {}{}",
        list_or_none(found),
        hint(requested)
    )]
    NoAdapter {
        /// The backend that was asked for (`SHOAL_BACKEND` or [`crate::GpuOptions`]).
        requested: String,
        /// Every adapter that was found, as `name (backend)`.
        found: Vec<String>,
    },
    /// `SHOAL_BACKEND` names no backend Shoal knows.
    #[error("SHOAL_BACKEND={value:?} is not one of vulkan, gl, metal, dx12, webgpu, auto")]
    UnknownBackend {
        /// The value that was given.
        value: String,
    },
    /// The adapter refused to create a device.
    #[error("could not create a device on {adapter}: {message}")]
    RequestDevice {
        /// The adapter's name.
        adapter: String,
        /// wgpu's reason.
        message: String,
    },
    /// A WGSL source failed to parse or validate: file, line, column and the source line.
    #[error("kernel `{kernel}`: WGSL error\n{message}")]
    Wgsl {
        /// The kernel (file path or label).
        kernel: String,
        /// The rendered diagnostic.
        message: String,
    },
    /// A GLSL kernel failed to compile or translate: `kernel.comp:4: error: …`, the line under it.
    #[error("kernel `{kernel}`: GLSL error\n{message}")]
    Glsl {
        /// The kernel (GLSL file path or label).
        kernel: String,
        /// The rendered diagnostic.
        message: String,
    },
    /// A GLSL construct Shoal cannot translate or WebGPU run (docs/glsl.md): what, where, the fix.
    #[error(
        "kernel `{kernel}`: {location}: {construct} cannot be translated from GLSL; in WGSL: {wgsl}"
    )]
    GlslUnsupported {
        /// The kernel (GLSL file path or label).
        kernel: String,
        /// The GLSL construct.
        construct: String,
        /// Its WGSL equivalent.
        wgsl: String,
        /// `file:line` of its first use.
        location: String,
    },
    /// An HLSL kernel that failed to compile or translate, or uses a construct Shoal refuses.
    #[error("{0}")]
    Hlsl(crate::HlslError),
    /// `#import` names a snippet that does not exist.
    #[error("kernel `{kernel}`: `#import {name}` names no snippet; known snippets: {}", available.join(", "))]
    UnknownSnippet {
        /// The kernel.
        kernel: String,
        /// The snippet that was asked for.
        name: String,
        /// The snippets that exist.
        available: Vec<String>,
    },
    /// `#import name(args)` with another number of arguments than the template snippet takes.
    #[error("kernel `{kernel}`: `#import {name}` gives {got} arguments, but the snippet takes {}: ({})", params.len(), params.join(", "))]
    SnippetArguments {
        /// The kernel.
        kernel: String,
        /// The import as written.
        name: String,
        /// The snippet's parameters.
        params: Vec<String>,
        /// How many arguments were given.
        got: usize,
    },
    /// A `// #block name` … `// #end name` substitution that does not fit the source: no such
    /// region, a region without its end, or a name given twice.
    #[error("kernel `{kernel}`: `#block {name}`: {message}")]
    Block {
        /// The kernel.
        kernel: String,
        /// The block's name.
        name: String,
        /// What is wrong and what to do.
        message: String,
    },
    /// The entry point was not given and the module has several (or none), or the name is not one
    /// of them.
    #[error("kernel `{kernel}`: {}; compute entry points: {}", match (requested, available.is_empty()) { (Some(n), _) => format!("no compute entry point `{n}`"), (None, true) => "no compute entry point (`@compute @workgroup_size(..) fn name(..)`)".to_string(), (None, false) => "several compute entry points, name one".to_string() }, list_or_none(available))]
    EntryPoint {
        /// The kernel.
        kernel: String,
        /// The name asked for, if any.
        requested: Option<String>,
        /// The compute entry points of the module.
        available: Vec<String>,
    },
    /// An override constant was not accepted.
    #[error("kernel `{kernel}`: override constants: {message}")]
    Override {
        /// The kernel.
        kernel: String,
        /// What naga said.
        message: String,
    },
    /// The kernel needs a device feature the adapter does not have.
    #[error("kernel `{kernel}` needs the device feature {feature}, which adapter {adapter} does not have{}; {remedy}", location.as_ref().map_or(String::new(), |l| format!(" (first used at {l})")))]
    MissingFeature {
        /// The kernel.
        kernel: String,
        /// The wgpu feature name.
        feature: String,
        /// The adapter.
        adapter: String,
        /// `file:line` of its first use in a translated GLSL kernel.
        location: Option<String>,
        /// What to do.
        remedy: String,
    },
    /// The work group is larger than the device allows (per dimension or in total).
    #[error(
        "kernel `{kernel}`: @workgroup_size{size:?} ({invocations} invocations) is over {limit_name} = {limit} on this device; make it smaller (plan it from gpu.limits())"
    )]
    WorkgroupTooLarge {
        /// The kernel.
        kernel: String,
        /// The reflected work-group size.
        size: [u32; 3],
        /// Its product.
        invocations: u32,
        /// Which limit (the specification's name).
        limit_name: &'static str,
        /// The device's value of that limit.
        limit: u32,
    },
    /// The kernel's `var<workgroup>` variables need more bytes than the device has.
    #[error(
        "kernel `{kernel}`: workgroup memory of {bytes} bytes exceeds MAX_COMPUTE_SHARED_MEMORY_SIZE = {limit} on this device"
    )]
    WorkgroupMemory {
        /// The kernel.
        kernel: String,
        /// Bytes the kernel declares (each variable rounded up to 16).
        bytes: u64,
        /// The device's limit.
        limit: u32,
    },
    /// An explicit group count exceeds the per-dimension limit (the specification's INVALID_VALUE).
    #[error(
        "kernel `{kernel}`: dispatch of {groups:?} work groups exceeds MAX_COMPUTE_WORK_GROUP_COUNT = {limit} in dimension {dimension} (INVALID_VALUE); {remedy}"
    )]
    TooManyGroups {
        /// The kernel.
        kernel: String,
        /// The requested counts.
        groups: [u32; 3],
        /// The first dimension (0, 1 or 2) over the limit.
        dimension: usize,
        /// The device's limit.
        limit: u32,
        /// What to do instead, for the way the count was given.
        remedy: String,
    },
    /// A dispatch was run without saying how many work groups.
    #[error(
        "kernel `{kernel}`: no size given; call .groups([x, y, z]), .invocations(n) or .indirect(&args, offset) before .run()"
    )]
    NoSize {
        /// The kernel.
        kernel: String,
    },
    /// An indirect-dispatch offset that is not a multiple of 4 (the specification's INVALID_VALUE).
    #[error("kernel `{kernel}`: indirect offset {offset} is not a multiple of 4 (INVALID_VALUE)")]
    IndirectOffset {
        /// The kernel.
        kernel: String,
        /// The offset in bytes.
        offset: u64,
    },
    /// Indirect arguments that run past the end of their buffer (the specification's INVALID_OPERATION).
    #[error(
        "kernel `{kernel}`: indirect arguments at offset {offset} need 12 bytes, but the buffer has {buffer_bytes} bytes (INVALID_OPERATION)"
    )]
    IndirectOutOfBounds {
        /// The kernel.
        kernel: String,
        /// The offset in bytes.
        offset: u64,
        /// The size of the arguments buffer.
        buffer_bytes: u64,
    },
    /// A buffer lacks the usage its role needs (INDIRECT for arguments, STORAGE or UNIFORM for a binding).
    #[error(
        "kernel `{kernel}`: {binding} needs a buffer with {usage} usage, but the buffer has {has}; {fix}"
    )]
    MissingUsage {
        /// The kernel.
        kernel: String,
        /// The binding (or `indirect arguments`).
        binding: String,
        /// The usage that is missing.
        usage: String,
        /// The usages the buffer has.
        has: String,
        /// What to do instead.
        fix: String,
    },
    /// A binding the kernel uses was not bound.
    #[error(
        "kernel `{kernel}`: binding `{binding}` (@group({group}) @binding({index})) was not bound; call .bind(\"{binding}\", ...)"
    )]
    Unbound {
        /// The kernel.
        kernel: String,
        /// The binding's WGSL name.
        binding: String,
        /// Its group.
        group: u32,
        /// Its binding number.
        index: u32,
    },
    /// `.bind(name, …)` with a name the kernel does not have.
    #[error(
        "kernel `{kernel}` has no binding `{binding}`; its bindings are: {}",
        list_or_none(available)
    )]
    UnknownBinding {
        /// The kernel.
        kernel: String,
        /// The name that was given.
        binding: String,
        /// The names the kernel has.
        available: Vec<String>,
    },
    /// The bound resource is of another kind or access than the WGSL declares.
    #[error("kernel `{kernel}`: binding `{binding}` is {expected} but got {got}")]
    BindingKind {
        /// The kernel.
        kernel: String,
        /// The binding.
        binding: String,
        /// What the WGSL declares.
        expected: String,
        /// What was bound.
        got: String,
    },
    /// The Rust element type does not have the layout of the WGSL type.
    #[error(
        "kernel `{kernel}`: binding `{binding}` expects `{wgsl_type}` ({wgsl_bytes} bytes per element) but got `Buffer<{rust_type}>` ({rust_bytes} bytes per element){hint}"
    )]
    ElementLayout {
        /// The kernel.
        kernel: String,
        /// The binding.
        binding: String,
        /// The WGSL type of one element (or of the whole binding).
        wgsl_type: String,
        /// Its stride or size.
        wgsl_bytes: u64,
        /// The Rust element type.
        rust_type: String,
        /// Its stride.
        rust_bytes: u64,
        /// Advice, such as the vec3 alignment rule.
        hint: String,
    },
    /// Immediate data and the value given for it do not match (docs/immediates.md).
    #[error("{0}")]
    Immediates(#[from] crate::ImmediateError),
    /// A field of a `#[derive(shoal::Element)]` struct differs from its WGSL struct's member.
    #[error("{0}")]
    StructField(Box<crate::FieldMismatch>),
    /// The bound buffer is smaller than the WGSL type needs.
    #[error(
        "kernel `{kernel}`: binding `{binding}` needs at least {needed} bytes ({wgsl_type}) but the buffer has {got}"
    )]
    BufferTooSmall {
        /// The kernel.
        kernel: String,
        /// The binding.
        binding: String,
        /// The WGSL type.
        wgsl_type: String,
        /// Bytes needed.
        needed: u64,
        /// Bytes present.
        got: u64,
    },
    /// An image of zero texels or larger than the device's `max_texture_dimension_2d`.
    #[error(
        "an image of {width}x{height} texels is not possible: each side must be between 1 and max_texture_dimension_2d = {limit} on this device"
    )]
    ImageSize {
        /// The width asked for.
        width: u32,
        /// The height asked for.
        height: u32,
        /// The device's limit.
        limit: u32,
    },
    /// An image was asked for with a usage its format does not allow on this device.
    #[error("an image of format {format} cannot have usage {usage} on this device")]
    ImageUsage {
        /// The format (WGSL spelling).
        format: String,
        /// The usages that are not allowed.
        usage: String,
    },
    /// Host texels of a type that does not hold one texel of the image's format.
    #[error("an image of format {format} holds `{expected}` texels, not `{got}`")]
    TexelType {
        /// The image's format (WGSL spelling).
        format: String,
        /// The host type(s) that fit.
        expected: &'static str,
        /// The type that was given.
        got: &'static str,
    },
    /// The bound image's format is not the one the WGSL declares (storage) or its texels are of
    /// another kind (`texture_2d<u32>` with a float image).
    #[error(
        "kernel `{kernel}`: binding `{binding}` is {expected} but the image bound to it has format {got}"
    )]
    ImageFormat {
        /// The kernel.
        kernel: String,
        /// The binding.
        binding: String,
        /// What the WGSL declares.
        expected: String,
        /// The format of the bound image.
        got: String,
    },
    /// The bound image's dimension (2D, 2D array, 3D, cube) is not the one the WGSL declares.
    #[error(
        "kernel `{kernel}`: binding `{binding}` is {expected} but the image bound to it has dimension {got}"
    )]
    ImageDimension {
        /// The kernel.
        kernel: String,
        /// The binding.
        binding: String,
        /// What the WGSL declares.
        expected: String,
        /// The dimension of the bound view.
        got: String,
    },
    /// A storage image's access mode (read, write, read_write) is not allowed for its format on
    /// this device; found at kernel creation.
    #[error(
        "kernel `{kernel}`: binding `{binding}` is {declared}, but this format allows only {allowed} storage access on {adapter}; {remedy}"
    )]
    StorageAccess {
        /// The kernel.
        kernel: String,
        /// The binding.
        binding: String,
        /// What the WGSL declares.
        declared: String,
        /// The access modes the format allows here.
        allowed: String,
        /// The adapter.
        adapter: String,
        /// What to do: for `read_write`, two images or an `r32` format; for a format with no
        /// storage use, another format; otherwise the access the format allows.
        remedy: String,
    },
    /// A filtering sampler samples a texture whose format this device cannot filter.
    #[error(
        "kernel `{kernel}`: texture `{binding}` has format {format}, which this device cannot filter, but it is sampled with the filtering sampler `{sampler}`; bind gpu.sampler_nearest() instead (32-bit float formats filter only with the FLOAT32_FILTERABLE feature)"
    )]
    Unfilterable {
        /// The kernel.
        kernel: String,
        /// The texture binding.
        binding: String,
        /// The sampler binding.
        sampler: String,
        /// The texture's format.
        format: String,
    },
    /// More items were appended to an [`AppendBuffer`](crate::AppendBuffer) than it holds (the
    /// extra ones were not written), or more were given to fill it with (nothing was written).
    #[error("{what}: {attempted} items for a capacity of {capacity}, {} too many (make it larger)", attempted.saturating_sub(*capacity))]
    AppendOverflow {
        /// The buffer and what was being done.
        what: String,
        /// Its capacity.
        capacity: u64,
        /// How many appends were attempted.
        attempted: u64,
    },
    /// A kernel printed more records than its printf ring holds.
    #[error("kernel `{kernel}`: printf recorded {attempted} records but its ring holds {capacity}; the {} after the first {capacity} were dropped (raise it with KernelBuilder::printf_capacity)", attempted.saturating_sub(*capacity))]
    PrintfOverflow {
        /// The kernel.
        kernel: String,
        /// Records the ring holds.
        capacity: u64,
        /// Records the invocations tried to write.
        attempted: u64,
    },
    /// Host values could not be turned into a buffer's GPU bytes, or bytes read back into
    /// values: a byte count that is not a whole number of elements, or encase refusing the data.
    #[error("{operation} `{type_name}` elements: {reason}")]
    ElementCodec {
        /// The Rust element type ([`Element::type_name`](crate::Element::type_name)).
        type_name: String,
        /// `"encoding"` (host to GPU bytes) or `"decoding"` (GPU bytes to host).
        operation: &'static str,
        /// What went wrong.
        reason: String,
    },
    /// A host-side length did not match (writing more elements than a buffer holds, copying between
    /// buffers of different lengths).
    #[error("{what}: expected {expected} elements, got {got}")]
    Length {
        /// The operation.
        what: String,
        /// What the buffer holds.
        expected: u64,
        /// What was given.
        got: u64,
    },
    /// Reading a buffer back failed (mapping refused, device lost).
    #[error("readback failed: {0}")]
    Readback(String),
    /// A wait or readback did not see the GPU finish within the `Gpu`'s deadline
    /// ([`Gpu::set_timeout`](crate::Gpu::set_timeout)). The work is not cancelled: it still
    /// runs, and a later wait or read sees its result.
    #[error(
        "{what}: the GPU had not finished after {waited:?} (the deadline, Gpu::timeout, is {limit:?}); the work still runs: wait again, or raise the deadline with Gpu::set_timeout"
    )]
    Timeout {
        /// The call that waited.
        what: String,
        /// How long it waited.
        waited: std::time::Duration,
        /// The deadline it had.
        limit: std::time::Duration,
    },
    /// The device is lost (destroyed, or lost by the driver): every call on its `Gpu` fails so.
    /// Make a new `Gpu` and re-create the resources and kernels on it.
    #[error(
        "{what}: the device is lost ({reason}); make a new Gpu and re-create the buffers, images and kernels on it"
    )]
    DeviceLost {
        /// The call that found the device lost.
        what: String,
        /// Why it was lost, as wgpu said (or `destroyed by Gpu::destroy`).
        reason: String,
    },
    /// wgpu reported an error that Shoal's own checks did not anticipate.
    #[error("{context}: wgpu reported: {message}")]
    Wgpu {
        /// What Shoal was doing.
        context: String,
        /// wgpu's message.
        message: String,
    },
    /// Reading a `.wgsl` file from disk failed.
    #[error("cannot read {path}: {message}")]
    Io {
        /// The path.
        path: String,
        /// The system's message.
        message: String,
    },
    /// A resource (buffer, image, sampler, append buffer, indirect arguments) or a kernel made
    /// by one [`Gpu`](crate::Gpu) was used with another: each device only knows its own objects.
    #[error(
        "{what} was made by {resource_gpu} but is used with {expected_gpu}; resources and kernels work only on the Gpu that made them: create it with the same Gpu (clones of a Gpu are the same device)"
    )]
    WrongGpu {
        /// The use: the kernel and binding, or the operation.
        what: String,
        /// The `Gpu` that made the resource (`Gpu #n (adapter)`).
        resource_gpu: String,
        /// The `Gpu` it was used with.
        expected_gpu: String,
    },
    /// One buffer or image (or two views of its memory) bound to two bindings of one dispatch,
    /// at least one of them writable: a data race that WebGPU refuses, so Shoal refuses it
    /// everywhere.
    #[error(
        "kernel `{kernel}`: bindings `{first}` ({first_access}) and `{second}` ({second_access}) are the same memory (one buffer or image, or views of it), and a writable binding may not alias another binding; bind a separate buffer or image (copy the input first, or make a zeroed output), or use one read_write binding in the WGSL"
    )]
    Aliasing {
        /// The kernel.
        kernel: String,
        /// The first binding.
        first: String,
        /// Its access (`read_write`, `read`, `uniform`).
        first_access: &'static str,
        /// The second binding.
        second: String,
        /// Its access.
        second_access: &'static str,
    },
    /// A buffer bound with more bytes than the device lets one binding see
    /// (`max_storage_buffer_binding_size` or `max_uniform_buffer_binding_size`).
    #[error(
        "kernel `{kernel}`: binding `{binding}` would see {bytes} bytes, more than {limit_name} = {limit} on this device; split the input into parts of at most {limit} bytes and dispatch once per part"
    )]
    BindingTooLarge {
        /// The kernel.
        kernel: String,
        /// The binding.
        binding: String,
        /// The bytes bound.
        bytes: u64,
        /// The limit's name.
        limit_name: &'static str,
        /// The device's value of that limit.
        limit: u64,
    },
    /// A binding's `@group` or `@binding` number at or above what the device allows
    /// (`max_bind_groups`, `max_bindings_per_bind_group`); found at kernel creation.
    #[error(
        "kernel `{kernel}`: binding `{binding}` is @group({group}) @binding({index}), but {limit_name} = {limit} on this device allows numbers 0 to {}; renumber it", limit.saturating_sub(1)
    )]
    BindingNumber {
        /// The kernel.
        kernel: String,
        /// The binding.
        binding: String,
        /// Its group.
        group: u32,
        /// Its binding number.
        index: u32,
        /// The limit broken.
        limit_name: &'static str,
        /// The device's value of that limit.
        limit: u32,
    },
    /// More bindings of one kind than the device lets one shader stage use
    /// (`max_storage_buffers_per_shader_stage` and its siblings); found at kernel creation.
    #[error(
        "kernel `{kernel}`: it uses {count} {kind}, but {limit_name} = {limit} on this device; merge some into one buffer or image (a struct, or an array indexed by the kernel), or split the kernel"
    )]
    TooManyBindings {
        /// The kernel.
        kernel: String,
        /// What kind of binding (`storage buffers`, `uniform buffers`, `sampled textures`,
        /// `storage textures`, `samplers`).
        kind: &'static str,
        /// How many of them the kernel uses.
        count: u32,
        /// The limit broken.
        limit_name: &'static str,
        /// The device's value of that limit.
        limit: u32,
    },
    /// A buffer, append buffer or image asked for with more bytes than the device allows in one
    /// resource (or than a `u64` counts): refused before wgpu sees it.
    #[error(
        "{what}: {bytes} bytes exceed {limit_name} = {limit} on this device; use fewer elements, or split the data into parts of at most {limit} bytes"
    )]
    ResourceTooLarge {
        /// The resource and its size as asked (`a buffer of 5 x u32`).
        what: String,
        /// The bytes it would need (exact, even past `u64::MAX`).
        bytes: u128,
        /// The limit's name (`max_buffer_size`, `max_storage_buffer_binding_size`).
        limit_name: &'static str,
        /// The device's value of that limit.
        limit: u64,
    },
    /// A kernel family's parameter outside what its algorithm allows (a blur radius over its cache).
    #[error("{kernel}: {parameter} = {value} is not allowed: {rule}")]
    InvalidParameter {
        /// The kernel family (`GaussianBlur`, `Waves`, …).
        kernel: String,
        /// The parameter.
        parameter: String,
        /// The value given.
        value: String,
        /// The rule it breaks, and what to do.
        rule: String,
    },
}
