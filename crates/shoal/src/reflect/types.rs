//! What reflection finds, as public types: [`BindingKind`], [`BufferShape`], [`BindingInfo`],
//! [`ImmediateInfo`], [`NeededFeatures`] and [`Reflection`].

use naga::{ImageDimension, ScalarKind};

/// How a binding is used, as the WGSL declares it.
#[derive(Debug, Clone, PartialEq)]
pub enum BindingKind {
    /// `var<storage, read>` or `var<storage, read_write>`.
    Storage {
        /// `read_write` (or atomics).
        writable: bool,
    },
    /// `var<uniform>`.
    Uniform,
    /// `texture_storage_*<format, access>`.
    StorageTexture {
        /// The texel format.
        format: naga::StorageFormat,
        /// Read, write or both.
        access: naga::StorageAccess,
        /// 1D, 2D, 3D or cube.
        dim: ImageDimension,
        /// `_array`.
        arrayed: bool,
    },
    /// `texture_*` sampled (or loaded) textures.
    Texture {
        /// What the texels hold (float, sint, uint).
        kind: ScalarKind,
        /// A depth texture.
        depth: bool,
        /// Multisampled.
        multisampled: bool,
        /// 1D, 2D, 3D or cube.
        dim: ImageDimension,
        /// `_array`.
        arrayed: bool,
    },
    /// `sampler` or `sampler_comparison`.
    Sampler {
        /// `sampler_comparison`.
        comparison: bool,
    },
}

impl BindingKind {
    /// Describes the kind as the WGSL spells it, for messages.
    pub fn describe(&self) -> String {
        match self {
            Self::Storage { writable: true } => "var<storage, read_write>".into(),
            Self::Storage { writable: false } => "var<storage, read>".into(),
            Self::Uniform => "var<uniform>".into(),
            Self::StorageTexture {
                format,
                access,
                dim,
                arrayed,
            } => {
                let a = match (
                    access.contains(naga::StorageAccess::LOAD),
                    access.contains(naga::StorageAccess::STORE),
                ) {
                    (true, true) => "read_write",
                    (true, false) => "read",
                    _ => "write",
                };
                let format = format!("{format:?}").to_ascii_lowercase();
                format!(
                    "texture_storage_{}<{format}, {a}>",
                    dim_name(*dim, *arrayed)
                )
            }
            Self::Texture {
                kind,
                depth: true,
                dim,
                arrayed,
                ..
            } => {
                format!("texture_depth_{} ({kind:?})", dim_name(*dim, *arrayed))
            }
            Self::Texture {
                kind,
                multisampled,
                dim,
                arrayed,
                ..
            } => {
                let ms = if *multisampled { "multisampled_" } else { "" };
                let scalar = match kind {
                    ScalarKind::Sint => "i32",
                    ScalarKind::Uint => "u32",
                    _ => "f32",
                };
                format!("texture_{ms}{}<{scalar}>", dim_name(*dim, *arrayed))
            }
            Self::Sampler { comparison: true } => "sampler_comparison".into(),
            Self::Sampler { comparison: false } => "sampler".into(),
        }
    }
}

/// `2d`, `2d_array`, `3d`, `cube`...: how WGSL names a texture's dimension.
pub(crate) fn dim_name(dim: ImageDimension, arrayed: bool) -> String {
    let d = match dim {
        ImageDimension::D1 => "1d",
        ImageDimension::D2 => "2d",
        ImageDimension::D3 => "3d",
        ImageDimension::Cube => "cube",
    };
    if arrayed {
        format!("{d}_array")
    } else {
        d.to_string()
    }
}

/// The data layout of a buffer binding.
#[derive(Debug, Clone, PartialEq)]
pub struct BufferShape {
    /// The WGSL type, e.g. `array<Data>`.
    pub wgsl_type: String,
    /// Bytes before the runtime-sized array (the whole size when there is none).
    pub fixed: u64,
    /// The runtime-sized array's element type and stride, if the binding ends with one.
    pub runtime_array: Option<(String, u64)>,
    /// A fixed-size top-level `array<E, N>`: element type, stride and N.
    pub fixed_array: Option<(String, u64, u64)>,
    /// Whether a `vec3` sits in the type (its 16-byte alignment is the common layout trap).
    pub has_vec3: bool,
}

