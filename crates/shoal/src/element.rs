//! [`Element`]: how a Rust type is laid out in a GPU buffer.
//!
//! Types that derive `encase::ShaderType` (and the scalars and glam vectors encase knows) are laid
//! out by WGSL's rules, so `struct Data { v1: Vec3, v2: Vec2 }` gets the 4 bytes of padding
//! after `v1` and the 8 at the end that WGSL's `vec3<f32>` alignment requires. Plain `bytemuck::Pod`
//! types opt in with [`pod_element!`](crate::pod_element) and are copied byte for byte; when their
//! layout differs from the WGSL type, binding them is an [`Error::ElementLayout`](crate::Error).

use encase::internal::{CreateFrom, WriteInto};
use encase::{ShaderSize, ShaderType, StorageBuffer};

/// A type that can live in a [`Buffer`](crate::Buffer): its WGSL stride, and how to encode and
/// decode a slice of it.
pub trait Element: Sized + Send + Sync + 'static {
    /// Bytes from one element to the next in a WGSL array (size rounded up to the alignment).
    const STRIDE: u64;
    /// Bytes of one element on its own (a uniform or a single struct binding).
    const SIZE: u64;
    /// Whether a WGSL `vec3` hides in the type (used to explain layout errors).
    const LAYOUT: LayoutKind;
    /// The name shown in messages.
    fn type_name() -> &'static str {
        std::any::type_name::<Self>()
    }
    /// Appends the GPU bytes of `items` to `out`.
    fn encode(items: &[Self], out: &mut Vec<u8>);
    /// Reads `bytes.len() / STRIDE` elements.
    fn decode(bytes: &[u8]) -> Vec<Self>;
}

/// How a Rust type's layout was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayoutKind {
    /// By WGSL's rules (encase).
    Wgsl,
    /// Byte for byte, as the Rust compiler laid it out (`#[repr(C)]` + bytemuck).
    Pod,
}

impl<T> Element for T
where
    T: ShaderType + ShaderSize + WriteInto + CreateFrom + Send + Sync + 'static,
{
    const STRIDE: u64 = T::METADATA.alignment().round_up(T::SHADER_SIZE.get());
    const SIZE: u64 = T::SHADER_SIZE.get();
    const LAYOUT: LayoutKind = LayoutKind::Wgsl;

    fn encode(items: &[Self], out: &mut Vec<u8>) {
        let start = out.len();
        let mut bytes = StorageBuffer::new(std::mem::take(out));
        // Writing into a growable Vec cannot run out of room; the offset keeps what was there.
        if let Err(e) = bytes.write(items) {
            log::error!(
                "encase could not encode {}: {e}",
                std::any::type_name::<T>()
            );
        }
        *out = bytes.into_inner();
        debug_assert!(out.len() >= start);
    }

    fn decode(bytes: &[u8]) -> Vec<Self> {
        let whole = bytes.len() - bytes.len() % Self::STRIDE as usize;
        StorageBuffer::new(&bytes[..whole])
            .create::<Vec<T>>()
            .unwrap_or_default()
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
#[macro_export]
macro_rules! pod_element {
    ($($t:ty),+ $(,)?) => {$(
        impl $crate::Element for $t {
            const STRIDE: u64 = ::core::mem::size_of::<$t>() as u64;
            const SIZE: u64 = ::core::mem::size_of::<$t>() as u64;
            const LAYOUT: $crate::LayoutKind = $crate::LayoutKind::Pod;
            fn encode(items: &[Self], out: &mut ::std::vec::Vec<u8>) {
                out.extend_from_slice($crate::__private::bytemuck::cast_slice(items));
            }
            fn decode(bytes: &[u8]) -> ::std::vec::Vec<Self> {
                let size = ::core::mem::size_of::<$t>();
                bytes
                    .chunks_exact(size)
                    .map($crate::__private::bytemuck::pod_read_unaligned)
                    .collect()
            }
        }
    )+};
}

#[cfg(test)]
mod tests {
    // In wasm32 these run in the browser through wasm-bindgen-test (plain `#[test]`s would not run).
    use super::*;
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
        Data::encode(&items, &mut out);
        assert_eq!(out.len(), 32);
        let floats: &[f32] = bytemuck::cast_slice(&out);
        assert_eq!(&floats[..6], &[1.0, 2.0, 3.0, 0.0, 4.0, 5.0]);
        assert_eq!(Data::decode(&out), items.to_vec());
    }

    #[test]
    fn scalars_round_trip() {
        let mut out = Vec::new();
        u32::encode(&[1, 2, 3], &mut out);
        assert_eq!(u32::decode(&out), vec![1, 2, 3]);
        assert_eq!(<glam::Vec3 as Element>::STRIDE, 16);
        assert_eq!(<[f32; 3] as Element>::STRIDE, 12);
    }
}
