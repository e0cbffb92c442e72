//! The checks that a bound resource fits its binding: kind, usage, format, element layout and
//! size, each a typed error naming the kernel and the binding.

use super::layout::{texture_format, view_dimension};
use super::scalars::check_scalars;
use super::{BufferResource, Resource, TextureResource};
use crate::element::LayoutKind;
use crate::error::{Error, Result};
use crate::reflect::{BindingInfo, BindingKind};

/// Checks that `res` fits `info`: kind, usage, access, element layout and length (the length
/// only when the dispatch `launches` a work group: one that runs nothing may bind an empty
/// buffer).
pub(crate) fn check(
    kernel: &str,
    info: &BindingInfo,
    res: &Resource<'_>,
    launches: bool,
) -> Result<()> {
    let kind_error = || Error::BindingKind {
        kernel: kernel.to_string(),
        binding: info.name.clone(),
        expected: info.kind.describe(),
        got: res.describe(),
    };
    match (&info.kind, res) {
        (BindingKind::Storage { .. } | BindingKind::Uniform, Resource::Buffer(b)) => {
            check_buffer(kernel, info, b, launches)
        }
        (
            BindingKind::StorageTexture {
                format,
                dim,
                arrayed,
                ..
            },
            Resource::Texture(t),
        ) => check_texture(
            kernel,
            info,
            t,
            texture_format(*format) == Some(t.format),
            view_dimension(*dim, *arrayed),
            (
                wgpu::TextureUsages::STORAGE_BINDING,
                "STORAGE_BINDING",
                "create the image with gpu.image_zeroed(..) on a device where its format allows storage, or add the usage in gpu.image_zeroed_with(..)",
            ),
        ),
        (
            BindingKind::Texture {
                kind,
                depth,
                dim,
                arrayed,
                multisampled,
            },
            Resource::Texture(t),
        ) => {
            if *multisampled != (t.sample_count > 1) {
                return Err(Error::BindingKind {
                    kernel: kernel.to_string(),
                    binding: info.name.clone(),
                    expected: info.kind.describe(),
                    got: format!(
                        "{} of {} sample(s) per texel",
                        res.describe(),
                        t.sample_count
                    ),
                });
            }
            let fits = match t.format.sample_type(None, None) {
                Some(wgpu::TextureSampleType::Float { .. }) => {
                    !depth && *kind == naga::ScalarKind::Float
                }
                Some(wgpu::TextureSampleType::Depth) => *depth || *kind == naga::ScalarKind::Float,
                Some(wgpu::TextureSampleType::Uint) => *kind == naga::ScalarKind::Uint,
                Some(wgpu::TextureSampleType::Sint) => *kind == naga::ScalarKind::Sint,
                None => false,
            };
            check_texture(
                kernel,
                info,
                t,
                fits,
                view_dimension(*dim, *arrayed),
                (
                    wgpu::TextureUsages::TEXTURE_BINDING,
                    "TEXTURE_BINDING",
                    "create the image with sampled usage",
                ),
            )
        }
        (BindingKind::Sampler { comparison }, Resource::Sampler(s))
            if *comparison == s.comparison =>
        {
            Ok(())
        }
        _ => Err(kind_error()),
    }
}

/// Checks that a bound buffer is within what one binding may see on this device
/// (`max_storage_buffer_binding_size`, `max_uniform_buffer_binding_size`).
pub(crate) fn check_size(
    limits: &crate::limits::Limits,
    kernel: &str,
    info: &BindingInfo,
    res: &Resource<'_>,
) -> Result<()> {
    let Resource::Buffer(b) = res else {
        return Ok(());
    };
    let (limit_name, limit) = match info.kind {
        BindingKind::Uniform => (
            "max_uniform_buffer_binding_size",
            limits.max_uniform_buffer_binding_size,
        ),
        _ => (
            "max_storage_buffer_binding_size",
            limits.max_storage_buffer_binding_size,
        ),
    };
    // What is bound: the elements rounded up to 4 bytes (see `binding_resource`).
    let bytes = b.bytes.next_multiple_of(4);
    if bytes > limit {
        return Err(Error::BindingTooLarge {
            kernel: kernel.to_string(),
            binding: info.name.clone(),
            bytes,
            limit_name,
            limit,
        });
    }
    Ok(())
}

