//! Immediate data (`var<immediate>`; a GLSL `layout(push_constant) uniform` block becomes one):
//! the value a dispatch gives with [`Dispatch::immediates`](crate::Dispatch::immediates),
//! checked against the block's layout as a bound buffer's elements are, and how it reaches the
//! kernel: through `set_immediates` where the device takes the block, otherwise through a
//! binding Shoal owns and writes in the batch's order (`rewrite.rs`). docs/immediates.md
//! explains both.

mod rewrite;

pub(crate) use rewrite::plan;

use crate::binding::{BufferResource, Resource, clash, short_type_name};
use crate::commands::Commands;
use crate::element::{Element, LayoutKind};
use crate::error::Result;
use crate::gpu::Gpu;
use crate::identity::ResourceId;
use crate::kernel::Kernel;
use crate::reflect::ImmediateInfo;

/// Why a dispatch's immediate data does not fit its kernel: the case of
/// [`Error::Immediates`](crate::Error::Immediates). Each is returned by `run` or `record` before
/// anything is recorded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ImmediateError {
    /// The Rust value's layout is not the block's: another size, or scalars of another kind.
    #[error(
        "kernel `{kernel}`: immediate data {declaration} is `{wgsl_type}` ({wgsl_bytes} bytes) but .immediates(..) got `{rust_type}` ({rust_bytes} bytes){hint}"
    )]
    Layout {
        /// The kernel.
        kernel: String,
        /// The declaration, `var<immediate> name: Type`.
        declaration: String,
        /// The block's WGSL type.
        wgsl_type: String,
        /// Its size.
        wgsl_bytes: u64,
        /// The Rust type given.
        rust_type: String,
        /// Its size (as WGSL lays it out for an `encase::ShaderType`, byte for byte for a
        /// [`pod_element!`](crate::pod_element)).
        rust_bytes: u64,
        /// What differs, and how to fix it.
        hint: String,
    },
    /// A value for a kernel that declares no immediate data.
    #[error(
        "kernel `{kernel}` declares no immediate data (no `var<immediate>`, no GLSL push-constant block) but .immediates(..) got `{rust_type}`: remove the call, or declare the block"
    )]
    NotDeclared {
        /// The kernel.
        kernel: String,
        /// The Rust type given.
        rust_type: String,
    },
    /// A kernel that declares immediate data, dispatched without a value for it.
    #[error(
        "kernel `{kernel}`: immediate data {declaration} was not given: call .immediates(&value) on the dispatch with a `{wgsl_type}` value ({wgsl_bytes} bytes)"
    )]
    Missing {
        /// The kernel.
        kernel: String,
        /// The declaration, `var<immediate> name: Type`.
        declaration: String,
        /// The block's WGSL type.
        wgsl_type: String,
        /// Its size.
        wgsl_bytes: u64,
    },
    /// `.bind(name, ..)` with the name of the kernel's immediate data.
    #[error(
        "kernel `{kernel}`: `{name}` is immediate data ({declaration}): set it with .immediates(&value), not .bind"
    )]
    Bound {
        /// The kernel.
        kernel: String,
        /// The name given to `.bind`.
        name: String,
        /// The declaration, `var<immediate> name: Type`.
        declaration: String,
    },
}

/// The bytes of `value` as the immediate data of `kernel`, checked against its block's layout:
/// the block's size, padded to whole words.
pub(crate) fn encode<T: Element>(kernel: &Kernel, value: &T) -> Result<Vec<u8>> {
    let rust_type = short_type_name(T::type_name());
    let Some(info) = &kernel.reflection().immediates else {
        return Err(ImmediateError::NotDeclared {
            kernel: kernel.name().to_string(),
            rust_type,
        }
        .into());
    };
    let shape = &info.shape;
    let fits = T::SIZE == shape.fixed || T::STRIDE == shape.fixed;
    let scalars = clash(&shape.wgsl_type, T::type_name());
    if !fits || scalars.is_some() {
        let hint = match scalars {
            Some((w, r)) => format!(
                ": its scalars are {r} where the block's are {w}, whose bits would be read as \
                 {w}; give a value of the block's scalar type"
            ),
            None if shape.has_vec3 && T::LAYOUT == LayoutKind::Pod => {
                "; WGSL aligns vec3<f32> to 16 bytes: derive encase::ShaderType on the Rust \
                 type (with glam::Vec3) so Shoal pads it, or pad the #[repr(C)] struct by hand"
                    .into()
            }
            None => "; give a Rust type of the block's layout (derive encase::ShaderType on a \
                     struct with the block's members, or pod_element! a #[repr(C)] struct of \
                     its bytes)"
                .into(),
        };
        return Err(ImmediateError::Layout {
            kernel: kernel.name().to_string(),
            declaration: info.declaration(),
            wgsl_type: shape.wgsl_type.clone(),
            wgsl_bytes: shape.fixed,
            rust_type,
            rust_bytes: T::SIZE,
            hint,
        }
        .into());
    }
    let mut bytes = Vec::with_capacity(T::STRIDE.max(shape.fixed) as usize + 3);
    T::encode(std::slice::from_ref(value), &mut bytes)?;
    bytes.resize(info.size() as usize, 0);
    Ok(bytes)
}

