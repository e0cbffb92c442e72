//! `cargo xtask fuzz [--minutes N]`: the property tests of `tests/src/properties/` with fresh
//! random seeds for `N` minutes in all (default 5), shared between Vulkan and GL and between
//! the properties, then how many inputs each tried.
//!
//! `cargo xtask test` runs them too ([`commit_stage`]), once more after the suites, with a seed
//! taken from the commit: each commit tries other inputs, so a property that no longer matches
//! the code fails in CI and not first under `fuzz`, and the printed seed replays a failure.

use std::path::Path;

use crate::BACKENDS;
use crate::stage::{Stages, cargo, cargo_output};

/// The crates with properties, and the test filter that selects them in each.
const SUITES: [(&str, &str); 2] = [
    ("shoal-conformance", "properties::"),
    ("shoal-kernels", "properties_tests::"),
];

/// `cargo test` of every crate's unit tests as `cargo xtask test` builds them (the workspace,
/// with GLSL), so that nothing is built again; the filter after it picks the properties.
const LIB_TESTS: [&str; 5] = ["test", "--workspace", "--features", crate::GLSL, "--lib"];

/// Runs the command; true when every property held.
pub(crate) fn run(args: &[String]) -> bool {
    let minutes = match args {
        [] => 5.0,
        [flag, n] if flag == "--minutes" => match n.parse::<f64>() {
            Ok(n) if n > 0.0 => n,
            _ => {
                eprintln!("--minutes takes a positive number of minutes");
                return false;
            }
        },
        _ => {
            eprintln!("usage: cargo xtask fuzz [--minutes N]");
            return false;
        }
    };
    let mut stages = Stages::new("cargo xtask fuzz");
    if !stages.run(crate::ADAPTERS_STAGE, crate::setup::ensure_adapters) {
        return stages.finish();
    }
    // The build `cargo xtask test` makes (dependencies optimised): nothing new to build.
    let build = [&LIB_TESTS[..], &["--no-run"]].concat();
    if !stages.run("build the properties", || cargo(&build, &[])) {
        return stages.finish();
    }
    let mut properties = 0;
    for (_, filter) in SUITES {
        let list = [&LIB_TESTS[..], &["--", filter, "--list"]].concat();
        properties += cargo_output(&list, &[])
            .map(|out| out.lines().filter(|l| l.ends_with(": test")).count())
            .unwrap_or(0);
    }
    if properties == 0 {
        eprintln!("no property tests found");
        return false;
    }
    let seconds = minutes * 60.0 / (BACKENDS.len() * properties) as f64;
    let seconds = format!("{seconds:.1}");
    let mut total = 0u64;
    for backend in BACKENDS {
        let env = [("SHOAL_FUZZ_SECONDS", seconds.as_str())];
        let mut tried = 0u64;
        for (package, filter) in SUITES {
            stages.run(
                &format!("{package} properties on {backend}, {seconds} s each"),
                || match properties_of(filter, backend, &env) {
                    Some(n) => {
                        tried += n;
                        true
                    }
                    None => false,
                },
            );
        }
        eprintln!("{backend}: {tried} inputs tried");
        total += tried;
    }
    let ok = stages.finish();
    eprintln!(
        "fuzz: {total} inputs tried in {minutes} minutes ({properties} properties, {} backends)",
        BACKENDS.len()
    );
    ok
}

/// The properties `filter` selects on `backend`, one at a time, with `env` added: the inputs
/// they tried (as each prints under `SHOAL_FUZZ_SECONDS`), or `None` when one failed.
fn properties_of(filter: &str, backend: &str, env: &[(&str, &str)]) -> Option<u64> {
    let args = [
        &LIB_TESTS[..],
        &["--", filter, "--test-threads=1", "--nocapture"],
    ]
    .concat();
    let mut env = env.to_vec();
    env.push(("SHOAL_BACKEND", backend));
    let out = cargo_output(&args, &env)?;
    // libtest prints `test name ... ` before the test's own output, on one line.
    let tried = out
        .lines()
        .filter_map(|l| Some(l.split_once("fuzz: ")?.1))
        .filter_map(|line| line.rsplit(": ").next()?.strip_suffix(" inputs"))
        .filter_map(|n| n.parse::<u64>().ok())
        .sum();
    Some(tried)
}

/// The seed of `cargo xtask test`'s second run of the properties: the first 16 hex digits of
/// the commit checked out (`HEAD`), or `None` outside a git checkout.
pub(crate) fn commit_seed(root: &Path) -> Option<(String, u64)> {
    let out = std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let commit = String::from_utf8_lossy(&out.stdout).trim().to_string();
    seed_of(&commit).map(|seed| (commit, seed))
}

/// A commit hash's first 16 hex digits as a number.
fn seed_of(commit: &str) -> Option<u64> {
    u64::from_str_radix(commit.get(..16)?, 16).ok()
}

/// The stage of `cargo xtask test` that runs every property on `backend` once more, with the
/// commit's seed ([`commit_seed`]) instead of the fixed one: printed, with the command that
/// replays it. Outside a git checkout there is no such seed and the stage is skipped.
pub(crate) fn commit_stage(stages: &mut Stages, root: &Path, backend: &str) {
    let Some((commit, seed)) = commit_seed(root) else {
        eprintln!("\nnot a git checkout: the properties ran with their fixed seed only");
        return;
    };
    let seed = seed.to_string();
    let name = format!(
        "properties on {backend}, SHOAL_FUZZ_SEED={seed} (commit {:.10})",
        commit
    );
    stages.run_within(&name, crate::limits::SHORT, || {
        let mut ok = true;
        for (package, filter) in SUITES {
            if properties_of(filter, backend, &[("SHOAL_FUZZ_SEED", &seed)]).is_none() {
                eprintln!(
                    "{package}: a property failed; replay: SHOAL_BACKEND={backend} \
                     SHOAL_FUZZ_SEED={seed} cargo {} -- {filter}",
                    LIB_TESTS.join(" ")
                );
                ok = false;
            }
        }
        ok
    });
}

#[cfg(test)]
mod tests {
    use super::seed_of;

    #[test]
    fn a_commit_gives_its_seed() {
        assert_eq!(
            seed_of("8fd4cea0123456789abcdef0123456789abcdef0"),
            Some(0x8fd4_cea0_1234_5678)
        );
        assert_eq!(seed_of("8fd4cea"), None);
        assert_eq!(seed_of("not hex at all, sixteen+"), None);
    }
}