/// Checks a bound image against a texture binding, in the order a reader fixes them: its
/// format (`format_fits`), its dimension, then the usage the binding needs.
fn check_texture(
    kernel: &str,
    info: &BindingInfo,
    t: &TextureResource<'_>,
    format_fits: bool,
    dimension: wgpu::TextureViewDimension,
    (usage, usage_name, fix): (wgpu::TextureUsages, &str, &str),
) -> Result<()> {
    if !format_fits {
        return Err(Error::ImageFormat {
            kernel: kernel.to_string(),
            binding: info.name.clone(),
            expected: info.kind.describe(),
            got: crate::image::format_name(t.format),
        });
    }
    if dimension != t.dimension {
        return Err(Error::ImageDimension {
            kernel: kernel.to_string(),
            binding: info.name.clone(),
            expected: info.kind.describe(),
            got: format!("{:?}", t.dimension),
        });
    }
    if !t.usage.contains(usage) {
        return Err(missing_usage(
            kernel,
            &info.name,
            usage_name,
            &format!("{:?}", t.usage),
            fix,
        ));
    }
    Ok(())
}

fn missing_usage(kernel: &str, binding: &str, usage: &str, has: &str, fix: &str) -> Error {
    Error::MissingUsage {
        kernel: kernel.to_string(),
        binding: format!("binding `{binding}`"),
        usage: usage.to_string(),
        has: has.to_string(),
        fix: fix.to_string(),
    }
}

/// Checks that a buffer bound to `info` starts where the device binds buffers: its offset (a
/// [`Buffer::slice`](crate::Buffer::slice)'s) a multiple of the storage or uniform offset
/// alignment of `limits`; and, where the dispatch `launches` a work group, that a slice is not
/// empty (a binding of no bytes is, to wgpu, the rest of the buffer).
pub(crate) fn check_offset(
    limits: &crate::Limits,
    kernel: &str,
    info: &BindingInfo,
    res: &Resource<'_>,
    launches: bool,
) -> Result<()> {
    let Resource::Buffer(b) = res else {
        return Ok(());
    };
    if launches && b.bytes == 0 && b.offset > 0 {
        return Err(Error::InvalidParameter {
            kernel: kernel.to_string(),
            parameter: format!("the buffer bound to `{}`", info.name),
            value: format!("an empty slice at byte {}", b.offset),
            rule: "a binding holds at least one element (wgpu would bind the rest of the \
                   buffer): bind a slice of one element or more, or dispatch no work groups"
                .into(),
        });
    }
    let uniform = matches!(info.kind, BindingKind::Uniform);
    let align = limits.slice_alignment(uniform);
    let limit = match uniform {
        true => "min_uniform_buffer_offset_alignment",
        false => "min_storage_buffer_offset_alignment",
    };
    if b.offset.is_multiple_of(align.max(1) as u64) {
        return Ok(());
    }
    Err(Error::InvalidParameter {
        kernel: kernel.to_string(),
        parameter: format!("the buffer bound to `{}`", info.name),
        value: format!("a slice starting at byte {}", b.offset),
        rule: format!(
            "buffers are bound at byte offsets that are multiples of {align} (WebGPU's default \
             {limit}, or the device's where larger: Limits::slice_alignment): slice at an \
             element whose byte offset is one"
        ),
    })
}

