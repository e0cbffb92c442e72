//! The CPU twins of the scans, written to be read beside the WGSL.

use crate::wgsl::{Op, Scalar};

/// The CPU twin of [`Scan`]: the document's sequential `prefixSum`, generic over the operation.
pub fn scan_cpu<T: Scalar>(input: &[T], op: Op, inclusive: bool) -> Vec<T> {
    let mut acc = op.identity::<T>();
    input
        .iter()
        .map(|&x| {
            let before = acc;
            acc = op.apply(acc, x);
            if inclusive { acc } else { before }
        })
        .collect()
}

/// The CPU twin of [`WorkgroupScan`]: each block of `block` elements scanned on its own.
pub fn workgroup_scan_cpu<T: Scalar>(input: &[T], block: usize, op: Op, inclusive: bool) -> Vec<T> {
    input
        .chunks(block.max(1))
        .flat_map(|c| scan_cpu(c, op, inclusive))
        .collect()
}
