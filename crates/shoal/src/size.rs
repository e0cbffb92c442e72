//! Checked byte arithmetic for sizes the caller chooses (element counts, capacities, offsets):
//! a product or sum that would wrap is a typed error, in debug and release alike, never a panic
//! (debug) or a silently small buffer (release).

use crate::error::{Error, Result};

/// `len × stride + header` bytes, or `None` when it does not fit in a `u64`.
pub(crate) fn bytes(len: u64, stride: u64, header: u64) -> Option<u64> {
    len.checked_mul(stride)?.checked_add(header)
}

/// `len × stride + header` bytes when they are at most `limit`; otherwise
/// [`Error::ResourceTooLarge`] naming `what`, the exact byte count (as `u128`, which the product
/// of two `u64`s plus a header always fits), the limit's name and its value.
pub(crate) fn within(
    what: impl FnOnce() -> String,
    len: u64,
    stride: u64,
    header: u64,
    limit_name: &'static str,
    limit: u64,
) -> Result<u64> {
    match bytes(len, stride, header) {
        Some(b) if b <= limit => Ok(b),
        _ => Err(Error::ResourceTooLarge {
            what: what(),
            bytes: len as u128 * stride as u128 + header as u128,
            limit_name,
            limit,
        }),
    }
}

#[cfg(test)]
mod tests {
    // These run in `cargo test` (debug) and `cargo test --release -p shoal size::` alike: the
    // values wrap a u64, so an unchecked `*` would panic in debug and pass a small size in release.
    use super::{bytes, within};
    use crate::Error;
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    #[test]
    fn products_and_sums_that_would_wrap_are_none() {
        assert_eq!(bytes(0, 16, 16), Some(16));
        assert_eq!(bytes(u64::MAX, 1, 0), Some(u64::MAX));
        assert_eq!(bytes(u64::MAX, 2, 0), None);
        assert_eq!(bytes(u64::MAX / 16 + 1, 16, 0), None);
        assert_eq!(bytes(u64::MAX / 16, 16, 16), None);
        assert_eq!(bytes(u64::MAX, 1, 1), None);
        // In release, u64::MAX / 8 + 1 elements of 8 bytes wrap to 0 bytes: an empty buffer.
        assert_eq!(bytes(u64::MAX / 8 + 1, 8, 0), None);
    }

    #[test]
    fn sizes_past_the_limit_or_past_u64_are_resource_too_large() {
        assert_eq!(within(String::new, 4, 4, 0, "max_buffer_size", 16), Ok(16));
        let e = within(|| "a buffer".into(), 5, 4, 0, "max_buffer_size", 16).expect_err("over");
        assert!(
            matches!(
                e,
                Error::ResourceTooLarge {
                    bytes: 20,
                    limit: 16,
                    ..
                }
            ),
            "{e}"
        );
        let e = within(
            || "a buffer".into(),
            u64::MAX,
            16,
            16,
            "max_buffer_size",
            1 << 30,
        )
        .expect_err("wraps");
        let exact = u64::MAX as u128 * 16 + 16;
        assert!(
            matches!(e, Error::ResourceTooLarge { bytes, .. } if bytes == exact),
            "{e}"
        );
        assert!(e.to_string().contains(&exact.to_string()), "{e}");
    }
}
