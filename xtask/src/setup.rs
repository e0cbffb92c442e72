//! Making sure the machine has what the commands need: Mesa's software Vulkan (lavapipe) and GL
//! (llvmpipe through EGL), and Rust targets. Installs on Debian as root, otherwise says exactly
//! what to install.
//!
//! No crate does this part: a library is looked for with `ldconfig -p` (or as a file in the
//! multiarch directory) and the ICD or driver file on disk, packages are installed with apt-get,
//! targets with rustup. Whether we are root
//! comes from `id -u`, not from libc's `geteuid`: that would be a dependency and an `unsafe`
//! call for one number.

use std::path::Path;
use std::process::Command;

use crate::stage::command;

/// A system component: how to tell it is there, and the Debian packages that provide it.
struct Component {
    /// What it is, as printed.
    name: &'static str,
    /// Whether it is installed.
    present: fn() -> bool,
    /// The Debian packages that install it.
    packages: &'static [&'static str],
}

/// Whether the dynamic linker knows the library `name` (`ldconfig -p`), or the file is in
/// Debian's multiarch library directory. `ldconfig` is in /sbin, which is on root's PATH but
/// not on a Debian user's: without a fallback a user's check says Mesa is missing when it is not.
fn has_library(name: &str) -> bool {
    let cache = ["ldconfig", "/sbin/ldconfig", "/usr/sbin/ldconfig"]
        .iter()
        .any(|ldconfig| {
            Command::new(ldconfig).arg("-p").output().is_ok_and(|o| {
                o.status.success() && String::from_utf8_lossy(&o.stdout).contains(name)
            })
        });
    cache
        || ["x86_64", "aarch64"]
            .iter()
            .any(|arch| Path::new(&format!("/usr/lib/{arch}-linux-gnu/{name}")).exists())
}

/// Whether any of `paths` exists.
fn any_exists(paths: &[&str]) -> bool {
    paths.iter().any(|p| Path::new(p).exists())
}

/// The software adapters the native runs need, and the GLSL compiler the `glsl` feature links.
const ADAPTERS: &[Component] = &[
    Component {
        name: "Vulkan software adapter (lavapipe)",
        present: || {
            has_library("libvulkan.so.1")
                && any_exists(&[
                    "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
                    "/usr/share/vulkan/icd.d/lvp_icd.aarch64.json",
                ])
        },
        packages: &["mesa-vulkan-drivers", "libvulkan1"],
    },
    Component {
        name: "GL software adapter (llvmpipe through EGL)",
        present: || {
            has_library("libEGL.so.1")
                && any_exists(&[
                    "/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so",
                    "/usr/lib/aarch64-linux-gnu/dri/swrast_dri.so",
                ])
        },
        packages: &["libegl1", "libgl1-mesa-dri"],
    },
    // Not an adapter: the `glsl` feature's compiler. shoal-glsl links Debian's static shaderc,
    // glslang and SPIRV-Tools archives (never shaderc built from source: minutes of C++).
    Component {
        name: "GLSL compiler libraries (shaderc, glslang, SPIRV-Tools)",
        present: || {
            ["x86_64", "aarch64"].iter().any(|arch| {
                [
                    "libshaderc_combined.a",
                    "libglslang.a",
                    "libSPIRV-Tools-opt.a",
                ]
                .iter()
                .all(|lib| Path::new(&format!("/usr/lib/{arch}-linux-gnu/{lib}")).exists())
            })
        },
        packages: &["libshaderc-dev", "glslang-dev", "spirv-tools"],
    },
    // Not an adapter: MPI for shoal-mpi (rsmpi builds on the system's library: its `mpicc`
    // names the flags, and bindgen reads the headers through libclang), and `mpirun`.
    Component {
        name: "MPI (OpenMPI, mpirun, libclang for rsmpi's bindgen)",
        present: || {
            any_exists(&["/usr/bin/mpicc"])
                && any_exists(&["/usr/bin/mpirun"])
                && has_library("libclang")
        },
        packages: &["libopenmpi-dev", "openmpi-bin", "libclang-dev"],
    },
];

/// Whether this process runs as root (`id -u` is 0).
pub(crate) fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// apt-get's options for a machine that may be busy: wait up to five minutes for dpkg's lock
/// (unattended-upgrades may hold it on a machine just booted, and apt-get would otherwise fail
/// at once), and retry a failed download three times.
const APT_OPTIONS: [&str; 4] = ["-o", "DPkg::Lock::Timeout=300", "-o", "Acquire::Retries=3"];

/// Installs Debian `packages` when root with apt-get; otherwise prints the command and fails.
pub(crate) fn apt_install(what: &str, packages: &[&str]) -> bool {
    let line = format!(
        "apt-get update && apt-get install -y {}",
        packages.join(" ")
    );
    if !(is_root() && Path::new("/usr/bin/apt-get").exists()) {
        eprintln!("missing: {what}\n  install it with (as root, on Debian/Ubuntu):\n    {line}");
        return false;
    }
    eprintln!("installing {what}: {line}");
    command(
        Command::new("apt-get")
            .args(APT_OPTIONS)
            .args(["update", "-qq"]),
    ) && command(
        Command::new("apt-get")
            .args(APT_OPTIONS)
            .args(["install", "-y", "-qq", "--no-install-recommends"])
            .args(packages)
            .env("DEBIAN_FRONTEND", "noninteractive"),
    )
}

/// Makes sure both software adapters and the GLSL compiler libraries exist; a run that skips
/// one is a failure.
pub(crate) fn ensure_adapters() -> bool {
    if std::env::consts::OS != "linux" {
        eprintln!("not Linux: using the platform's own adapters");
        return true;
    }
    let mut ok = true;
    for c in ADAPTERS {
        if (c.present)() {
            eprintln!("found: {}", c.name);
            continue;
        }
        ok &= apt_install(c.name, c.packages) && {
            let now = (c.present)();
            if !now {
                eprintln!(
                    "{} still missing after installing {}",
                    c.name,
                    c.packages.join(" ")
                );
            }
            now
        };
    }
    ok
}

/// Adds a Rust target with rustup when it is missing.
pub(crate) fn ensure_rust_target(target: &str) -> bool {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .any(|l| l.trim() == target)
        })
        .unwrap_or(false);
    installed || command(Command::new("rustup").args(["target", "add", target]))
}
