//! Radix sorts of the other key types and shapes, each to be read as a ratio to `radix sort u32
//! keys` at the same size: `i32`, `f32` and `u64` keys alone (all bits random, so every pass does
//! work), `u32` keys carrying 16-byte values, the argsort of `u32` keys, and `u32` keys below
//! 2^16 sorted by those 16 bits alone (`SortParams::key_bits`).

use shoal::{Buffer, Commands, Element, Gpu};
use shoal_kernels::{
    ArgsortArgs, RadixSort, Record, SortArgs, SortKey, SortOrder, SortPairsArgs, SortParams, U64,
    argsort_cpu,
};

use super::{data, err, nanos, read};
use crate::harness::{Case, Fut};

/// What one row sorts.
#[derive(Debug, Clone, Copy)]
pub(super) enum Shape {
    /// Keys alone.
    Keys,
    /// Keys carrying a `[u32; 4]` each.
    Wide,
    /// The permutation that sorts the keys.
    Argsort,
    /// Keys below 2^16, sorted by their low 16 bits alone.
    Low16,
}

/// A key the rows build from two random words.
pub(super) trait BenchKey: SortKey {
    fn from_words(low: u32, high: u32) -> Self;
}

impl BenchKey for u32 {
    fn from_words(low: u32, _: u32) -> Self {
        low
    }
}

impl BenchKey for i32 {
    fn from_words(low: u32, _: u32) -> Self {
        low as i32
    }
}

impl BenchKey for f32 {
    // Random bits: NaNs (0.4 % of them) and subnormals included, as the total order sorts them.
    fn from_words(low: u32, _: u32) -> Self {
        f32::from_bits(low)
    }
}

impl BenchKey for U64 {
    fn from_words(low: u32, high: u32) -> Self {
        U64((high as u64) << 32 | low as u64)
    }
}

struct KeyCase<K: BenchKey> {
    sort: RadixSort<K>,
    shape: Shape,
    host: Vec<K>,
    /// The unsorted keys: each run starts from a copy of them (the sort is in place).
    pristine: Buffer<K>,
    keys: Buffer<K>,
    /// For `Wide`: value `i` is `[i; 4]`, copied into `values` before each run.
    pristine_values: Buffer<[u32; 4]>,
    values: Buffer<[u32; 4]>,
    /// For `Argsort`: the permutation.
    indices: Buffer<u32>,
}

/// The case of `shape` over `n` keys of `K`.
pub(super) fn key_case<K: BenchKey>(
    gpu: &Gpu,
    n: u64,
    shape: Shape,
) -> Result<Box<dyn crate::harness::Case>, String> {
    let (low, high) = (data(n, 0), data(n, 0).into_iter().rev().collect::<Vec<_>>());
    let low16 = matches!(shape, Shape::Low16);
    let host: Vec<K> = low
        .iter()
        .zip(&high)
        .map(|(&l, &h)| K::from_words(if low16 { l & 0xffff } else { l }, h))
        .collect();
    let params = SortParams {
        key_bits: low16.then_some(0..16),
    };
    let sort = RadixSort::new(gpu, params).map_err(err)?;
    let wide = matches!(shape, Shape::Wide);
    let values: Vec<[u32; 4]> = (0..if wide { n as u32 } else { 1 })
        .map(|i| [i; 4])
        .collect();
    let indices = if matches!(shape, Shape::Argsort) {
        n
    } else {
        1
    };
    Ok(Box::new(KeyCase {
        sort,
        shape,
        pristine: gpu.buffer_from(&host).map_err(err)?,
        keys: gpu.buffer_zeroed(n).map_err(err)?,
        pristine_values: gpu.buffer_from(&values).map_err(err)?,
        values: gpu.buffer_from(&values).map_err(err)?,
        indices: gpu.buffer_zeroed(indices).map_err(err)?,
        host,
    }))
}

/// Keys compared by their sort order (bit for bit where it matters: `f32` NaNs and zeros).
fn same_keys<K: SortKey>(got: &[K], want: &[K]) -> Result<(), String> {
    match got
        .iter()
        .zip(want)
        .position(|(a, b)| a.sort_cmp(b).is_ne())
    {
        Some(i) => Err(format!("index {i}: gpu {:?} cpu {:?}", got[i], want[i])),
        None if got.len() != want.len() => Err(format!("lengths {} and {}", got.len(), want.len())),
        None => Ok(()),
    }
}

async fn read_any<T: Element>(b: &Buffer<T>) -> Result<Vec<T>, String> {
    b.read().await.map_err(err)
}

impl<K: BenchKey> Case for KeyCase<K> {
    fn reset(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        // Every run starts from the unsorted keys, the wide values from their first order.
        c.copy(&self.pristine, &self.keys)?;
        c.copy(&self.pristine_values, &self.values)?;
        Ok(())
    }
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        match self.shape {
            Shape::Keys | Shape::Low16 => self.sort.record(c, SortArgs { keys: &self.keys }),
            Shape::Wide => self.sort.record(
                c,
                SortPairsArgs {
                    keys: &self.keys,
                    values: &self.values,
                },
            ),
            Shape::Argsort => self.sort.record(
                c,
                ArgsortArgs {
                    keys: &self.keys,
                    indices: &self.indices,
                },
            ),
        }
    }
    fn verify(&mut self) -> Fut<'_, Result<(), String>> {
        Box::pin(async {
            let want = argsort_cpu(&self.host, SortOrder::Ascending);
            let want_keys: Vec<K> = want.iter().map(|&i| self.host[i as usize]).collect();
            match self.shape {
                Shape::Keys | Shape::Low16 => same_keys(&read_any(&self.keys).await?, &want_keys),
                Shape::Argsort => {
                    let got = read(&self.indices).await?;
                    super::same(&got, &want)
                }
                Shape::Wide => {
                    same_keys(&read_any(&self.keys).await?, &want_keys)?;
                    // Value i was [i; 4]: the values come out as the (stable) argsort.
                    let v = read_any(&self.values).await?;
                    match v.iter().zip(&want).position(|(v, &i)| *v != [i; 4]) {
                        Some(i) => Err(format!("value {i} did not follow its key")),
                        None => Ok(()),
                    }
                }
            }
        })
    }
    fn cpu(&mut self) -> f64 {
        let mut keys = self.host.clone();
        nanos(|| keys.sort_unstable_by(K::sort_cmp))
    }
}
