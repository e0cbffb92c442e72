//! The CPU twins of the scans, written to be read beside the WGSL.

use crate::wgsl::{Op, Scalar};

/// The CPU twin of [`Scan`](crate::Scan) with any operation: the document's sequential
/// `prefixSum`, folding from `identity` with `combine` in element order.
pub fn scan_by<T: Copy>(
    input: &[T],
    identity: T,
    combine: impl Fn(T, T) -> T,
    inclusive: bool,
) -> Vec<T> {
    let mut acc = identity;
    input
        .iter()
        .map(|&x| {
            let before = acc;
            acc = combine(acc, x);
            if inclusive { acc } else { before }
        })
        .collect()
}

/// The CPU twin of [`Scan`](crate::Scan) with a built-in operation.
pub fn scan_cpu<T: Scalar>(input: &[T], op: Op, inclusive: bool) -> Vec<T> {
    scan_by(input, op.identity::<T>(), |a, b| op.apply(a, b), inclusive)
}

/// The CPU twin of [`WorkgroupScan`](crate::WorkgroupScan): each block of `block` elements
/// scanned on its own.
pub fn workgroup_scan_cpu<T: Scalar>(input: &[T], block: usize, op: Op, inclusive: bool) -> Vec<T> {
    input
        .chunks(block.max(1))
        .flat_map(|c| scan_cpu(c, op, inclusive))
        .collect()
}
