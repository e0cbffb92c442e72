//! The spread sort: a sample sort written once over [`Transport`].
//!
//! 1. Each member sorts its part on its device (`RadixSort`, stable).
//! 2. Each draws samples at even steps of its sorted part, in proportion to its length; every
//!    member gathers all samples, orders them by (key, rank, position) and takes the same
//!    splitters at even steps among them.
//! 3. Each member finds, on its device, where every splitter falls in its sorted part. Equal
//!    keys are ordered by (key, rank, position in the sorted part), which is their order by
//!    (key, global index) since the local sort is stable: so a run of equal keys larger than a
//!    bucket is split between members like any other keys.
//! 4. The buckets are exchanged (each element leaves its device at most once; the bucket a
//!    member keeps never leaves), and each member sorts what it received, stably: runs arrive in
//!    rank order, so pairs keep their global order among equal keys.

use shoal::glam::UVec4;
use shoal::{Buffer, Element, Error, Kernel, Result};
use shoal_kernels::{RadixSort, Record, SortArgs, SortOrder, SortPairsArgs, SortParams};

use crate::keys::SpreadKey;
use crate::member::Member;
use crate::meter::Meter;
use crate::part::Part;
use crate::transport::{Transport, from_words, step, words};

const SOURCE: shoal::Source = shoal::wgsl!("../wgsl/spread_sort.wgsl");

/// Samples drawn per member of the computation: the largest bucket exceeds its even share by
/// about the share over this many samples' worth of keys.
const OVERSAMPLE: u64 = 64;

/// Sorts the spread buffer whose part is `keys`, on every member at once: returns this member's
/// part of the result (its length may differ from the input's; parts follow in rank order).
pub fn sort_part<K: SpreadKey, C: Transport>(
    comm: &C,
    member: &Member,
    keys: Part<K>,
    order: SortOrder,
) -> Result<Part<K>> {
    let mut meter = Meter::default();
    Ok(sample_sort::<K, u32, C>(comm, member, keys, None, order, &mut meter)?.0)
}

/// [`sort_part`] of keys with a value each, stable: equal keys keep their global order.
pub fn sort_pairs_part<K: SpreadKey, V: Element, C: Transport>(
    comm: &C,
    member: &Member,
    keys: Part<K>,
    values: Part<V>,
    order: SortOrder,
) -> Result<(Part<K>, Part<V>)> {
    let mut meter = Meter::default();
    let (keys, values) = sample_sort(comm, member, keys, Some(values), order, &mut meter)?;
    let values = values.ok_or_else(|| Error::Readback("spread sort: values lost".into()))?;
    Ok((keys, values))
}

/// [`sort_part`], or [`sort_pairs_part`] when `values` are given, with this member's [`Meter`]:
/// its local work, its time in the exchange and the bytes it sent (the MPI benchmark's rows).
pub fn sort_part_measured<K: SpreadKey, V: Element, C: Transport>(
    comm: &C,
    member: &Member,
    keys: Part<K>,
    values: Option<Part<V>>,
    order: SortOrder,
) -> Result<(Part<K>, Option<Part<V>>, Meter)> {
    let mut meter = Meter::default();
    let (keys, values) = sample_sort(comm, member, keys, values, order, &mut meter)?;
    Ok((keys, values, meter))
}

/// A sample in the order (key, rank, position).
type Sample = (u64, u64, u64);