/// One binding of a kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct BindingInfo {
    /// The WGSL variable name, which Rust binds by.
    pub name: String,
    /// `@group(n)`.
    pub group: u32,
    /// `@binding(n)`.
    pub binding: u32,
    /// Storage, uniform, texture, sampler.
    pub kind: BindingKind,
    /// For buffers: the layout the bound buffer must have.
    pub shape: Option<BufferShape>,
}

/// The immediate data of an entry point: its `var<immediate>` (what a GLSL
/// `layout(push_constant) uniform` block becomes), set per dispatch with
/// [`Dispatch::immediates`](crate::Dispatch::immediates) (docs/immediates.md).
#[derive(Debug, Clone, PartialEq)]
pub struct ImmediateInfo {
    /// The variable's name.
    pub name: String,
    /// Its type and layout, checked against the Rust value's as a buffer's are (`fixed` is its
    /// size in bytes).
    pub shape: BufferShape,
    /// Where Shoal binds the value on this device: `None` where it is set as immediate data
    /// (`set_immediates`), and in [`validate`](crate::validate)'s reflection, which knows no
    /// device; `Some` where the kernel's WGSL was rewritten to read it from a binding Shoal
    /// owns, listed in [`Reflection::bindings`] under [`name`](Self::name).
    pub binding: Option<BindingInfo>,
}

impl ImmediateInfo {
    /// The declaration as messages name it: `var<immediate> params: Params`.
    pub fn declaration(&self) -> String {
        format!("`var<immediate> {}: {}`", self.name, self.shape.wgsl_type)
    }

    /// Bytes of the block (a multiple of 4).
    pub fn size(&self) -> u32 {
        self.shape.fixed.next_multiple_of(4) as u32
    }
}

/// Device features a kernel needs beyond WebGPU's baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NeededFeatures {
    /// `atomic<u64>` / `atomic<i64>`.
    pub int64_atomics: bool,
    /// `u64` / `i64` values.
    pub int64: bool,
    /// `atomic<f32>`.
    pub float32_atomics: bool,
    /// `f16`.
    pub f16: bool,
    /// `f64`.
    pub f64: bool,
    /// Subgroup operations.
    pub subgroups: bool,
}

/// Everything Shoal knows about one compute entry point.
#[derive(Debug, Clone, PartialEq)]
pub struct Reflection {
    /// The entry point's name.
    pub entry_point: String,
    /// `@workgroup_size`, with override constants applied.
    pub workgroup_size: [u32; 3],
    /// Bytes of the `var<workgroup>` variables the entry point uses, each rounded up to 16.
    pub workgroup_memory: u64,
    /// The bindings the entry point uses, ordered by group then binding.
    pub bindings: Vec<BindingInfo>,
    /// The immediate data the entry point uses, if any.
    pub immediates: Option<ImmediateInfo>,
    /// Features the kernel needs.
    pub needs: NeededFeatures,
    /// `(texture, sampler)` binding names that `textureSample*`/`textureGather` use together:
    /// what decides whether a texture's layout must be filterable.
    pub sampled_with: Vec<(String, String)>,
    /// Whether the entry point does the same work when
    /// [`Dispatch::invocations`](crate::Dispatch::invocations) folds its work groups over y and
    /// z: it takes `@builtin(num_workgroups)`, and so can rebuild its linear index
    /// (`shoal_linear_index`), or takes neither `global_invocation_id` nor `workgroup_id`, and
    /// so does not depend on where its work group is (as an argument or a member of one).
    pub fold_safe: bool,
}

impl Reflection {
    /// Invocations in one work group (saturating at `u32::MAX`: a work group that large is
    /// refused anyway, and naming it must not overflow).
    pub fn workgroup_invocations(&self) -> u32 {
        self.workgroup_size
            .iter()
            .fold(1u32, |n, &d| n.saturating_mul(d))
    }
}