/// The error of a dispatch of `kernel` (whose immediate data is `info`) given no value.
pub(crate) fn missing(kernel: &str, info: &ImmediateInfo) -> crate::Error {
    ImmediateError::Missing {
        kernel: kernel.to_string(),
        declaration: info.declaration(),
        wgsl_type: info.shape.wgsl_type.clone(),
        wgsl_bytes: info.shape.fixed,
    }
    .into()
}

/// The error of `.bind(name, ..)` where `name` is the immediate data `info`.
pub(crate) fn bound(kernel: &str, info: &ImmediateInfo) -> crate::Error {
    ImmediateError::Bound {
        kernel: kernel.to_string(),
        name: info.name.clone(),
        declaration: info.declaration(),
    }
    .into()
}

/// The binding Shoal owns for a kernel whose immediate data this device does not take as such:
/// one buffer, written by each dispatch in its batch's order (a copy recorded just before the
/// dispatch's pass), so dispatches recorded one after another each read their own value.
pub(crate) struct Owned {
    raw: wgpu::Buffer,
    id: ResourceId,
    /// The binding's index in the kernel's reflected bindings.
    pub(crate) slot: usize,
    /// The block's bytes.
    bytes: u64,
}

impl Owned {
    /// The buffer, as the dispatch binds it.
    pub(crate) fn resource(&self) -> Resource<'_> {
        Resource::Buffer(BufferResource {
            raw: &self.raw,
            id: &self.id,
            offset: 0,
            bytes: self.bytes,
            stride: self.bytes,
            size: self.bytes,
            type_name: "immediate data",
            layout: LayoutKind::Wgsl,
            header: 0,
            fields: &[],
        })
    }

    /// Records writing `bytes` (the block's, from [`encode`]) into the binding, in the batch's
    /// order, through a staging buffer the batch keeps alive. Not timed in a profiled batch:
    /// it belongs to the dispatch.
    pub(crate) fn record_write(&self, commands: &mut Commands, bytes: &[u8]) -> Result<()> {
        let gpu = commands.gpu().clone();
        let staging = gpu.scoped("writing immediate data", || {
            use wgpu::util::DeviceExt;
            gpu.device()
                .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("shoal immediate data"),
                    contents: bytes,
                    usage: wgpu::BufferUsages::COPY_SRC,
                })
        })?;
        commands
            .encoder()
            .copy_buffer_to_buffer(&staging, 0, &self.raw, 0, bytes.len() as u64);
        // Dropping the handle takes wgpu's GL context lock: under the turn (`wait.rs`).
        let _turn = gpu.turn();
        drop(staging);
        Ok(())
    }
}

impl Gpu {
    /// Bytes of immediate data this device takes through `set_immediates` (wgpu's
    /// `Features::IMMEDIATES` and `Limits::max_immediate_size`): 128 on lavapipe, 256 on wgpu's
    /// GL backend; 0 in the browser and on a device without the feature. A kernel whose block is
    /// larger reads it from a binding Shoal owns instead (docs/immediates.md): the same
    /// dispatches give the same results.
    pub fn max_immediate_size(&self) -> u32 {
        let native = self.features().contains(wgpu::Features::IMMEDIATES)
            && self.adapter_details().backend != wgpu::Backend::BrowserWebGpu;
        match native {
            true => self.device().limits().max_immediate_size,
            false => 0,
        }
    }
}

#[cfg(all(test, feature = "glsl", not(target_arch = "wasm32")))]
mod glsl_tests;