/// The sample sort, metered; `values` travel with the keys when given.
pub(crate) fn sample_sort<K: SpreadKey, V: Element, C: Transport>(
    comm: &C,
    member: &Member,
    keys: Part<K>,
    values: Option<Part<V>>,
    order: SortOrder,
    meter: &mut Meter,
) -> Result<(Part<K>, Option<Part<V>>)> {
    let (rank, ranks) = (comm.rank(), comm.ranks());
    let gpu = member.gpu();
    let n = keys.buffer.len();
    let prepared = meter.local(|| {
        comm.device_turn(|| {
            gpu.check_same(keys.gpu(), "the keys of a spread sort's part")?;
            if let Some(v) = &values {
                gpu.check_same(v.gpu(), "the values of a spread sort's part")?;
                if v.buffer.len() != n {
                    return Err(Error::Length {
                        what: "spread sort: values (one per key of the part)".into(),
                        expected: n,
                        got: v.buffer.len(),
                    });
                }
            }
            let kit = member.family(order as u32, |gpu| SortKit::<K>::new(gpu, order))?;
            local_sort(
                &kit.sorter,
                &keys.buffer,
                values.as_ref().map(|v| &v.buffer),
            )?;
            Ok(kit)
        })
    });
    let kit = step(comm, prepared)?;
    if ranks == 1 {
        return Ok((keys, values));
    }
    let total = agree_on_keys::<K, C>(comm, n, meter)?;
    if total == 0 {
        return Ok((keys, values));
    }

    // Samples, in proportion to the part's length.
    let m = (OVERSAMPLE * ranks as u64 * n).div_ceil(total).min(n);
    let drawn = meter.local(|| comm.device_turn(|| draw(&kit.samples, &keys.buffer, m, rank)));
    let drawn = step(comm, drawn)?;
    let mine: Vec<u64> = drawn
        .iter()
        .zip(positions(n, m))
        .flat_map(|(k, at)| [k.normalized(order), rank as u64, at])
        .collect();
    meter.bytes_sent += (mine.len() * 8 * (ranks - 1)) as u64;
    let gathered = meter.exchange(|| comm.all_gather(words(&mine)));
    let mut samples: Vec<Sample> = gathered
        .iter()
        .flat_map(|b| {
            from_words(b)
                .chunks_exact(3)
                .map(|s| (s[0], s[1], s[2]))
                .collect::<Vec<_>>()
        })
        .collect();
    samples.sort_unstable();
    let splitters: Vec<Sample> = (1..ranks)
        .map(|i| samples[i * samples.len() / ranks])
        .collect();

    // Buckets: found and read back on the device, then exchanged.
    let packed = meter.local(|| {
        comm.device_turn(|| {
            let cuts = find_bounds(&kit.bounds, &keys.buffer, rank, &splitters)?;
            pack(&keys, values.as_ref(), &cuts, rank)
        })
    });
    let (sends, cuts) = step(comm, packed)?;
    meter.bytes_sent += sends.iter().map(|s| s.len() as u64).sum::<u64>();
    let received = meter.exchange(|| comm.all_to_all(sends));

    let merged = meter.local(|| {
        comm.device_turn(|| {
            let kept = cuts[rank]..cuts[rank + 1];
            let (k, v) = unpack(&keys, values.as_ref(), kept, &received, rank)?;
            local_sort(&kit.sorter, &k, v.as_ref())?;
            Ok((k, v))
        })
    });
    let (k, v) = step(comm, merged)?;
    let start = meter.exchange(|| comm.exscan_sum(k.len()));
    Ok((Part::new(k, start), v.map(|v| Part::new(v, start))))
}

/// Every member's part length, summed, once all members sort the same key type (a member whose
/// key type differs is [`Error::InvalidParameter`] on every member).
fn agree_on_keys<K: SpreadKey, C: Transport>(comm: &C, n: u64, meter: &mut Meter) -> Result<u64> {
    let mut mine = words(&[n]);
    mine.extend(K::type_name().as_bytes());
    let all = meter.exchange(|| comm.all_gather(mine));
    // Every member compares every name with rank 0's, so all find the same culprit.
    let names: Vec<String> = all
        .iter()
        .map(|b| String::from_utf8_lossy(&b[8.min(b.len())..]).into_owned())
        .collect();
    if let Some((r, name)) = names.iter().enumerate().find(|(_, n)| **n != names[0]) {
        return Err(Error::InvalidParameter {
            kernel: "spread sort".into(),
            parameter: "key type".into(),
            value: format!("{name} on rank {r}"),
            rule: format!(
                "every member sorts the same key type; rank 0 sorts {}",
                names[0]
            ),
        });
    }
    let total = all
        .iter()
        .map(|b| {
            from_words(&b[..8.min(b.len())])
                .first()
                .copied()
                .unwrap_or(0)
        })
        .sum();
    Ok(total)
}

/// Sorts `keys` (and `values`) on their device and waits.
fn local_sort<K: SpreadKey, V: Element>(
    sorter: &RadixSort<K>,
    keys: &Buffer<K>,
    values: Option<&Buffer<V>>,
) -> Result<()> {
    let mut commands = keys.gpu().commands();
    match values {
        Some(v) => sorter.record(&mut commands, SortPairsArgs { keys, values: v })?,
        None => sorter.record(&mut commands, SortArgs { keys })?,
    }
    commands.submit()?.wait_blocking()
}

/// What a member sorts `K` in one order with, compiled once ([`Member`] keeps it).
struct SortKit<K: SpreadKey> {
    sorter: RadixSort<K>,
    samples: Kernel,
    bounds: Kernel,
}

impl<K: SpreadKey> SortKit<K> {
    fn new(gpu: &shoal::Gpu, order: SortOrder) -> Result<Self> {
        let kernel = |entry| {
            gpu.kernel_builder(SOURCE)
                .entry(entry)
                .constant("KIND", K::ORDER_KIND)
                .constant("WORDS", K::KEY_WORDS)
                .constant("DESC", order == SortOrder::Descending)
                .build()
        };
        let mut sorter = RadixSort::<K>::new(gpu, SortParams::default())?;
        sorter.set_order(order);
        Ok(Self {
            sorter,
            samples: kernel("samples")?,
            bounds: kernel("bounds")?,
        })
    }
}

/// The positions of `m` samples at even steps of `n` keys (each in the middle of its step).
fn positions(n: u64, m: u64) -> impl Iterator<Item = u64> {
    (0..m).map(move |j| (2 * j + 1) * n / (2 * m))
}

