//! The MPI stage of `cargo xtask test`: `shoal-mpi`'s example `mpi_spread` under `mpirun` with 2
//! and 4 ranks on lavapipe and on llvmpipe (GL), each rank checking its part of every result against the CPU and
//! rank 0 the whole. MPI initialises once per process, so these checks are runs of an example,
//! not tests. OpenMPI (`libopenmpi-dev openmpi-bin`, and `libclang-dev` for rsmpi's bindgen) is
//! installed with the software adapters (`setup.rs`).

use std::path::Path;
use std::process::Command;

use crate::limits;
use crate::stage::{Stages, command};

/// Ranks per run: two, and four (more ranks than the machine's two cores).
const RANKS: [&str; 2] = ["2", "4"];

/// The backends the ranks run on: both software adapters, as every other suite (on GL each
/// `mpirun` costs about as much as on Vulkan, docs/scale.md).
const BACKENDS: [&str; 2] = ["vulkan", "gl"];

/// Runs `mpi_spread` under `mpirun` for each rank count, after building it with the suites'
/// features (a no-op after the examples' build).
pub(crate) fn stages(stages: &mut Stages, target: &Path) {
    let built = stages.run_within("build the MPI example", limits::SHORT, || {
        crate::stage::cargo(&crate::BUILD_EXAMPLES, &[])
    });
    if !built {
        return;
    }
    let example = target.join("debug").join("examples").join("mpi_spread");
    for backend in BACKENDS {
        for ranks in RANKS {
            let name = format!("MPI: mpi_spread on {ranks} ranks ({backend})");
            stages.run_within(&name, limits::MPI, || {
                command(&mut mpirun(&example, ranks, backend))
            });
        }
    }
}

/// `mpirun` for a container: more ranks than cores (`--oversubscribe`), as root when CI is
/// root (`--allow-run-as-root`), and without the shared-memory transport's single-copy
/// mechanism, which containers forbid (`ptrace` permissions).
pub(crate) fn mpirun(example: &Path, ranks: &str, backend: &str) -> Command {
    let mut cmd = Command::new("mpirun");
    cmd.args(["-np", ranks, "--oversubscribe"]);
    if crate::setup::is_root() {
        cmd.arg("--allow-run-as-root");
    }
    cmd.args(["--mca", "btl_vader_single_copy_mechanism", "none"])
        .arg(example)
        .env("SHOAL_BACKEND", backend);
    cmd
}

/// Ranks of the benchmark's rows, beside the `devices` table's 1, 2 and 4 devices.
const BENCH_RANKS: [&str; 3] = ["1", "2", "4"];

/// `cargo xtask bench` when its filter selects `devices`: `shoal-mpi`'s example `mpi_bench`,
/// built with `--release` like the benchmarks, under `mpirun` with 1, 2 and 4 ranks on
/// `backend`. Each run's rank 0 prints its rows in the `devices` table's columns, under the
/// header printed here.
pub(crate) fn bench(stages: &mut Stages, target: &Path, backend: &str, filter: &[String]) {
    if !(filter.is_empty() || filter.iter().any(|f| "devices".contains(f.as_str()))) {
        return;
    }
    let args = [
        "build",
        "--release",
        "-q",
        "-p",
        "shoal-mpi",
        "--example",
        "mpi_bench",
    ];
    if !stages.run("build the MPI benchmark (release)", || {
        crate::stage::cargo(&args, &[])
    }) {
        return;
    }
    let example = target.join("release").join("examples").join("mpi_bench");
    println!("\nspread sort of 2^22 u32 keys across MPI ranks, one {backend} device each\n");
    println!("| ranks | what | wall ms | local ms | exchange ms | bytes sent | / data |");
    println!("|---|---|---|---|---|---|---|");
    for ranks in BENCH_RANKS {
        let name = format!("MPI benchmark: {ranks} ranks ({backend}, release)");
        stages.run_within(&name, limits::MPI, || {
            command(&mut mpirun(&example, ranks, backend))
        });
    }
}
