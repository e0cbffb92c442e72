//! The `devices` benchmark's spread sort across MPI ranks, one device each: 2^22 `u32` keys
//! alone and with a `u32` value each, split evenly over the ranks. Rank 0 prints one table row
//! per case in the `devices` table's columns — the slowest rank's wall, local and exchange
//! time, the bytes all ranks sent (and the most one rank sent) against the data's size — and
//! `cargo xtask bench -- devices` runs it under `mpirun -np 1`, `2` and `4` beside that table.
//! The first run of each case is checked against the CPU (every rank its part), the median of
//! the rest is reported.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use shoal_kernels::SortOrder;
use shoal_mpi::Mpi;
use shoal_scale::{Member, Meter, Part, Transport};

/// Timed runs per row, after one warm-up (which is also the checked one).
const RUNS: usize = 3;

/// Keys per row, as in the `devices` benchmark.
const LOG2: u32 = 22;

fn main() -> ExitCode {
    let Some(universe) = mpi::initialize() else {
        eprintln!("mpi_bench: MPI was initialised already");
        return ExitCode::FAILURE;
    };
    let comm = Mpi::new(universe.world());
    match run(&comm) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mpi_bench: rank {}: {e}", comm.rank());
            ExitCode::FAILURE
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// One rank's run: wall, local and exchange nanoseconds and bytes sent, as words to gather.
fn words(wall: Duration, m: &Meter) -> Vec<u8> {
    [
        wall.as_nanos() as u64,
        m.local.as_nanos() as u64,
        m.exchange.as_nanos() as u64,
        m.bytes_sent,
    ]
    .iter()
    .flat_map(|w| w.to_le_bytes())
    .collect()
}

/// Every rank's words, column by column.
fn columns(all: &[Vec<u8>]) -> [Vec<u64>; 4] {
    let word = |bytes: &[u8], i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[i * 8..i * 8 + 8]);
        u64::from_le_bytes(w)
    };
    std::array::from_fn(|i| all.iter().map(|b| word(b, i)).collect())
}

fn run(comm: &Mpi) -> Result<(), String> {
    let text = |e: shoal::Error| e.to_string();
    let member = Member::new(comm.gpu().map_err(text)?);
    let n = 1usize << LOG2;
    let keys: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) ^ i >> 7)
        .collect();
    let values: Vec<u32> = (0..n as u32).collect();
    let mut want: Vec<(u32, u32)> = keys.iter().copied().zip(values.iter().copied()).collect();
    want.sort_by_key(|p| p.0);
    let lens = shoal_scale::even(n as u64, comm.ranks());
    let start = lens[..comm.rank()].iter().sum::<u64>() as usize;
    let mine = start..start + lens[comm.rank()] as usize;
    let ranks = comm.ranks();
    for pairs in [false, true] {
        let mut rows = Vec::new();
        for run in 0..=RUNS {
            let gpu = member.gpu();
            let k = Part::new(
                gpu.buffer_from(&keys[mine.clone()]).map_err(text)?,
                start as u64,
            );
            let v = match pairs {
                true => Some(Part::new(
                    gpu.buffer_from(&values[mine.clone()]).map_err(text)?,
                    start as u64,
                )),
                false => None,
            };
            // Every rank starts together: the wall time is the sort's, not a late rank's upload.
            comm.all_gather(Vec::new());
            let t = Instant::now();
            let (k, v, meter) =
                shoal_scale::sort_part_measured(comm, &member, k, v, SortOrder::Ascending)
                    .map_err(text)?;
            let wall = t.elapsed();
            if run == 0 {
                check(&k, v.as_ref(), &want)?;
                continue;
            }
            rows.push(columns(&comm.all_gather(words(wall, &meter))));
        }
        if comm.rank() == 0 {
            print_row(ranks, pairs, n, rows);
        }
    }
    Ok(())
}

/// The median run's row (by the slowest rank's wall time).
fn print_row(ranks: usize, pairs: bool, n: usize, rows: Vec<[Vec<u64>; 4]>) {
    let max = |c: &Vec<u64>| c.iter().copied().max().unwrap_or_default();
    let mut rows: Vec<[u64; 5]> = rows
        .iter()
        .map(|[wall, local, exchange, sent]| {
            [
                max(wall),
                max(local),
                max(exchange),
                sent.iter().sum(),
                max(sent),
            ]
        })
        .collect();
    rows.sort_by_key(|r| r[0]);
    let [wall, local, exchange, sent, most] = rows[rows.len() / 2];
    let data = n as u64 * if pairs { 8 } else { 4 };
    let ns = Duration::from_nanos;
    println!(
        "| {ranks} MPI rank{} | {} | {:.0} | {:.0} | {:.0} | {sent} (≤ {most} per rank) | {:.3} |",
        if ranks == 1 { "" } else { "s" },
        if pairs { "pairs" } else { "keys" },
        ms(ns(wall)),
        ms(ns(local)),
        ms(ns(exchange)),
        sent as f64 / data as f64
    );
}

/// This rank's part of the sorted keys (and values, stable) against the CPU's over its range.
fn check(keys: &Part<u32>, values: Option<&Part<u32>>, want: &[(u32, u32)]) -> Result<(), String> {
    let range = keys.range();
    let want = want
        .get(range.start as usize..range.end as usize)
        .ok_or("a part past the end")?;
    let got = keys.read().map_err(|e| e.to_string())?;
    let keys_ok = got.len() == want.len() && got.iter().zip(want).all(|(k, w)| *k == w.0);
    let values_ok = match values {
        Some(v) => v
            .read()
            .map_err(|e| e.to_string())?
            .iter()
            .zip(want)
            .all(|(v, w)| *v == w.1),
        None => true,
    };
    match keys_ok && values_ok {
        true => Ok(()),
        false => Err(format!(
            "spread sort: this rank's part {range:?} differs from the CPU's"
        )),
    }
}
