//! [`Element`]: how a Rust type is laid out in a GPU buffer.
//!
//! Types that derive `encase::ShaderType` (and the scalars and glam vectors encase knows) are laid
//! out by WGSL's rules, so `struct Data { v1: Vec3, v2: Vec2 }` gets the 4 bytes of padding
//! after `v1` and the 8 at the end that WGSL's `vec3<f32>` alignment requires. Plain `bytemuck::Pod`
//! types opt in with [`pod_element!`](crate::pod_element) and are copied byte for byte; when their
//! layout differs from the WGSL type, binding them is an [`Error::ElementLayout`](crate::Error).

use encase::internal::{CreateFrom, WriteInto};
use encase::{ShaderSize, ShaderType, StorageBuffer};

use crate::error::{Error, Result};

/// A type that can live in a [`Buffer`](crate::Buffer): its WGSL stride, and how to encode and
/// decode a slice of it.
///
/// A type that is none (`gpu.uniform(&1.0f64)`) is a compile error naming it in one line:
///
/// ```compile_fail
/// # fn f(gpu: &shoal::Gpu) -> Result<(), shoal::Error> {
/// let wide = gpu.uniform(&1.0f64)?; // `f64` is not a Shoal `Element`
/// # Ok(()) }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a Shoal `Element`: no WGSL type holds it in a buffer",
    label = "not an `Element`",
    note = "Elements are u32, i32, f32, f16, glam vectors and matrices, arrays of them, and \
            structs deriving `shoal::Element` (or `encase::ShaderType`); for f64, u64, i64, bool \
            or usize convert to f32 or u32, or hold 64-bit values as `[u32; 2]` words"
)]
pub trait Element: Sized + Send + Sync + 'static {
    /// Bytes from one element to the next in a WGSL array (size rounded up to the alignment).
    const STRIDE: u64;
    /// Bytes of one element on its own (a uniform or a single struct binding).
    const SIZE: u64;
    /// Whether a WGSL `vec3` hides in the type (used to explain layout errors).
    const LAYOUT: LayoutKind;
    /// The fields of a struct deriving `Element` (`#[derive(shoal::Element)]`), by name, offset
    /// and type: bound to a WGSL struct, each field is compared with the member of its name
    /// ([`Error::StructField`]). Empty for every other type, whose stride alone is checked.
    const FIELDS: &'static [crate::ElementField] = &[];
    /// The name shown in messages.
    fn type_name() -> &'static str {
        std::any::type_name::<Self>()
    }
    /// Appends the GPU bytes of `items` to `out`: `items.len() * STRIDE` bytes, none for an
    /// empty slice. A failure is [`Error::ElementCodec`] and leaves `out` as it was.
    fn encode(items: &[Self], out: &mut Vec<u8>) -> Result<()>;
    /// Reads `bytes.len() / STRIDE` elements (none from no bytes). A length that is not a
    /// multiple of [`STRIDE`](Self::STRIDE), or bytes the type cannot be read from, is
    /// [`Error::ElementCodec`].
    fn decode(bytes: &[u8]) -> Result<Vec<Self>>;
}

/// How a Rust type's layout was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayoutKind {
    /// By WGSL's rules (encase).
    Wgsl,
    /// Byte for byte, as the Rust compiler laid it out (`#[repr(C)]` + bytemuck).
    Pod,
}

/// `e` (an [`Error::ElementCodec`] of a derived struct's twin) naming `T` instead. Public for
/// `#[derive(shoal::Element)]` only.
pub fn renamed<T: Element>(e: Error) -> Error {
    match e {
        Error::ElementCodec {
            operation, reason, ..
        } => Error::ElementCodec {
            type_name: T::type_name().to_string(),
            operation,
            reason,
        },
        other => other,
    }
}

/// The [`Error::ElementCodec`] for `bytes` bytes that are not whole elements of `T`, or `Ok`.
/// Public for [`pod_element!`](crate::pod_element) only.
pub fn check_whole<T: Element>(bytes: usize) -> Result<()> {
    if (bytes as u64).is_multiple_of(T::STRIDE) {
        Ok(())
    } else {
        Err(Error::ElementCodec {
            type_name: T::type_name().to_string(),
            operation: "decoding",
            reason: format!(
                "{bytes} bytes are not a whole number of elements of {} bytes (the WGSL stride)",
                T::STRIDE
            ),
        })
    }
}

