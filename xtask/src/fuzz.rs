//! `cargo xtask fuzz [--minutes N]`: the property tests of `tests/src/properties/` with fresh
//! random seeds for `N` minutes in all (default 5), shared between Vulkan and GL and between
//! the properties, then how many inputs each tried.

use crate::BACKENDS;
use crate::stage::{Stages, cargo, cargo_output};

/// The crates with properties, and the test filter that selects them in each.
const SUITES: [(&str, &str); 2] = [
    ("shoal-conformance", "properties::"),
    ("shoal-kernels", "properties_tests::"),
];

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
    // The test profile `cargo xtask test` builds (dependencies optimised): nothing new to build.
    let suite = |package| vec!["test", "-p", package, "--lib"];
    let mut build = vec!["test", "--lib", "--no-run"];
    build.extend(SUITES.iter().flat_map(|(p, _)| ["-p", p]));
    if !stages.run("build the properties", || cargo(&build, &[])) {
        return stages.finish();
    }
    let mut properties = 0;
    for (package, filter) in SUITES {
        let mut list = suite(package);
        list.extend(["--", filter, "--list"]);
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
        let env = [
            ("SHOAL_BACKEND", backend),
            ("SHOAL_FUZZ_SECONDS", seconds.as_str()),
        ];
        let mut tried = 0u64;
        for (package, filter) in SUITES {
            let mut args = suite(package);
            args.extend(["--", filter, "--test-threads=1", "--nocapture"]);
            stages.run(
                &format!("{package} properties on {backend}, {seconds} s each"),
                || {
                    let Some(out) = cargo_output(&args, &env) else {
                        return false;
                    };
                    // libtest prints `test name ... ` before the test's own output, on one line.
                    for line in out.lines().filter_map(|l| Some(l.split_once("fuzz: ")?.1)) {
                        let n = line
                            .rsplit(": ")
                            .next()
                            .and_then(|n| n.strip_suffix(" inputs"));
                        tried += n.and_then(|n| n.parse::<u64>().ok()).unwrap_or(0);
                    }
                    true
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
