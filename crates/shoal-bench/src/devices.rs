//! `devices`: the spread sort (`shoal-scale`) over 1, 2 and 4 devices of the adapter
//! `SHOAL_BACKEND` selects (one adapter opened several times), at 2^22 `u32` keys alone and with
//! a `u32` value each: the wall time, each device's local work and its time in the exchange (the
//! slowest device's), and the bytes that leave the devices against the data's size (goal: at
//! most 1.1x). The uploads are not timed; every result is checked against the CPU.

use std::time::{Duration, Instant};

use shoal_kernels::SortOrder;
use shoal_scale::{Group, Meter};

/// Timed runs per row, after one warm-up (which is also the checked one).
const RUNS: usize = 3;

/// Keys per row.
const LOG2: u32 = 22;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Runs the rows and prints their table.
pub(crate) fn run(options: &shoal::GpuOptions) -> Result<(), String> {
    let n = 1usize << LOG2;
    let keys: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) ^ i >> 7)
        .collect();
    let values: Vec<u32> = (0..n as u32).collect();
    let mut want: Vec<(u32, u32)> = keys.iter().copied().zip(values.iter().copied()).collect();
    want.sort_by_key(|p| p.0);
    let text = |e: shoal::Error| e.to_string();
    println!("\nspread sort of 2^{LOG2} u32 keys (median of {RUNS} runs)\n");
    println!("| devices | what | wall ms | local ms | exchange ms | bytes sent | / data |");
    println!("|---|---|---|---|---|---|---|");
    for devices in [1, 2, 4] {
        let group = Group::same_adapter(devices, options.clone()).map_err(text)?;
        for pairs in [false, true] {
            let mut rows: Vec<(Duration, Meter, u64)> = Vec::new();
            for run in 0..=RUNS {
                let k = group.split_even(&keys).map_err(text)?;
                let v = match pairs {
                    true => Some(group.split_even(&values).map_err(text)?),
                    false => None,
                };
                let t = Instant::now();
                let (k, v, meters) = group
                    .sort_measured(k, v, SortOrder::Ascending)
                    .map_err(text)?;
                let wall = t.elapsed();
                if run == 0 {
                    check(
                        &k.read().map_err(text)?,
                        v.map(|v| v.read()).transpose().map_err(text)?,
                        &want,
                    )?;
                    continue;
                }
                let slowest = Meter {
                    local: meters.iter().map(|m| m.local).max().unwrap_or_default(),
                    exchange: meters.iter().map(|m| m.exchange).max().unwrap_or_default(),
                    bytes_sent: 0,
                };
                rows.push((wall, slowest, meters.iter().map(|m| m.bytes_sent).sum()));
            }
            rows.sort_by_key(|r| r.0);
            let (wall, meter, sent) = rows[rows.len() / 2];
            let data = n as u64 * if pairs { 8 } else { 4 };
            println!(
                "| {devices} | {} | {:.0} | {:.0} | {:.0} | {sent} | {:.3} |",
                if pairs { "pairs" } else { "keys" },
                ms(wall),
                ms(meter.local),
                ms(meter.exchange),
                sent as f64 / data as f64
            );
        }
    }
    Ok(())
}

fn check(keys: &[u32], values: Option<Vec<u32>>, want: &[(u32, u32)]) -> Result<(), String> {
    let keys_ok = keys.len() == want.len() && keys.iter().zip(want).all(|(k, w)| *k == w.0);
    let values_ok = values.is_none_or(|v| v.iter().zip(want).all(|(v, w)| *v == w.1));
    match keys_ok && values_ok {
        true => Ok(()),
        false => Err("spread sort: the devices' order differs from the CPU's".into()),
    }
}
