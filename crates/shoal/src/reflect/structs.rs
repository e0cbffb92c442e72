//! The members of a WGSL struct as naga lays it out ([`WgslStruct`]), for the field-by-field
//! check of a `#[derive(shoal::Element)]` struct bound to it (`fields.rs`).

use naga::TypeInner;

use super::layout::type_name;

/// A WGSL struct: its name and its members in declaration order.
#[derive(Debug, Clone, PartialEq)]
pub struct WgslStruct {
    /// The struct's name in the WGSL.
    pub name: String,
    /// Its members, in order.
    pub members: Vec<WgslMember>,
}

/// One member of a [`WgslStruct`].
#[derive(Debug, Clone, PartialEq)]
pub struct WgslMember {
    /// The member's name.
    pub name: String,
    /// Its type as WGSL spells it (`vec2<f32>`, `array<u32, 4>`, a struct's name).
    pub ty: String,
    /// Its byte offset in the struct.
    pub offset: u64,
    /// Its size in bytes.
    pub size: u64,
}

/// The struct `ty` is, with its members; `None` for any other type.
pub(super) fn wgsl_struct(
    module: &naga::Module,
    layouter: &naga::proc::Layouter,
    ty: naga::Handle<naga::Type>,
) -> Option<WgslStruct> {
    let TypeInner::Struct { members, .. } = &module.types[ty].inner else {
        return None;
    };
    Some(WgslStruct {
        name: type_name(module, ty),
        members: members
            .iter()
            .map(|m| WgslMember {
                name: m.name.clone().unwrap_or_default(),
                ty: type_name(module, m.ty),
                offset: m.offset as u64,
                size: layouter[m.ty].size as u64,
            })
            .collect(),
    })
}
