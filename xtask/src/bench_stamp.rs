//! What `cargo xtask bench` stamps its published tables with (`docs/bench/<backend>-<adapter>.*`):
//! the commit measured, the machine's CPU and the day. The bench binary takes them from the
//! environment, the bench page from its address; the adapter it reads itself.

use std::path::Path;

/// The commit, CPU and date of one run.
pub(crate) struct Stamp {
    /// The commit measured ([`commit`]), or `unknown`.
    pub(crate) commit: String,
    /// The CPU's model name and hardware threads ([`cpu`]).
    pub(crate) cpu: String,
    /// Today, UTC, `YYYY-MM-DD`.
    pub(crate) date: String,
}

impl Stamp {
    /// The stamp of a run of the workspace at `root`, now.
    pub(crate) fn new(root: &Path) -> Self {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let threads = std::thread::available_parallelism().map_or(0, usize::from);
        let days = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() / 86_400);
        Self {
            commit: commit(root),
            cpu: cpu(&cpuinfo, threads),
            date: date(days as i64),
        }
    }

    /// The environment the bench binary reads its stamp from.
    pub(crate) fn env(&self) -> [(&'static str, &str); 3] {
        [
            ("SHOAL_BENCH_COMMIT", &self.commit),
            ("SHOAL_BENCH_CPU", &self.cpu),
            ("SHOAL_BENCH_DATE", &self.date),
        ]
    }
}

/// The commit a benchmark's files name: `git describe --always` of the workspace, with `-dirty`
/// where a tracked file differs from it. The tables themselves (`docs/bench/`) do not count: a
/// table an earlier run left is what this run replaces, not a change to what it measures.
pub(crate) fn commit(root: &Path) -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(root)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let Some(commit) = git(&["describe", "--always"]) else {
        return "unknown".into();
    };
    let changed = git(&[
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        ".",
        ":(exclude)docs/bench",
    ]);
    match changed {
        Some(changed) if changed.is_empty() => commit,
        _ => format!("{commit}-dirty"),
    }
}

/// The CPU as `/proc/cpuinfo`'s text names it: the first `model name` (ARM kernels may give
/// only `Hardware` or `CPU part`; then `unknown CPU`) and `threads`, the hardware threads this
/// process may use.
fn cpu(cpuinfo: &str, threads: usize) -> String {
    let field = |key: &str| {
        cpuinfo.lines().find_map(|line| {
            let (k, v) = line.split_once(':')?;
            (k.trim() == key && !v.trim().is_empty()).then(|| v.trim().to_string())
        })
    };
    let model = field("model name")
        .or_else(|| field("Hardware"))
        .unwrap_or_else(|| "unknown CPU".into());
    // Runs of spaces in some model names ("Intel(R) Core(TM)  i7") read as one.
    let model = model.split_whitespace().collect::<Vec<_>>().join(" ");
    match threads {
        0 => model,
        1 => format!("{model}, 1 thread"),
        n => format!("{model}, {n} threads"),
    }
}

/// The civil date (proleptic Gregorian, `YYYY-MM-DD`) `days` days after 1970-01-01: Howard
/// Hinnant's `civil_from_days`, a dozen lines instead of a calendar crate.
fn date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::{cpu, date};

    #[test]
    fn dates_are_civil() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(59), "1970-03-01");
        assert_eq!(date(11_016), "2000-02-29");
        assert_eq!(date(11_017), "2000-03-01");
        assert_eq!(date(20_421), "2025-11-29");
        assert_eq!(date(20_786), "2026-11-29");
        assert_eq!(date(-1), "1969-12-31");
    }

    #[test]
    fn the_cpu_is_its_model_and_threads() {
        let x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC  7B13 64-Core Processor\n\
                   processor\t: 1\nmodel name\t: AMD EPYC 7B13 64-Core Processor\n";
        assert_eq!(cpu(x86, 2), "AMD EPYC 7B13 64-Core Processor, 2 threads");
        assert_eq!(cpu("Hardware\t: BCM2835\n", 1), "BCM2835, 1 thread");
        assert_eq!(cpu("", 0), "unknown CPU");
    }
}
