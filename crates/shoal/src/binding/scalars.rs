//! The scalar kind of a bound buffer's elements against the WGSL's: a `Buffer<u32>` of integers
//! bound to `array<f32>` has the right stride and the wrong meaning, so its bits would be read
//! as floats without a word. Kinds (float, signed, unsigned) are compared, not widths: a 64-bit
//! atomic may be held as `[u32; 2]` words. Compared where both sides name their scalar (Rust's
//! scalars, arrays of them and glam's vectors and matrices; WGSL's scalars, vectors, matrices,
//! atomics and arrays of them); structs are left to their layout check.

use super::BufferResource;
use super::check::short_type_name;
use crate::error::{Error, Result};
use crate::reflect::BindingInfo;

/// An error when `wgsl` (an element of the binding, or the whole binding) and the bound buffer's
/// element type both name a scalar and their kinds differ.
pub(super) fn check_scalars(
    kernel: &str,
    info: &BindingInfo,
    b: &BufferResource<'_>,
    wgsl: &str,
) -> Result<()> {
    // Every dispatch checks every binding: nothing is allocated unless it is an error.
    match (wgsl_scalar(wgsl), rust_scalar(b.type_name)) {
        (Some(w), Some(r)) if kind(w) != kind(r) && !words(w, r) => {
            let rust = short_type_name(b.type_name);
            let twin = rust_twin(wgsl).unwrap_or("T");
            let layout = if twin == "T" {
                ", a T of the WGSL element's layout"
            } else {
                ""
            };
            Err(Error::BindingKind {
                kernel: kernel.to_string(),
                binding: info.name.clone(),
                expected: format!(
                    "`{}` ({w} elements)",
                    info.shape.as_ref().map_or(wgsl, |s| s.wgsl_type.as_str())
                ),
                got: if b.header > 0 {
                    format!(
                        "an `AppendBuffer<{rust}>` ({r} items), whose bits would be read as {w}; \
                         make it `gpu.append_buffer::<{twin}>(..)`{layout}"
                    )
                } else {
                    format!(
                        "a `Buffer<{rust}>` ({r} elements), whose bits would be read as {w}; \
                         convert the data, or bind `buffer.view_as::<{twin}>()`{layout} to pass \
                         the bits as they are"
                    )
                },
            })
        }
        _ => Ok(()),
    }
}

/// The WGSL and Rust scalars where `wgsl` and the Rust `type_name` both name one and their
/// kinds differ: what [`check_scalars`] refuses, for values that are not in a buffer (immediate
/// data).
pub(crate) fn clash<'a>(wgsl: &'a str, type_name: &str) -> Option<(&'a str, &'static str)> {
    match (wgsl_scalar(wgsl), rust_scalar(type_name)) {
        (Some(w), Some(r)) if kind(w) != kind(r) && !words(w, r) => Some((w, r)),
        _ => None,
    }
}

/// Whether `u32` words hold a 16- or 64-bit WGSL scalar's bits: packed halves, or the two
/// words of a 64-bit value (no 64-bit or 16-bit Rust element is needed for them).
fn words(wgsl: &str, rust: &str) -> bool {
    rust == "u32" && !wgsl.ends_with("32")
}

/// What a scalar's bits mean: widths may differ (a `u64` atomic held as `[u32; 2]` words).
fn kind(scalar: &str) -> char {
    scalar.chars().next().unwrap_or(' ')
}

/// The scalar of a WGSL scalar, vector, matrix, atomic or array of one: `vec4<u32>` is `u32`.
fn wgsl_scalar(wgsl: &str) -> Option<&str> {
    let mut t = wgsl.trim();
    loop {
        let inner = ["array<", "atomic<", "vec2<", "vec3<", "vec4<"]
            .iter()
            .find_map(|p| t.strip_prefix(p))
            .or_else(|| {
                t.strip_prefix("mat")
                    .and_then(|m| m.get(3..)?.strip_prefix('<'))
            });
        match inner {
            // `array<E, N>`: E up to the last comma at depth 0, or the whole inside.
            Some(inner) => {
                let inner = inner.strip_suffix('>')?;
                t = match inner.rfind(',') {
                    Some(comma) if !inner[comma..].contains('>') => inner[..comma].trim(),
                    _ => inner.trim(),
                };
            }
            None => break,
        }
    }
    ["u32", "i32", "f32", "f16", "u64", "i64", "f64", "bool"]
        .into_iter()
        .find(|s| *s == t)
}

