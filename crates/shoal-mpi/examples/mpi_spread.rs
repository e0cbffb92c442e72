//! The spread primitives across MPI ranks, one device each, checked against the CPU: each rank
//! checks its part of every result, rank 0 the whole. Every key type and order, keys and pairs
//! (stable), even and uneven splits with an empty part, 2^22 `u32` keys and pairs; reduce,
//! scan, histogram; and two faults every rank must agree on. Run it under `mpirun`, e.g.
//! `mpirun -np 4 --oversubscribe target/debug/examples/mpi_spread` (`cargo xtask test` does,
//! with 2 and 4 ranks).

use std::process::ExitCode;

use shoal::Element;
use shoal_kernels::{I64, Op, SortOrder, U64, histogram_cpu, reduce_cpu, scan_cpu};
use shoal_mpi::Mpi;
use shoal_scale::{Member, Part, ScanKind, SpreadKey, Transport};

fn main() -> ExitCode {
    let Some(universe) = mpi::initialize() else {
        eprintln!("mpi_spread: MPI was initialised already");
        return ExitCode::FAILURE;
    };
    let comm = Mpi::new(universe.world());
    match run(&comm) {
        Ok(()) => {
            if comm.rank() == 0 {
                println!("mpi_spread: {} ranks agree with the CPU", comm.ranks());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("mpi_spread: rank {}: {e}", comm.rank());
            ExitCode::FAILURE
        }
    }
}

type Checked = Result<(), String>;

/// `n` scattered words (Fibonacci hashing of the index, `seed` choosing the sequence).
fn words(n: usize, seed: u64) -> Vec<u32> {
    (0..n as u64)
        .map(|i| ((i + (seed << 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as u32)
        .collect()
}

/// Part lengths: even, or with rank 1 empty and rank 0 holding its share.
fn lens(n: u64, ranks: usize, gap: bool) -> Vec<u64> {
    let mut lens = shoal_scale::even(n, ranks);
    if gap && ranks > 1 {
        lens[0] += lens[1];
        lens[1] = 0;
    }
    lens
}

/// This rank's part of `whole` split by `lens`, on its device.
fn part<T: Element + Clone>(
    member: &Member,
    comm: &Mpi,
    whole: &[T],
    lens: &[u64],
) -> Result<Part<T>, String> {
    let start: u64 = lens[..comm.rank()].iter().sum();
    let mine = &whole[start as usize..(start + lens[comm.rank()]) as usize];
    let buffer = member.gpu().buffer_from(mine).map_err(|e| e.to_string())?;
    Ok(Part::new(buffer, start))
}

/// Checks this rank's part of a result against `want` over its range, and on rank 0 the whole
/// (every rank's part, gathered in rank order).
fn check<T: Element + PartialEq + std::fmt::Debug>(
    comm: &Mpi,
    got: &Part<T>,
    want: &[T],
    what: &str,
) -> Checked {
    let mine = got.read().map_err(|e| e.to_string())?;
    let range = got.range();
    if want.get(range.start as usize..range.end as usize) != Some(&mine[..]) {
        return Err(format!(
            "{what}: this rank's part {range:?} differs from the CPU's"
        ));
    }
    let mut bytes = Vec::new();
    T::encode(&mine, &mut bytes).map_err(|e| e.to_string())?;
    let parts = comm.all_gather(bytes);
    if comm.rank() == 0 {
        let mut whole = Vec::new();
        for p in parts {
            whole.extend(T::decode(&p).map_err(|e| e.to_string())?);
        }
        if whole != want {
            return Err(format!("{what}: the whole differs from the CPU's"));
        }
    }
    Ok(())
}

/// Sorts the keys `key` makes of `words`, alone and as pairs with their global indices, against
/// a stable CPU sort.
fn sort<K: SpreadKey + PartialEq>(
    comm: &Mpi,
    member: &Member,
    words: &[u32],
    key: fn(u32) -> K,
    (order, gap): (SortOrder, bool),
) -> Checked {
    let keys: Vec<K> = words.iter().map(|&w| key(w)).collect();
    let keys = &keys[..];
    let what = format!(
        "{} {order:?}, {} keys, gap {gap}",
        K::type_name(),
        keys.len()
    );
    let mut want: Vec<(K, u32)> = keys.iter().copied().zip(0..).collect();
    want.sort_by(|a, b| match order {
        SortOrder::Ascending => a.0.sort_cmp(&b.0),
        SortOrder::Descending => b.0.sort_cmp(&a.0),
    });
    let (want_keys, want_values): (Vec<K>, Vec<u32>) = want.into_iter().unzip();
    let lens = lens(keys.len() as u64, comm.ranks(), gap);
    let sorted = shoal_scale::sort_part(comm, member, part(member, comm, keys, &lens)?, order);
    check(comm, &sorted.map_err(|e| e.to_string())?, &want_keys, &what)?;
    let indices: Vec<u32> = (0..keys.len() as u32).collect();
    let (k, v) = (
        part(member, comm, keys, &lens)?,
        part(member, comm, &indices, &lens)?,
    );
    let (k, v) =
        shoal_scale::sort_pairs_part(comm, member, k, v, order).map_err(|e| e.to_string())?;
    check(comm, &k, &want_keys, &format!("pairs' keys: {what}"))?;
    check(
        comm,
        &v,
        &want_values,
        &format!("pairs' values (stable): {what}"),
    )
}

fn run(comm: &Mpi) -> Checked {
    let member = Member::new(comm.gpu().map_err(|e| e.to_string())?);
    for order in [SortOrder::Ascending, SortOrder::Descending] {
        for (n, gap) in [(0usize, false), (1, false), (1000, true), (3001, false)] {
            let (w, at) = (words(n, n as u64 + 1), (order, gap));
            sort(comm, &member, &w, |x| x, at)?;
            sort(comm, &member, &w, |x| x as i32, at)?;
            sort(comm, &member, &w, |x| (x as i32 >> 8) as f32 / 8.0, at)?;
            sort(
                comm,
                &member,
                &w,
                |x| U64(u64::from(x % 7) << 32 | u64::from(x)),
                at,
            )?;
            sort(comm, &member, &w, |x| I64(i64::from(x as i32) << 20), at)?;
        }
    }
    let ascending = SortOrder::Ascending;
    sort(
        comm,
        &member,
        &words(65_536, 3),
        |w| w % 5,
        (ascending, true),
    )?;
    sort(comm, &member, &words(1 << 22, 4), |w| w, (ascending, false))?;
    primitives(comm, &member)?;
    faults(comm, &member)
}

fn primitives(comm: &Mpi, member: &Member) -> Checked {
    let text = |e: shoal::Error| e.to_string();
    for (n, gap) in [(0usize, false), (1, true), (10_007, true)] {
        let lens = lens(n as u64, comm.ranks(), gap);
        let data: Vec<i32> = words(n, 9).iter().map(|&w| w as i32 >> 8).collect();
        let mine = part(member, comm, &data, &lens)?;
        for op in [Op::Sum, Op::Min, Op::Max] {
            let got = shoal_scale::reduce_part(comm, member, &mine, op).map_err(text)?;
            if got != reduce_cpu(&data, op) {
                return Err(format!("reduce {op:?} of {n}: {got}"));
            }
        }
        let small: Vec<u32> = data.iter().map(|&d| d as u32 % 1000).collect();
        let mine = part(member, comm, &small, &lens)?;
        for (kind, inclusive) in [(ScanKind::Inclusive, true), (ScanKind::Exclusive, false)] {
            let got = shoal_scale::scan_part(comm, member, &mine, Op::Sum, kind).map_err(text)?;
            check(
                comm,
                &got,
                &scan_cpu(&small, Op::Sum, inclusive),
                &format!("scan {kind:?} of {n}"),
            )?;
        }
        let counts = shoal_scale::histogram_part(comm, member, &mine, 256).map_err(text)?;
        if counts != histogram_cpu(&small, 256) {
            return Err(format!("histogram of {n}"));
        }
    }
    Ok(())
}

/// Faults on one rank become every rank's error: the same on all, and no rank hangs.
fn faults(comm: &Mpi, member: &Member) -> Checked {
    let last = comm.ranks() - 1;
    let keys = words(100, 5);
    let lens = lens(100, comm.ranks(), false);
    // The last rank's values are one short.
    let mut values = part(member, comm, &keys, &lens)?;
    if comm.rank() == last {
        let short = member
            .gpu()
            .buffer_from(&keys[..lens[last] as usize - 1])
            .map_err(|e| e.to_string())?;
        values = Part::new(short, values.start);
    }
    let k = part(member, comm, &keys, &lens)?;
    let first = shoal_scale::sort_pairs_part(comm, member, k, values, SortOrder::Ascending).err();
    agreed(comm, first, "spread sort: values (one per key of the part)")?;
    // The last rank sorts another key type.
    let got = match comm.rank() == last {
        true => {
            let wrong: Vec<i32> = keys.iter().map(|&k| k as i32).collect();
            shoal_scale::sort_part(
                comm,
                member,
                part(member, comm, &wrong, &lens)?,
                SortOrder::Ascending,
            )
            .err()
        }
        false => shoal_scale::sort_part(
            comm,
            member,
            part(member, comm, &keys, &lens)?,
            SortOrder::Ascending,
        )
        .err(),
    };
    agreed(comm, got, "key type")
}

/// Every rank holds an error saying `words`, the same error.
fn agreed(comm: &Mpi, error: Option<shoal::Error>, words: &str) -> Checked {
    let text = error.map(|e| e.to_string()).unwrap_or_default();
    if !text.contains(words) {
        return Err(format!("expected an error saying `{words}`, got `{text}`"));
    }
    let all = comm.all_gather(text.clone().into_bytes());
    match all.iter().all(|t| t == text.as_bytes()) {
        true => Ok(()),
        false => Err(format!("the ranks' errors differ: {all:?}")),
    }
}