/// The keys at [`positions`], gathered on the device and read back.
fn draw<K: SpreadKey>(kernel: &Kernel, keys: &Buffer<K>, m: u64, rank: usize) -> Result<Vec<K>> {
    if m == 0 {
        return Ok(Vec::new());
    }
    let gpu = keys.gpu();
    let at: Vec<UVec4> = positions(keys.len(), m)
        .map(|p| UVec4::new(p as u32, 0, 0, 0))
        .collect();
    let params = gpu.buffer_from(&[keys.len() as u32, rank as u32, m as u32])?;
    let targets = gpu.buffer_from(&at)?;
    let out = gpu.buffer_zeroed::<K>(m)?;
    kernel
        .bind("params", &params)
        .bind("keys", &keys.view_as::<u32>())
        .bind("targets", &targets)
        .bind("out", &out.view_as::<u32>())
        .invocations(m)
        .run()?;
    out.read_blocking()
}

/// Where each bucket of this member's sorted part starts: 0, the splitters' places, the end.
fn find_bounds<K: SpreadKey>(
    kernel: &Kernel,
    keys: &Buffer<K>,
    rank: usize,
    splitters: &[Sample],
) -> Result<Vec<u64>> {
    let n = keys.len();
    let mut cuts = vec![0u64];
    if n == 0 {
        cuts.resize(splitters.len() + 2, 0);
        return Ok(cuts);
    }
    let gpu = keys.gpu();
    let targets: Vec<UVec4> = splitters
        .iter()
        .map(|&(key, r, at)| UVec4::new((key >> 32) as u32, key as u32, r as u32, at as u32))
        .collect();
    let params = gpu.buffer_from(&[n as u32, rank as u32, splitters.len() as u32])?;
    let targets = gpu.buffer_from(&targets)?;
    let out = gpu.buffer_zeroed::<u32>(splitters.len() as u64)?;
    kernel
        .bind("params", &params)
        .bind("keys", &keys.view_as::<u32>())
        .bind("targets", &targets)
        .bind("out", &out)
        .invocations(splitters.len() as u64)
        .run()?;
    cuts.extend(out.read_blocking()?.into_iter().map(u64::from));
    cuts.push(n);
    Ok(cuts)
}

/// The messages to every member (the keys and values of its bucket, after their count; none to
/// this member, whose bucket stays on the device), and the bucket bounds.
fn pack<K: SpreadKey, V: Element>(
    keys: &Part<K>,
    values: Option<&Part<V>>,
    cuts: &[u64],
    rank: usize,
) -> Result<(Vec<Vec<u8>>, Vec<u64>)> {
    if cuts.windows(2).any(|w| w[0] > w[1]) {
        return Err(Error::Readback(format!(
            "spread sort: bucket bounds out of order: {cuts:?}"
        )));
    }
    let mut sends = Vec::with_capacity(cuts.len() - 1);
    for (q, w) in cuts.windows(2).enumerate() {
        let range = w[0]..w[1];
        if q == rank {
            sends.push(Vec::new());
            continue;
        }
        let mut message = words(&[range.end - range.start]);
        if !range.is_empty() {
            let k = pollster::block_on(keys.buffer.read_range(range.clone()))?;
            K::encode(&k, &mut message)?;
            if let Some(v) = values {
                let v = pollster::block_on(v.buffer.read_range(range))?;
                V::encode(&v, &mut message)?;
            }
        }
        sends.push(message);
    }
    Ok((sends, cuts.to_vec()))
}

/// The received buckets in rank order, this member's own copied on the device, in new buffers.
fn unpack<K: SpreadKey, V: Element>(
    keys: &Part<K>,
    values: Option<&Part<V>>,
    kept: std::ops::Range<u64>,
    received: &[Vec<u8>],
    rank: usize,
) -> Result<(Buffer<K>, Option<Buffer<V>>)> {
    let counts: Vec<u64> = received
        .iter()
        .enumerate()
        .map(|(q, m)| match q == rank {
            true => kept.end - kept.start,
            false => from_words(&m[..8.min(m.len())])
                .first()
                .copied()
                .unwrap_or(0),
        })
        .collect();
    let total: u64 = counts.iter().sum();
    let gpu = keys.gpu();
    let out_keys = gpu.buffer_zeroed::<K>(total)?;
    let out_values = match values {
        Some(_) => Some(gpu.buffer_zeroed::<V>(total)?),
        None => None,
    };
    let mut commands = gpu.commands();
    let mut at = 0u64;
    for (q, (message, &count)) in received.iter().zip(&counts).enumerate() {
        let span = at..at + count;
        at += count;
        if count == 0 {
            continue;
        }
        if q == rank {
            commands.copy(
                &keys.buffer.slice(kept.clone())?,
                &out_keys.slice(span.clone())?,
            )?;
            if let (Some(v), Some(out)) = (values, &out_values) {
                commands.copy(&v.buffer.slice(kept.clone())?, &out.slice(span)?)?;
            }
            continue;
        }
        let key_bytes = (count * K::STRIDE) as usize;
        let body = message.get(8..).unwrap_or_default();
        let (k, v) = body.split_at(key_bytes.min(body.len()));
        out_keys.write_at(span.start, &K::decode(k)?)?;
        if let Some(out) = &out_values {
            out.write_at(span.start, &V::decode(v)?)?;
        }
    }
    commands.submit()?;
    Ok((out_keys, out_values))
}