impl<T> Element for T
where
    T: ShaderType + ShaderSize + WriteInto + CreateFrom + Send + Sync + 'static,
{
    const STRIDE: u64 = T::METADATA.alignment().round_up(T::SHADER_SIZE.get());
    const SIZE: u64 = T::SHADER_SIZE.get();
    const LAYOUT: LayoutKind = LayoutKind::Wgsl;

    fn encode(items: &[Self], out: &mut Vec<u8>) -> Result<()> {
        // encase lays out an empty runtime array as one element: nothing is nothing here.
        if items.is_empty() {
            return Ok(());
        }
        // encase writes from offset 0 of the buffer it is given: a fresh one, then appended.
        let mut bytes = StorageBuffer::new(Vec::with_capacity(items.len() * T::STRIDE as usize));
        bytes.write(items).map_err(|e| Error::ElementCodec {
            type_name: <T as Element>::type_name().to_string(),
            operation: "encoding",
            reason: e.to_string(),
        })?;
        let bytes = bytes.into_inner();
        if out.is_empty() {
            *out = bytes;
        } else {
            out.extend_from_slice(&bytes);
        }
        Ok(())
    }

    fn decode(bytes: &[u8]) -> Result<Vec<Self>> {
        check_whole::<T>(bytes.len())?;
        if bytes.is_empty() {
            return Ok(Vec::new());
        }
        StorageBuffer::new(bytes)
            .create::<Vec<T>>()
            .map_err(|e| Error::ElementCodec {
                type_name: <T as Element>::type_name().to_string(),
                operation: "decoding",
                reason: e.to_string(),
            })
    }
}

/// Lets plain `#[repr(C)]` [`bytemuck::Pod`] types live in buffers, byte for byte.
///
/// ```
/// #[repr(C)]
/// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
/// struct Particle { pos: [f32; 4], vel: [f32; 4] }
/// shoal::pod_element!(Particle);
/// ```
///
/// Such a type is checked against the WGSL stride like any other: a `[f32; 3]` where WGSL has
/// `vec3<f32>` is 12 bytes against 16, and binding it is an error that says so.
///
/// The derives need `bytemuck` (with its `derive` feature) as a dependency of your crate, or,
/// through Shoal's re-export, `#[bytemuck(crate = "shoal::bytemuck")]` on the type: the derive
/// writes `::bytemuck` paths otherwise.
///
/// A zero-sized type does not compile (a buffer of it would hold nothing, and its stride would
/// divide by zero):
///
/// ```compile_fail
/// #[repr(C)]
/// #[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
/// struct Nothing([u32; 0]);
/// shoal::pod_element!(Nothing);
/// ```
#[macro_export]
macro_rules! pod_element {
    ($($t:ty),+ $(,)?) => {$(
        const _: () = ::core::assert!(
            ::core::mem::size_of::<$t>() > 0,
            "pod_element!: a zero-sized type has nothing for a buffer to hold"
        );
        impl $crate::Element for $t {
            const STRIDE: u64 = ::core::mem::size_of::<$t>() as u64;
            const SIZE: u64 = ::core::mem::size_of::<$t>() as u64;
            const LAYOUT: $crate::LayoutKind = $crate::LayoutKind::Pod;
            fn encode(items: &[Self], out: &mut ::std::vec::Vec<u8>) -> $crate::Result<()> {
                out.extend_from_slice($crate::__private::bytemuck::cast_slice(items));
                ::core::result::Result::Ok(())
            }
            fn decode(bytes: &[u8]) -> $crate::Result<::std::vec::Vec<Self>> {
                $crate::__private::check_whole::<$t>(bytes.len())?;
                let size = ::core::mem::size_of::<$t>();
                ::core::result::Result::Ok(bytes
                    .chunks_exact(size)
                    .map($crate::__private::bytemuck::pod_read_unaligned)
                    .collect())
            }
        }
    )+};
}

#[cfg(test)]
mod tests {
    // In wasm32 these run in the browser through wasm-bindgen-test (plain `#[test]`s would not run).
    use super::*;
    use crate::Error;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[derive(ShaderType, Clone, Copy, Debug, PartialEq)]
    struct Data {
        v1: glam::Vec3,
        v2: glam::Vec2,
    }

