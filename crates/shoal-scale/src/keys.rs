//! [`SpreadKey`]: the key types the spread sort takes, every [`SortKey`] of `RadixSort`, with
//! what its device code needs to compare them.

use shoal_kernels::{I64, SortKey, SortOrder, U64};

/// A key of [`Group::sort`](crate::Group::sort): `u32`, `i32`, `f32`, [`U64`] and [`I64`], as
/// `RadixSort` sorts them (`f32` in IEEE total order).
pub trait SpreadKey: SortKey + Send + Sync + sealed::Sealed {
    /// How the device maps the key's words to an unsigned order: 0 unsigned, 1 signed, 2 `f32`.
    const ORDER_KIND: u32;
    /// 32-bit words per key.
    const KEY_WORDS: u32;
    /// The key as 64 bits that compare, unsigned, in `order`'s order (the CPU side of the
    /// device's `normalized` in `wgsl/spread_sort.wgsl`).
    fn normalized(&self, order: SortOrder) -> u64 {
        match order {
            SortOrder::Ascending => self.ordered(),
            SortOrder::Descending => !self.ordered(),
        }
    }
}

mod sealed {
    pub trait Sealed {}
}

macro_rules! spread_key {
    ($t:ty, $kind:expr, $words:expr) => {
        impl sealed::Sealed for $t {}
        impl SpreadKey for $t {
            const ORDER_KIND: u32 = $kind;
            const KEY_WORDS: u32 = $words;
        }
    };
}

spread_key!(u32, 0, 1);
spread_key!(i32, 1, 1);
spread_key!(f32, 2, 1);
spread_key!(U64, 0, 2);
spread_key!(I64, 1, 2);
