//! The key types [`RadixSort`](crate::RadixSort) sorts by ([`SortKey`]), the order
//! ([`SortOrder`]), and [`U64`] and [`I64`]: 64-bit keys as WGSL holds them, two `u32` words.

use std::cmp::Ordering;

/// Which way a sort goes. Both are stable: equal keys keep their input order (a descending sort
/// complements the keys' words, which keeps equal keys equal).
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// use shoal_kernels::{RadixSort, Record, SortArgs, SortOrder, SortParams};
/// let gpu = shoal::Gpu::blocking()?;
/// let mut sort = RadixSort::new(&gpu, SortParams::default())?;
/// sort.set_order(SortOrder::Descending);
/// assert_eq!(sort.order(), SortOrder::Descending);
/// let keys = gpu.buffer_from(&[-3i32, 8, 0])?;
/// sort.run(SortArgs { keys: &keys })?;
/// assert_eq!(keys.read_blocking()?, [8, 0, -3]);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SortOrder {
    /// Smallest key first.
    #[default]
    Ascending,
    /// Largest key first.
    Descending,
}

/// A key type [`RadixSort`](crate::RadixSort) sorts by: `u32`, `i32`, `f32`, [`U64`] and [`I64`].
///
/// The GPU sorts `u32` words; every other key is mapped to words whose unsigned order is the key's
/// order before the sort and back after it: `i32` flips its sign bit; `f32` flips every bit of a
/// negative number and the sign bit of a positive one, which orders floats by IEEE 754's total
/// order, as [`f32::total_cmp`] does:
/// -NaN < -∞ < negative numbers < -0 < +0 < positive numbers < +∞ < +NaN (NaNs by payload,
/// the larger payload further out). Descending sorts complement the words.
///
/// ```
/// use shoal_kernels::{SortKey, U64};
/// use std::cmp::Ordering;
/// assert_eq!((-0.0f32).sort_cmp(&0.0), Ordering::Less);
/// assert_eq!(f32::NAN.sort_cmp(&f32::INFINITY), Ordering::Greater);
/// assert_eq!(U64(1 << 40).sort_cmp(&U64(7)), Ordering::Greater);
/// assert_eq!((-1i32).ordered(), 0x7fff_ffff);
/// assert_eq!(1.0f32.ordered(), 0xbf80_0000);
/// ```
///
/// Another key type is a compile error naming it in one line:
///
/// ```compile_fail
/// # fn f(gpu: &shoal::Gpu) -> Result<(), shoal::Error> {
/// let sort = shoal_kernels::RadixSort::<u16>::new(gpu)?; // `u16` is not a `SortKey`
/// # Ok(()) }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a `SortKey`: the radix sort does not sort keys of it",
    label = "not a `SortKey`",
    note = "keys are u32, i32, f32, U64 and I64 (64-bit keys as two u32 words); sort other \
            types by a key computed from each with a `SortByArgs` sort"
)]
pub trait SortKey: shoal::Element + Copy + std::fmt::Debug + sealed::Key {
    /// The order the GPU sorts these keys in, ascending (the CPU twins sort with it).
    fn sort_cmp(&self, other: &Self) -> Ordering;

    /// The key as the word(s) the GPU sorts, whose unsigned order is the key's order: the key's
    /// own bits for `u32` and [`U64`], the sign bit flipped for `i32` and [`I64`], and `f32`'s
    /// map above. [`SortParams::key_bits`](crate::SortParams::key_bits) picks bits of
    /// this.
    fn ordered(&self) -> u64;
}

/// How a key type's (most significant) word orders: the key kinds of `wgsl/sort_keys.wgsl`.
pub(crate) mod kind {
    /// Unsigned: the word as it is.
    pub(crate) const UINT: u32 = 0;
    /// Two's complement: the sign bit flipped.
    pub(crate) const INT: u32 = 1;
    /// IEEE 754: every bit of a negative number flipped, the sign bit of a positive one.
    pub(crate) const FLOAT: u32 = 2;
}

