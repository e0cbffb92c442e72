//! Sorting elements of any type by a key that WGSL computes from each element
//! ([`RadixSort::key_function`], [`KeyFunction`]): the keys computed into scratch, argsorted, and
//! the elements gathered once by that permutation.

use std::marker::PhantomData;

use shoal::{Buffer, Commands, Element, Error, Kernel, Record, Result};

use super::passes::words_per_element;
use super::{RadixSort, SortKey, wgsl};

const SOURCE: shoal::Source = shoal::wgsl!("../../wgsl/sort_by.wgsl");

/// A sort key of type `K` computed by WGSL from each element of a `Buffer<T>`, compiled by
/// [`RadixSort::key_function`] for a sort by it ([`SortByArgs`]).
#[derive(Debug)]
pub struct KeyFunction<T: Element, K: SortKey> {
    kernel: Kernel,
    wgsl: String,
    _types: PhantomData<(T, K)>,
}

impl<T: Element, K: SortKey> KeyFunction<T, K> {
    /// The WGSL it was compiled from.
    pub fn wgsl(&self) -> &str {
        &self.wgsl
    }

    /// The kernel that computes the keys.
    pub fn kernel(&self) -> &Kernel {
        &self.kernel
    }
}

impl<K: SortKey> RadixSort<K> {
    /// Compiles a key function for elements of `T`: `wgsl` declares the element's WGSL type as
    /// `Element` (`alias Element = Particle;` after the struct) and `fn sort_key(e: Element) ->`
    /// the key's WGSL type: `u32`, `i32`, `f32`, or `vec2<u32>` (low word, high word) for
    /// [`U64`](crate::U64) and [`I64`](crate::I64), exactly (a `sort_key` of another type, even
    /// one of the same size, is an [`shoal::Error::Wgsl`] naming the type wanted, not a sort by
    /// its raw bits). A WGSL error in it is an [`shoal::Error::Wgsl`] naming the line; binding a
    /// `Buffer<T>` whose stride is not the WGSL `Element`'s is an
    /// [`shoal::Error::ElementLayout`].
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// use shoal::glam::{Vec4, vec4};
    /// use shoal_kernels::{RadixSort, Record, SortByArgs, SortOrder};
    /// let gpu = shoal::Gpu::blocking()?;
    /// // Points sorted by their distance from the origin, farthest first.
    /// let points = gpu.buffer_from(&[vec4(1.0, 0.0, 0.0, 0.0), vec4(0.0, 3.0, 0.0, 1.0), vec4(0.0, 0.0, 2.0, 2.0)])?;
    /// let mut sort = RadixSort::<f32>::new(&gpu, Default::default())?;
    /// sort.set_order(SortOrder::Descending);
    /// let by_length = sort.key_function::<Vec4>(
    ///     "alias Element = vec4<f32>;
    ///      fn sort_key(e: Element) -> f32 { return length(e.xyz); }",
    /// )?;
    /// sort.run(SortByArgs { elements: &points, key: &by_length })?;
    /// let order: Vec<f32> = points.read_blocking()?.iter().map(|p| p.w).collect();
    /// assert_eq!(order, [1.0, 2.0, 0.0]);
    /// # Ok(()) }
    /// ```
    pub fn key_function<T: Element>(&self, wgsl: &str) -> Result<KeyFunction<T, K>> {
        // The key is bound to a variable of exactly the key type before it is stored, so a
        // `sort_key` of another type (an `f32` for `u32` keys, a `vec4<u32>` for 64-bit ones)
        // is a WGSL error, not a sort by its raw bits.
        let store = if K::WORDS == 1 {
            "    keys[i] = bitcast<u32>(key);"
        } else {
            "    keys[2u * i] = key.x;\n    keys[2u * i + 1u] = key.y;"
        };
        let ty = K::WGSL;
        let body = format!(
            "{wgsl}\n// The key type: {ty}\nfn store_key(i: u32, e: Element) {{\n    \
             let key: {ty} = sort_key(e);\n{store}\n}}\n"
        );
        let source = SOURCE.block("element", shoal::Source::new("the key function", body));
        let kernel = wgsl::builder(&self.gpu, source)
            .entry("sort_by_keys")
            .build()
            .map_err(key_type_error::<K>)?;
        Ok(KeyFunction {
            kernel,
            wgsl: wgsl.to_string(),
            _types: PhantomData,
        })
    }
}

/// What one sort of elements by a computed key reads and writes.
#[derive(Debug)]
pub struct SortByArgs<'a, T: Element, K: SortKey> {
    /// The elements, sorted in place (their stride whole `u32` words).
    pub elements: &'a Buffer<T>,
    /// The key of each element, from [`RadixSort::key_function`] of this sort.
    pub key: &'a KeyFunction<T, K>,
}

impl<T: Element, K: SortKey> Clone for SortByArgs<'_, T, K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Element, K: SortKey> Copy for SortByArgs<'_, T, K> {}

impl<T: Element, K: SortKey> Record<SortByArgs<'_, T, K>> for RadixSort<K> {
    /// Records sorting `elements` in place by the key `key` computes from each (stable: elements
    /// of equal keys keep their order): the keys computed into scratch, their permutation, and
    /// one gather of the elements (whose stride must be whole `u32` words).
    fn record(&self, commands: &mut Commands, args: SortByArgs<'_, T, K>) -> Result<()> {
        let SortByArgs { elements, key } = args;
        let commands = &mut commands.labelled("radix_sort");
        let element_words = words_per_element::<T>()?;
        let n = wgsl::count_u32("radix sort by key", elements.len())?;
        let key_words = n as u64 * K::WORDS as u64;
        wgsl::count_u32("radix sort by key: the keys' u32 words", key_words)?;
        wgsl::count_u32(
            "radix sort by key: the elements' u32 words",
            n as u64 * element_words as u64,
        )?;
        if n <= 1 {
            return Ok(());
        }
        let keys = self
            .scratch
            .get(&self.gpu, "sort: computed keys", key_words)?;
        let params = self.uniforms.get(&self.gpu, [n, 0, 0, 0])?;
        key.kernel
            .bind("params", &params)
            .bind("elements", elements)
            .bind("keys", &keys)
            .invocations(n as u64)
            .record(commands)?;
        let indices = self.scratch.get(&self.gpu, "sort: indices", n as u64)?;
        self.permutation(commands, &keys, &indices, n)?;
        self.gather(
            commands,
            &elements.view_as::<u32>(),
            &indices,
            n,
            element_words,
        )
    }
}

/// `error` (from compiling a key function for keys of `K`) with a sentence naming the key type
/// in front when naga refuses the generated `let key: <key type> = sort_key(e);`: a `sort_key`
/// that returns another type.
fn key_type_error<K: SortKey>(error: Error) -> Error {
    match error {
        Error::Wgsl { kernel, message } if message.contains("the type of `key` is expected") => {
            Error::Wgsl {
                kernel,
                message: format!(
                    "`sort_key` must return the sort's key type, `{want}`: declare it \
                     `fn sort_key(e: Element) -> {want}` (a key of another type would sort by \
                     its raw bits)\n{message}",
                    want = K::WGSL,
                ),
            }
        }
        other => other,
    }
}
