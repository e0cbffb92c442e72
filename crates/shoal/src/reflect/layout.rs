//! The shape of a WGSL type as Rust sees it: a buffer's fixed part and array stride, whether a
//! `vec3` hides inside (WGSL pads it to 16 bytes), and type names for messages.

use naga::{ScalarKind, TypeInner};

use super::BufferShape;
use super::structs::wgsl_struct;

pub(super) fn buffer_shape(
    module: &naga::Module,
    layouter: &naga::proc::Layouter,
    ty: naga::Handle<naga::Type>,
) -> BufferShape {
    let size = layouter[ty].size as u64;
    let mut shape = BufferShape {
        wgsl_type: type_name(module, ty),
        fixed: size,
        runtime_array: None,
        fixed_array: None,
        has_vec3: has_vec3(module, ty),
        struct_type: wgsl_struct(module, layouter, ty),
        element_struct: None,
    };
    match &module.types[ty].inner {
        TypeInner::Array {
            base,
            size: naga::ArraySize::Dynamic,
            stride,
        } => {
            shape.fixed = 0;
            shape.runtime_array = Some((type_name(module, *base), *stride as u64));
            shape.element_struct = wgsl_struct(module, layouter, *base);
        }
        TypeInner::Array {
            base,
            size: naga::ArraySize::Constant(n),
            stride,
        } => {
            shape.fixed_array = Some((type_name(module, *base), *stride as u64, n.get() as u64));
            shape.element_struct = wgsl_struct(module, layouter, *base);
        }
        TypeInner::Struct { members, .. } => {
            if let Some(last) = members.last()
                && let TypeInner::Array {
                    base,
                    size: naga::ArraySize::Dynamic,
                    stride,
                } = &module.types[last.ty].inner
            {
                shape.fixed = last.offset as u64;
                shape.runtime_array = Some((type_name(module, *base), *stride as u64));
                shape.element_struct = wgsl_struct(module, layouter, *base);
            }
        }
        _ => {}
    }
    shape
}

fn has_vec3(module: &naga::Module, ty: naga::Handle<naga::Type>) -> bool {
    match &module.types[ty].inner {
        TypeInner::Vector {
            size: naga::VectorSize::Tri,
            ..
        } => true,
        TypeInner::Matrix {
            rows: naga::VectorSize::Tri,
            ..
        } => true,
        TypeInner::Array { base, .. } | TypeInner::BindingArray { base, .. } => {
            has_vec3(module, *base)
        }
        TypeInner::Struct { members, .. } => members.iter().any(|m| has_vec3(module, m.ty)),
        _ => false,
    }
}

/// The type as WGSL spells it (approximately: enough for messages).
pub(crate) fn type_name(module: &naga::Module, ty: naga::Handle<naga::Type>) -> String {
    let t = &module.types[ty];
    if let Some(name) = &t.name
        && matches!(t.inner, TypeInner::Struct { .. })
    {
        return name.clone();
    }
    match &t.inner {
        TypeInner::Scalar(s) => scalar_name(*s),
        TypeInner::Vector { size, scalar } => {
            format!("vec{}<{}>", *size as u8, scalar_name(*scalar))
        }
        TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } => {
            format!(
                "mat{}x{}<{}>",
                *columns as u8,
                *rows as u8,
                scalar_name(*scalar)
            )
        }
        TypeInner::Atomic(s) => format!("atomic<{}>", scalar_name(*s)),
        TypeInner::Array {
            base,
            size: naga::ArraySize::Constant(n),
            ..
        } => {
            format!("array<{}, {n}>", type_name(module, *base))
        }
        TypeInner::Array { base, .. } => format!("array<{}>", type_name(module, *base)),
        TypeInner::Struct { .. } => "struct".into(),
        other => format!("{other:?}"),
    }
}

fn scalar_name(s: naga::Scalar) -> String {
    match (s.kind, s.width) {
        (ScalarKind::Float, 4) => "f32".into(),
        (ScalarKind::Float, 2) => "f16".into(),
        (ScalarKind::Float, 8) => "f64".into(),
        (ScalarKind::Uint, 4) => "u32".into(),
        (ScalarKind::Sint, 4) => "i32".into(),
        (ScalarKind::Uint, 8) => "u64".into(),
        (ScalarKind::Sint, 8) => "i64".into(),
        (ScalarKind::Bool, _) => "bool".into(),
        (k, w) => format!("{k:?}{}", w * 8),
    }
}
