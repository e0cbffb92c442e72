//! Structs checked field by field: what `#[derive(shoal::Element)]` records of each field
//! ([`ElementField`]), what the WGSL struct has ([`crate::WgslStruct`]), and the comparison of
//! the two by name when a buffer is bound ([`FieldMismatch`]).
//!
//! The element-stride check sees only sizes: two `u32` fields swapped, or a missing field whose
//! struct still rounds to the WGSL stride, pass it. With the names, offsets and types of both
//! sides, each of those is an error naming the member.

use crate::binding::{kind_of_rust, kind_of_wgsl};
use crate::reflect::WgslStruct;

/// One field of a struct deriving [`Element`](crate::Element) (`#[derive(shoal::Element)]`),
/// as the derive records it: [`Element::FIELDS`](crate::Element::FIELDS).
#[derive(Debug, Clone, Copy)]
pub struct ElementField {
    /// The field's name, which must be the WGSL member's.
    pub name: &'static str,
    /// Its byte offset in the struct as laid out by WGSL's rules.
    pub offset: u64,
    /// Its size in bytes by WGSL's rules.
    pub size: u64,
    /// Its Rust type's name (`std::any::type_name`).
    pub type_name: fn() -> &'static str,
}

/// A field of a `#[derive(shoal::Element)]` struct that differs from the WGSL struct's member
/// of the same name (or has none), as [`Error::StructField`](crate::Error::StructField) reports.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldMismatch {
    /// The kernel.
    pub kernel: String,
    /// The binding.
    pub binding: String,
    /// The WGSL struct's name.
    pub wgsl_struct: String,
    /// The Rust type's name.
    pub rust_type: String,
    /// The member (or field) that differs.
    pub member: String,
    /// The WGSL side: `u32 at byte 16`, or `no member of that name`.
    pub wgsl: String,
    /// The Rust side: `u32 at byte 20`, or `no field of that name`.
    pub rust: String,
    /// What to change.
    pub fix: String,
}

impl std::fmt::Display for FieldMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "kernel `{}`: binding `{}`: member `{}` of WGSL struct `{}` is {}, but in `{}` it is \
             {}; {}",
            self.kernel,
            self.binding,
            self.member,
            self.wgsl_struct,
            self.wgsl,
            self.rust_type,
            self.rust,
            self.fix
        )
    }
}

/// Compares the fields of `rust_type` with the members of `wgsl`, by name: the first member
/// missing, misplaced or of another type, then the first field the WGSL lacks. Nothing is
/// allocated unless they differ (every dispatch checks every binding).
pub(crate) fn compare(
    kernel: &str,
    binding: &str,
    wgsl: &WgslStruct,
    rust_type: &str,
    fields: &[ElementField],
) -> Result<(), Box<FieldMismatch>> {
    let mismatch = |member: &str, w: String, r: String, fix: String| {
        Box::new(FieldMismatch {
            kernel: kernel.to_string(),
            binding: binding.to_string(),
            wgsl_struct: wgsl.name.clone(),
            rust_type: crate::binding::short_type_name(rust_type),
            member: member.to_string(),
            wgsl: w,
            rust: r,
            fix,
        })
    };
    let describe = |ty: &str, offset: u64| format!("`{ty}` at byte {offset}");
    let rust_describe =
        |f: &ElementField| describe(&crate::binding::short_type_name((f.type_name)()), f.offset);
    // Names first (a renamed, missing or extra field moves the others), then types, then places.
    for m in &wgsl.members {
        if fields.iter().any(|f| f.name == m.name) {
            continue;
        }
        // A field where the member is, under a name the WGSL lacks, is the member renamed.
        let renamed = fields
            .iter()
            .find(|f| f.offset == m.offset && !wgsl.members.iter().any(|w| w.name == f.name));
        let (rust, fix) = match renamed {
            Some(f) => (
                format!(
                    "missing; field `{}` ({}) is where it would be",
                    f.name,
                    rust_describe(f)
                ),
                format!("rename the field `{}` to `{}`", f.name, m.name),
            ),
            None => (
                "missing (no field of that name)".to_string(),
                format!(
                    "add a field `{}` of the twin of `{}`, in the WGSL's order",
                    m.name, m.ty
                ),
            ),
        };
        return Err(mismatch(&m.name, describe(&m.ty, m.offset), rust, fix));
    }
    if let Some(extra) = fields
        .iter()
        .find(|f| !wgsl.members.iter().any(|m| m.name == f.name))
    {
        return Err(mismatch(
            extra.name,
            "missing (no member of that name)".to_string(),
            rust_describe(extra),
            format!(
                "remove the field `{}`, or add it to the WGSL struct `{}`",
                extra.name, wgsl.name
            ),
        ));
    }
    for m in &wgsl.members {
        let Some(f) = fields.iter().find(|f| f.name == m.name) else {
            continue;
        };
        let same_kind = match (kind_of_wgsl(&m.ty), kind_of_rust((f.type_name)())) {
            (Some(w), Some(r)) => w == r,
            // A struct or another type Shoal cannot name the scalar of: its size decides.
            _ => true,
        };
        if f.size != m.size || !same_kind {
            return Err(mismatch(
                &m.name,
                format!("{} ({} bytes)", describe(&m.ty, m.offset), m.size),
                format!("{} ({} bytes)", rust_describe(f), f.size),
                format!(
                    "give the field `{}` the type that matches `{}`",
                    m.name, m.ty
                ),
            ));
        }
    }
    for m in &wgsl.members {
        match fields.iter().find(|f| f.name == m.name) {
            Some(f) if f.offset != m.offset => {
                return Err(mismatch(
                    &m.name,
                    describe(&m.ty, m.offset),
                    rust_describe(f),
                    "declare the fields in the WGSL struct's order".to_string(),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}