/// The scalar of a Rust element type by its `type_name`: `u32`, `[f32; 3]`, glam's `UVec4`,
/// `Vec3`, `Mat4` (`f32`), `IVec2`, `DVec3` (`f64`), `half`'s `f16` (module paths ignored).
fn rust_scalar(rust: &str) -> Option<&'static str> {
    let element = rust
        .strip_prefix('[')
        .and_then(|r| r.split(';').next())
        .unwrap_or(rust)
        .trim();
    let element = element.rsplit("::").next().unwrap_or(element);
    let scalars = ["u32", "i32", "f32", "f16", "u64", "i64", "f64", "bool"];
    if let Some(s) = scalars.into_iter().find(|s| *s == element) {
        return Some(s);
    }
    let glam = |prefix: &str| {
        let rest = element.strip_prefix(prefix)?;
        let shape = rest
            .strip_prefix("Vec")
            .or_else(|| rest.strip_prefix("Mat"))?;
        matches!(shape, "2" | "3" | "4" | "3A").then_some(())
    };
    [
        ("", "f32"),
        ("U", "u32"),
        ("I", "i32"),
        ("D", "f64"),
        ("U64", "u64"),
        ("I64", "i64"),
    ]
    .into_iter()
    .find(|(prefix, _)| glam(prefix).is_some())
    .map(|(_, s)| s)
}

/// The Rust element to name in the advice for a WGSL element (or binding) type: its 32-bit
/// scalar, glam vector or matrix; `None` for the others (arrays of arrays, 16- and 64-bit
/// scalars, which are bound as `u32` words).
fn rust_twin(wgsl: &str) -> Option<&'static str> {
    let element = wgsl.strip_prefix("atomic<").unwrap_or(wgsl);
    let element = element
        .strip_suffix('>')
        .filter(|_| element != wgsl)
        .unwrap_or(element);
    let twins = [
        ("u32", "u32"),
        ("i32", "i32"),
        ("f32", "f32"),
        ("vec2<u32>", "UVec2"),
        ("vec3<u32>", "UVec3"),
        ("vec4<u32>", "UVec4"),
        ("vec2<i32>", "IVec2"),
        ("vec3<i32>", "IVec3"),
        ("vec4<i32>", "IVec4"),
        ("vec2<f32>", "Vec2"),
        ("vec3<f32>", "Vec3"),
        ("vec4<f32>", "Vec4"),
        ("mat2x2<f32>", "Mat2"),
        ("mat3x3<f32>", "Mat3"),
        ("mat4x4<f32>", "Mat4"),
    ];
    twins
        .into_iter()
        .find(|(w, _)| *w == element)
        .map(|(_, r)| r)
}

#[cfg(test)]
mod tests {
    // In wasm32 these run in the browser through wasm-bindgen-test.
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::{rust_scalar, rust_twin, wgsl_scalar, words};

    #[test]
    fn scalars_of_wgsl_types() {
        assert_eq!(wgsl_scalar("f32"), Some("f32"));
        assert_eq!(wgsl_scalar("vec4<u32>"), Some("u32"));
        assert_eq!(wgsl_scalar("atomic<i32>"), Some("i32"));
        assert_eq!(wgsl_scalar("array<vec3<f32>, 4>"), Some("f32"));
        assert_eq!(wgsl_scalar("array<array<u32, 2>>"), Some("u32"));
        assert_eq!(wgsl_scalar("mat4x4<f32>"), Some("f32"));
        assert_eq!(wgsl_scalar("Particle"), None);
        assert_eq!(wgsl_scalar("array<Particle>"), None);
    }

    #[test]
    fn words_and_twins() {
        // Packed halves and 64-bit values travel as u32 words; i32 words are not raw bits.
        assert!(words("f16", "u32") && words("i64", "u32") && words("f64", "u32"));
        assert!(!words("f32", "u32") && !words("i64", "i32"));
        assert_eq!(rust_twin("vec3<f32>"), Some("Vec3"));
        assert_eq!(rust_twin("atomic<u32>"), Some("u32"));
        assert_eq!(rust_twin("mat4x4<f32>"), Some("Mat4"));
        assert_eq!(rust_twin("array<u32, 2>"), None);
        assert_eq!(rust_twin("i64"), None);
    }

    #[test]
    fn scalars_of_rust_types() {
        assert_eq!(rust_scalar("u32"), Some("u32"));
        assert_eq!(rust_scalar("[f32; 3]"), Some("f32"));
        assert_eq!(rust_scalar("UVec4"), Some("u32"));
        assert_eq!(rust_scalar("Vec3A"), Some("f32"));
        assert_eq!(rust_scalar("Mat4"), Some("f32"));
        assert_eq!(rust_scalar("IVec2"), Some("i32"));
        assert_eq!(rust_scalar("f16"), Some("f16"));
        assert_eq!(rust_scalar("Particle"), None);
        assert_eq!(rust_scalar("[Particle; 2]"), None);
        assert_eq!(rust_scalar("glam::u32::uvec4::UVec4"), Some("u32"));
        assert_eq!(rust_scalar("[glam::f32::vec3::Vec3; 2]"), Some("f32"));
        assert_eq!(rust_scalar("half::binary16::f16"), Some("f16"));
        assert_eq!(rust_scalar("Vector"), None);
    }
}
