//! The errors ranks agree on, as bytes: MPI moves bytes, and every rank must return the same
//! typed `shoal::Error`. Every variant crosses with its type and every field (the nested
//! `HlslError`, `ImmediateError` and `FieldMismatch` too): a tag for the variant, then each
//! field in [`Wire`]'s encoding. A variant this side's Shoal does not know (from a newer Shoal on
//! another rank) arrives as `Error::Wgpu` whose context names it and whose message is its text.

mod wire;

use shoal::{Error, FieldMismatch, HlslError, ImmediateError};
use wire::{Reader, Unknown, Wire};

/// The variant's name, from its `Debug` text: `shoal::Error`'s ends `(shoal::Error::Length)`,
/// the nested errors' derived one starts with it (`Compile { .. }`).
fn variant_name(debug: &str) -> String {
    match debug.rsplit_once("(shoal::Error::") {
        Some((_, name)) => name.trim_end_matches(')').to_string(),
        None => debug
            .split([' ', '(', '{'])
            .next()
            .unwrap_or_default()
            .to_string(),
    }
}

/// The wire encoding of an enum: each listed variant by its tag (never 0) and its fields in
/// order; tag 0 is an unlisted variant, written as its name and text.
macro_rules! wire_enum {
    ($ty:ident {
        $($tag:literal => $var:ident { $($f:ident),* $(,)? }),* $(,)?
    } tuple {
        $($ttag:literal => $tvar:ident),* $(,)?
    }) => {
        impl Wire for $ty {
            fn put(&self, out: &mut Vec<u8>) {
                match self {
                    $($ty::$var { $($f),* } => {
                        out.push($tag);
                        $(Wire::put($f, out);)*
                    })*
                    $($ty::$tvar(inner) => {
                        out.push($ttag);
                        Wire::put(inner, out);
                    })*
                    #[allow(unreachable_patterns)]
                    other => {
                        out.push(0);
                        format!("a rank's {}", variant_name(&format!("{other:?}"))).put(out);
                        other.to_string().put(out);
                    }
                }
            }

            fn take(r: &mut Reader<'_>) -> Result<Self, Unknown> {
                Ok(match r.byte() {
                    $($tag => $ty::$var { $($f: Wire::take(r)?),* },)*
                    $($ttag => $ty::$tvar(Wire::take(r)?),)*
                    _ => return Err(Unknown { context: String::take(r)?, message: String::take(r)? }),
                })
            }
        }
    };
}

/// The wire encoding of a struct: its fields in order.
macro_rules! wire_struct {
    ($ty:ident { $($f:ident),* $(,)? }) => {
        impl Wire for $ty {
            fn put(&self, out: &mut Vec<u8>) {
                let $ty { $($f),* } = self;
                $(Wire::put($f, out);)*
            }

            fn take(r: &mut Reader<'_>) -> Result<Self, Unknown> {
                Ok($ty { $($f: Wire::take(r)?),* })
            }
        }
    };
}

wire_enum!(Error {
    1 => Length { what, expected, got },
    2 => InvalidParameter { kernel, parameter, value, rule },
    3 => Override { kernel, message },
    4 => NoAdapter { requested, found },
    5 => RequestDevice { adapter, message },
    7 => WrongGpu { what, resource_gpu, expected_gpu },
    8 => UnknownBackend { value },
    9 => Wgsl { kernel, message },
    10 => Glsl { kernel, message },
    11 => GlslUnsupported { kernel, construct, wgsl, location },
    12 => UnknownSnippet { kernel, name, available },
    13 => SnippetArguments { kernel, name, params, got },
    14 => Block { kernel, name, message },
    15 => EntryPoint { kernel, requested, available },
    16 => MissingFeature { kernel, feature, adapter, location, remedy },
    17 => WorkgroupTooLarge { kernel, size, invocations, limit_name, limit },
    18 => WorkgroupMemory { kernel, bytes, limit },
    19 => TooManyGroups { kernel, groups, dimension, limit, remedy },
    20 => NoSize { kernel },
    21 => IndirectOffset { kernel, offset },
    22 => IndirectOutOfBounds { kernel, offset, buffer_bytes },
    23 => MissingUsage { kernel, binding, usage, has, fix },
    24 => Unbound { kernel, binding, group, index },
    25 => UnknownBinding { kernel, binding, available },
    26 => BindingKind { kernel, binding, expected, got },
    27 => ElementLayout { kernel, binding, wgsl_type, wgsl_bytes, rust_type, rust_bytes, hint },
    28 => BufferTooSmall { kernel, binding, wgsl_type, needed, got },
    29 => ImageSize { width, height, limit },
    30 => ImageUsage { format, usage },
    31 => TexelType { format, expected, got },
    32 => ImageFormat { kernel, binding, expected, got },
    33 => ImageDimension { kernel, binding, expected, got },
    34 => StorageAccess { kernel, binding, declared, allowed, adapter, remedy },
    35 => Unfilterable { kernel, binding, sampler, format },
    36 => AppendOverflow { what, capacity, attempted },
    37 => PrintfOverflow { kernel, capacity, attempted },
    38 => ElementCodec { type_name, operation, reason },
    39 => Timeout { what, waited, limit },
    40 => DeviceLost { what, reason },
    41 => Wgpu { context, message },
    42 => Io { path, message },
    43 => Aliasing { kernel, first, first_access, second, second_access },
    44 => BindingTooLarge { kernel, binding, bytes, limit_name, limit },
    45 => BindingNumber { kernel, binding, group, index, limit_name, limit },
    46 => TooManyBindings { kernel, kind, count, limit_name, limit },
    47 => ResourceTooLarge { what, bytes, limit_name, limit },
} tuple {
    6 => Readback,
    48 => Hlsl,
    49 => Immediates,
    50 => StructField,
});

wire_enum!(HlslError {
    1 => Compile { kernel, message },
    2 => Unsupported { kernel, construct, remedy, location },
} tuple {});

wire_enum!(ImmediateError {
    1 => Layout { kernel, declaration, wgsl_type, wgsl_bytes, rust_type, rust_bytes, hint },
    2 => NotDeclared { kernel, rust_type },
    3 => Missing { kernel, declaration, wgsl_type, wgsl_bytes },
    4 => Bound { kernel, name, declaration },
} tuple {});

wire_struct!(FieldMismatch {
    kernel,
    binding,
    wgsl_struct,
    rust_type,
    member,
    wgsl,
    rust,
    fix
});

/// `e` as bytes (never empty: the first is the variant's tag).
pub(crate) fn encode(e: &Error) -> Vec<u8> {
    let mut out = Vec::new();
    e.put(&mut out);
    out
}

/// The error [`encode`] wrote.
pub(crate) fn decode(bytes: &[u8]) -> Error {
    Error::take(&mut Reader(bytes))
        .unwrap_or_else(|Unknown { context, message }| Error::Wgpu { context, message })
}

#[cfg(test)]
mod tests;