fn check_buffer(
    kernel: &str,
    info: &BindingInfo,
    b: &BufferResource<'_>,
    launches: bool,
) -> Result<()> {
    let usage = b.raw.usage();
    match info.kind {
        BindingKind::Uniform if !usage.contains(wgpu::BufferUsages::UNIFORM) => {
            return Err(missing_usage(
                kernel,
                &info.name,
                "UNIFORM",
                &format!("{usage:?}"),
                "create it with gpu.uniform(&value)",
            ));
        }
        BindingKind::Storage { .. } if !usage.contains(wgpu::BufferUsages::STORAGE) => {
            return Err(missing_usage(
                kernel,
                &info.name,
                "STORAGE",
                &format!("{usage:?}"),
                "create it with gpu.buffer_from(..) or gpu.buffer_zeroed(..)",
            ));
        }
        _ => {}
    }
    let Some(shape) = &info.shape else {
        return Ok(());
    };
    let layout_error = |wgsl_type: &str, wgsl_bytes: u64| {
        let hint = if shape.has_vec3 && b.layout == LayoutKind::Pod {
            "; WGSL aligns vec3<f32> to 16 bytes: derive encase::ShaderType on the Rust type (with glam::Vec3) \
             so Shoal pads it, or pad the #[repr(C)] struct by hand"
                .to_string()
        } else if shape.has_vec3 {
            "; WGSL aligns vec3<f32> to 16 bytes, so a vec3 element takes 16: hold it as \
             glam::Vec3 (`shoal::glam`, padded to 16) or as [f32; 4]"
                .to_string()
        } else {
            String::new()
        };
        Error::ElementLayout {
            kernel: kernel.to_string(),
            binding: info.name.clone(),
            wgsl_type: wgsl_type.to_string(),
            wgsl_bytes,
            rust_type: short_type_name(b.type_name),
            rust_bytes: b.stride,
            hint,
        }
    };
    let too_small = |needed: u64| Error::BufferTooSmall {
        kernel: kernel.to_string(),
        binding: info.name.clone(),
        wgsl_type: shape.wgsl_type.clone(),
        needed,
        got: b.bytes,
    };
    if let Some((element, stride)) = &shape.runtime_array {
        if shape.fixed == b.header && b.stride != *stride {
            return Err(layout_error(element, *stride));
        }
        // An append buffer's items start after its header, where the WGSL's must start too (a
        // plain buffer may hold the words of any struct).
        if b.header > 0 && shape.fixed != b.header {
            return Err(Error::BindingKind {
                kernel: kernel.to_string(),
                binding: info.name.clone(),
                expected: format!(
                    "`{}`, its array<{element}> at byte {}",
                    shape.wgsl_type, shape.fixed
                ),
                got: format!(
                    "an append buffer of {}, whose items start at byte {} after its header \
                     (count, capacity, two padding words); declare the binding as \
                     `#import shoal::append` does",
                    short_type_name(b.type_name),
                    b.header
                ),
            });
        }
        // WGSL arrays are never empty: at least one element must be bound.
        let needed = shape.fixed + stride;
        if launches && b.bytes < needed {
            return Err(too_small(needed));
        }
        if shape.fixed == b.header {
            return check_scalars(kernel, info, b, element);
        }
        return Ok(());
    }
    if b.stride == shape.fixed || b.size == shape.fixed {
        if launches && b.bytes < shape.fixed {
            return Err(too_small(shape.fixed));
        }
        return check_scalars(kernel, info, b, &shape.wgsl_type);
    }
    if let Some((element, stride, n)) = &shape.fixed_array {
        if b.stride != *stride {
            return Err(layout_error(element, *stride));
        }
        if launches && b.bytes < stride * n {
            return Err(too_small(stride * n));
        }
        return check_scalars(kernel, info, b, element);
    }
    Err(layout_error(&shape.wgsl_type, shape.fixed))
}

/// `type_name` without module paths, as a user writes it: `shoal_demo::Particle` is `Particle`,
/// `[glam::f32::Vec3; 2]` is `[Vec3; 2]`.
pub(crate) fn short_type_name(type_name: &str) -> String {
    let mut out = String::with_capacity(type_name.len());
    let mut word = String::new();
    for c in type_name.chars().chain(std::iter::once(' ')) {
        if c.is_alphanumeric() || c == '_' || c == ':' {
            word.push(c);
        } else {
            out.push_str(word.rsplit("::").next().unwrap_or(&word));
            word.clear();
            out.push(c);
        }
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    // In wasm32 these run in the browser through wasm-bindgen-test.
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn type_names_lose_their_module_paths() {
        let short = super::short_type_name;
        assert_eq!(short("my_crate::physics::Particle"), "Particle");
        assert_eq!(short("[glam::f32::Vec3; 2]"), "[Vec3; 2]");
        assert_eq!(short("f32"), "f32");
        assert_eq!(short("a::Pair<b::X, c::d::Y>"), "Pair<X, Y>");
    }
}