    #[test]
    fn vec3_struct_is_padded_as_wgsl_says() {
        // WGSL: vec3<f32> at 0 (align 16), vec2<f32> at 16, size 24 rounded to 32.
        assert_eq!(<Data as Element>::STRIDE, 32);
        let items = [Data {
            v1: glam::vec3(1.0, 2.0, 3.0),
            v2: glam::vec2(4.0, 5.0),
        }];
        let mut out = Vec::new();
        Data::encode(&items, &mut out).expect("encode");
        assert_eq!(out.len(), 32);
        let floats: &[f32] = bytemuck::cast_slice(&out);
        assert_eq!(&floats[..6], &[1.0, 2.0, 3.0, 0.0, 4.0, 5.0]);
        assert_eq!(Data::decode(&out).expect("decode"), items.to_vec());
    }

    #[test]
    fn scalars_round_trip() {
        let mut out = Vec::new();
        u32::encode(&[1, 2, 3], &mut out).expect("encode");
        assert_eq!(u32::decode(&out).expect("decode"), vec![1, 2, 3]);
        assert_eq!(<glam::Vec3 as Element>::STRIDE, 16);
        assert_eq!(<[f32; 3] as Element>::STRIDE, 12);
    }

    #[test]
    fn encoding_appends_and_nothing_encodes_to_no_bytes() {
        // encase alone would lay out an empty slice as one element of 32 bytes.
        let mut out = Vec::new();
        Data::encode(&[], &mut out).expect("encode nothing");
        assert!(out.is_empty());
        assert_eq!(Data::decode(&[]).expect("decode nothing"), Vec::new());
        let mut out = vec![9u8; 4];
        u32::encode(&[7], &mut out).expect("encode after bytes");
        assert_eq!(out, [9, 9, 9, 9, 7, 0, 0, 0]);
        let d = Data {
            v1: glam::Vec3::ONE,
            v2: glam::Vec2::ONE,
        };
        let mut out = vec![1u8; 32];
        Data::encode(&[d], &mut out).expect("encode a struct after bytes");
        assert_eq!(&out[..32], &[1u8; 32], "the bytes already there are kept");
        assert_eq!(Data::decode(&out[32..]).expect("decode"), [d]);
    }

    fn assert_codec_error(e: Error, type_name: &str, operation: &str, says: &str) {
        let message = e.to_string();
        assert!(
            matches!(&e, Error::ElementCodec { type_name: t, operation: o, .. } if t.contains(type_name) && *o == operation),
            "{e:?}"
        );
        assert!(
            message.contains(type_name) && message.contains(says),
            "{message}"
        );
    }

    #[test]
    fn decoding_a_partial_element_is_a_typed_error() {
        let e = u32::decode(&[0u8; 6]).expect_err("6 bytes of u32");
        assert_codec_error(
            e,
            "u32",
            "decoding",
            "6 bytes are not a whole number of elements of 4 bytes",
        );
        let e = Data::decode(&[0u8; 40]).expect_err("40 bytes of a 32-byte struct");
        assert_codec_error(e, "Data", "decoding", "40 bytes");
        let e = Data::decode(&[0u8; 24]).expect_err("the struct's size, not its stride");
        assert_codec_error(e, "Data", "decoding", "of 32 bytes");
    }

    #[repr(C)]
    #[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
    struct Pair {
        a: u32,
        b: f32,
    }
    crate::pod_element!(Pair);

    #[test]
    fn pod_elements_round_trip_and_refuse_a_partial_element() {
        let items = [Pair { a: 1, b: 2.0 }, Pair { a: 3, b: 4.0 }];
        let mut out = vec![0xAB];
        Pair::encode(&items, &mut out).expect("encode");
        assert_eq!(out.len(), 17);
        assert_eq!(Pair::decode(&out[1..]).expect("decode unaligned"), items);
        let e = Pair::decode(&out[..12]).expect_err("one and a half pairs");
        assert_codec_error(
            e,
            "Pair",
            "decoding",
            "12 bytes are not a whole number of elements of 8 bytes",
        );
    }
}