pub(crate) mod sealed {
    /// What the sort needs to know of a key type, outside the public API.
    pub trait Key {
        /// `u32` words per key: 1, or 2 (low word first).
        const WORDS: u32;
        /// How the (most significant) word orders ([`kind`](super::kind)).
        const KIND: u32;
        /// The WGSL type a key function returns ([`crate::RadixSort::key_function`]).
        const WGSL: &'static str;
    }
}

macro_rules! key {
    ($t:ty, $words:expr, $kind:expr, $wgsl:expr, $cmp:expr, $ordered:expr) => {
        impl sealed::Key for $t {
            const WORDS: u32 = $words;
            const KIND: u32 = $kind;
            const WGSL: &'static str = $wgsl;
        }
        impl SortKey for $t {
            fn sort_cmp(&self, other: &Self) -> Ordering {
                $cmp(self, other)
            }
            fn ordered(&self) -> u64 {
                $ordered(*self)
            }
        }
    };
}

key!(u32, 1, kind::UINT, "u32", Ord::cmp, |k: u32| k as u64);
key!(
    i32,
    1,
    kind::INT,
    "i32",
    Ord::cmp,
    |k: i32| (k as u32 ^ 1 << 31) as u64
);
key!(f32, 1, kind::FLOAT, "f32", f32::total_cmp, |k: f32| {
    let bits = k.to_bits();
    (if bits >> 31 == 1 {
        !bits
    } else {
        bits | 1 << 31
    }) as u64
});
key!(U64, 2, kind::UINT, "vec2<u32>", Ord::cmp, |k: U64| k.0);
key!(I64, 2, kind::INT, "vec2<u32>", Ord::cmp, |k: I64| k.0
    as u64
    ^ 1 << 63);

/// Declares a 64-bit key: the integer in a `#[repr(transparent)]` wrapper, laid out byte for
/// byte (two `u32` words, low first, on every target Shoal runs on: all little-endian).
macro_rules! wide_key {
    ($(#[$doc:meta])* $name:ident($int:ty)) => {
        $(#[$doc])*
        #[repr(transparent)]
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, bytemuck::Pod,
            bytemuck::Zeroable,
        )]
        pub struct $name(pub $int);
        shoal::pod_element!($name);
    };
}

wide_key! {
    /// A `u64` in a GPU buffer: WGSL has no 64-bit integers, so it is two `u32` words, low first
    /// (a `vec2<u32>` to a kernel). `Buffer<u64>` cannot exist (encase lays out WGSL types only);
    /// this is the same 8 bytes.
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// use shoal_kernels::{RadixSort, Record, SortArgs, U64};
    /// let gpu = shoal::Gpu::blocking()?;
    /// let keys: Vec<U64> = [5u64 << 40, 3, u64::MAX, 0].map(U64).to_vec();
    /// let buffer = gpu.buffer_from(&keys)?;
    /// RadixSort::new(&gpu, Default::default())?.run(SortArgs { keys: &buffer })?;
    /// assert_eq!(buffer.read_blocking()?, [0, 3, 5 << 40, u64::MAX].map(U64));
    /// # Ok(()) }
    /// ```
    U64(u64)
}

wide_key! {
    /// An `i64` in a GPU buffer, as [`U64`] is a `u64`: two words, low first.
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// use shoal_kernels::{I64, RadixSort, Record, SortArgs, SortOrder, SortParams};
    /// let gpu = shoal::Gpu::blocking()?;
    /// let buffer = gpu.buffer_from(&[7i64, i64::MIN, -1, 1 << 50].map(I64))?;
    /// let mut sort = RadixSort::new(&gpu, SortParams::default())?;
    /// sort.set_order(SortOrder::Descending);
    /// sort.run(SortArgs { keys: &buffer })?;
    /// assert_eq!(buffer.read_blocking()?, [1 << 50, 7, -1, i64::MIN].map(I64));
    /// # Ok(()) }
    /// ```
    I64(i64)
}
