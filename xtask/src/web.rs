//! The browser half of `cargo xtask test` (and the tools of `cargo xtask web`): headless
//! Chromium with WebGPU (SwiftShader), its WebDriver, the wasm32 target and wasm-bindgen-cli at
//! the version in Cargo.lock — installed when missing — and the runner that wasm-bindgen-test's
//! suites run through.
//!
//! Cargo runs each wasm32 test binary through the target's runner (set with `--config`), which
//! is this xtask binary's `wasm-runner` command: it writes a `webdriver.json` with the
//! Chromium flags and a fresh user-data directory for that one browser, then hands over to
//! `wasm-bindgen-test-runner`.
//!
//! Written here rather than taken from a crate, and why:
//! - The wasm-bindgen version is read from Cargo.lock's text, the `version` line after
//!   `name = "wasm-bindgen"` (a layout every lock version has kept). A TOML parser (toml,
//!   cargo-lock) would add a parser and serde's derive to xtask's build for one field, and
//!   `cargo metadata` would resolve the whole workspace on every run to say the same.
//! - A browser's directory is named by pid and time ([`fresh_dir`]), not made by tempfile: its
//!   directories delete themselves on drop, and the page test keeps its directory (chromedriver's
//!   log, the profile) when a check fails.
//! - Cargo's bin directory is under `CARGO_INSTALL_ROOT`, `CARGO_HOME` or `~/.cargo`, in that
//!   order as cargo documents it (less the `install.root` setting), in three lines; the `home`
//!   crate would answer only the last two.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use serde_json::json;

use crate::setup::{apt_install, ensure_rust_target};
use crate::stage::command;

/// The Rust target of the browser build.
pub(crate) const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// Chromium's switches for WebGPU on SwiftShader without a display, a sandbox or the network.
const CHROMIUM_FLAGS: &[&str] = &[
    // WebGPU is off on Linux and on software adapters unless asked for.
    "--enable-unsafe-webgpu",
    "--enable-unsafe-swiftshader",
    "--headless=new",
    // CI runs as root in a container: Chromium's sandboxes need namespaces it does not have.
    "--no-sandbox",
    "--disable-gpu-sandbox",
    // Nothing but the test page: no update, sync or field-trial traffic, no first-run UI.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
];

/// Seconds one test binary may take in the browser; wasm-bindgen-test-runner's default (20)
/// is too short for the kernel suites on SwiftShader: `shoal-kernels`' binary takes about 5 min
/// in a whole `cargo xtask test` on two cores, and this is about four times that (the stage as a
/// whole has its limit too, `limits::BROWSER_TESTS`). `WASM_BINDGEN_TEST_TIMEOUT` overrides it.
const TEST_TIMEOUT_SECS: &str = "1200";

/// Where the browser is on Debian: the browser itself before its launcher script, which only
/// adds flags from `/etc/chromium.d` that a test run should not get.
const CHROMIUM_PATHS: &[&str] = &["/usr/lib/chromium/chromium", "/usr/bin/chromium"];
/// Where Chromium's WebDriver is on Debian.
const CHROMEDRIVER_PATHS: &[&str] = &["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"];

/// What the browser stages need, found or installed.
pub(crate) struct BrowserTools {
    /// Chromium's WebDriver.
    pub(crate) chromedriver: PathBuf,
    /// The browser binary.
    pub(crate) chromium: PathBuf,
    /// The wasm32 build's tools.
    pub(crate) wasm: WasmTools,
}

/// What building for the browser needs: the wasm32 target (checked) and wasm-bindgen-cli.
pub(crate) struct WasmTools {
    /// `wasm-bindgen-test-runner`, what the browser suites run through.
    test_runner: PathBuf,
    /// `wasm-bindgen`, installed beside the test runner by wasm-bindgen-cli.
    pub(crate) wasm_bindgen: PathBuf,
}

/// Chromium's flags for one browser with its profile in `profile` (a fresh directory).
pub(crate) fn chromium_flags(profile: &Path) -> Vec<String> {
    let mut flags: Vec<String> = CHROMIUM_FLAGS.iter().map(|f| f.to_string()).collect();
    flags.push(format!("--user-data-dir={}", profile.display()));
    flags
}

/// The first of `paths` that is a file.
fn first_existing(paths: &[&str]) -> Option<PathBuf> {
    paths.iter().map(PathBuf::from).find(|p| p.is_file())
}

/// Headless Chromium and chromium-driver (Debian packages `chromium chromium-driver`).
fn ensure_chromium() -> Option<(PathBuf, PathBuf)> {
    let found = || {
        Some((
            first_existing(CHROMIUM_PATHS)?,
            first_existing(CHROMEDRIVER_PATHS)?,
        ))
    };
    if let Some((chromium, driver)) = found() {
        eprintln!(
            "found: Chromium ({}) and its WebDriver ({})",
            chromium.display(),
            driver.display()
        );
        return Some((chromium, driver));
    }
    if !apt_install(
        "headless Chromium with WebGPU and its WebDriver",
        &["chromium", "chromium-driver"],
    ) {
        return None;
    }
    let now = found();
    if now.is_none() {
        eprintln!(
            "chromium or chromedriver still missing after installing chromium chromium-driver"
        );
    }
    now
}

/// The `wasm-bindgen` version Cargo.lock holds: the CLI must be exactly that version.
fn locked_wasm_bindgen_version(root: &Path) -> Result<String, String> {
    let lock = root.join("Cargo.lock");
    let text = std::fs::read_to_string(&lock)
        .map_err(|e| format!("cannot read {}: {e}", lock.display()))?;
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"wasm-bindgen\""
            && let Some(version) = lines
                .next()
                .and_then(|l| l.trim().strip_prefix("version = \""))
        {
            return Ok(version.trim_end_matches('"').to_string());
        }
    }
    Err(format!(
        "{} has no wasm-bindgen package: nothing to run the browser tests with",
        lock.display()
    ))
}

/// The version a wasm-bindgen tool reports (`wasm-bindgen-test-runner 0.2.130`), if it runs.
fn tool_version(tool: &Path) -> Option<String> {
    let out = Command::new(tool).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    out.status
        .success()
        .then(|| text.split_whitespace().nth(1).map(str::to_string))
        .flatten()
}

/// Where `cargo install` puts binaries.
fn cargo_bin_dir() -> Option<PathBuf> {
    let root = std::env::var_os("CARGO_INSTALL_ROOT")
        .or_else(|| std::env::var_os("CARGO_HOME"))
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")))?;
    Some(root.join("bin"))
}

/// Every `wasm-bindgen-test-runner` on PATH and in cargo's bin directory, in that order.
fn runner_candidates() -> Vec<PathBuf> {
    let name = format!("wasm-bindgen-test-runner{}", std::env::consts::EXE_SUFFIX);
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.extend(cargo_bin_dir());
    dirs.into_iter()
        .map(|d| d.join(&name))
        .filter(|p| p.is_file())
        .collect()
}

/// wasm-bindgen-cli at exactly `version`, installed with cargo when missing or at another
/// version. Returns the test runner's path.
fn ensure_wasm_bindgen_cli(version: &str) -> Option<PathBuf> {
    let matching = || {
        runner_candidates()
            .into_iter()
            .find(|r| tool_version(r).as_deref() == Some(version))
    };
    if let Some(runner) = matching() {
        eprintln!(
            "found: wasm-bindgen-test-runner {version} ({})",
            runner.display()
        );
        return Some(runner);
    }
    match runner_candidates()
        .first()
        .and_then(|r| tool_version(r).map(|v| (r.clone(), v)))
    {
        Some((r, v)) => eprintln!(
            "{} is version {v}; Cargo.lock has wasm-bindgen {version}",
            r.display()
        ),
        None => eprintln!("missing: wasm-bindgen-test-runner (wasm-bindgen-cli {version})"),
    }
    // Not `--locked`: one of wasm-bindgen-cli's locked dependencies is missing from the registry.
    // So its dependencies resolve afresh: `fallback` makes cargo prefer the releases this rustc
    // can build, so a dependency's new release that needs a newer rustc cannot break the install.
    eprintln!(
        "installing: CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback cargo install \
         wasm-bindgen-cli --version {version} (a few minutes, once)"
    );
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    if !command(
        Command::new(cargo)
            .args(["install", "wasm-bindgen-cli", "--version", version])
            .env("CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS", "fallback"),
    ) {
        return None;
    }
    let now = matching();
    if now.is_none() {
        eprintln!(
            "wasm-bindgen-test-runner {version} still not found on PATH or in {:?}",
            cargo_bin_dir()
        );
    }
    now
}

impl WasmTools {
    /// Finds or installs the wasm32 target and wasm-bindgen-cli at the lock's version.
    pub(crate) fn ensure(root: &Path) -> Option<Self> {
        let target = ensure_rust_target(WASM_TARGET);
        let version = match locked_wasm_bindgen_version(root) {
            Ok(version) => version,
            Err(e) => {
                eprintln!("{e}");
                return None;
            }
        };
        let test_runner = ensure_wasm_bindgen_cli(&version)?;
        let wasm_bindgen =
            test_runner.with_file_name(format!("wasm-bindgen{}", std::env::consts::EXE_SUFFIX));
        if tool_version(&wasm_bindgen).as_deref() != Some(version.as_str()) {
            eprintln!(
                "{} is missing or not version {version}: reinstall with \
                 `cargo install wasm-bindgen-cli --version {version} --force`",
                wasm_bindgen.display()
            );
            return None;
        }
        target.then_some(Self {
            test_runner,
            wasm_bindgen,
        })
    }
}

impl BrowserTools {
    /// Finds or installs Chromium, chromium-driver, the wasm32 target and wasm-bindgen-cli.
    pub(crate) fn ensure(root: &Path) -> Option<Self> {
        let chromium = ensure_chromium();
        let wasm = WasmTools::ensure(root);
        let ((chromium, chromedriver), wasm) = (chromium?, wasm?);
        Some(Self {
            chromedriver,
            chromium,
            wasm,
        })
    }

    /// The `--config` value and the environment of a `cargo test --target
    /// wasm32-unknown-unknown` that runs every test binary in headless Chromium through
    /// [`wasm_runner`]. The runner is a `--config` list, not `CARGO_TARGET_<TRIPLE>_RUNNER`:
    /// cargo splits that variable at spaces, so a workspace path with one would break it.
    pub(crate) fn cargo_env(&self, work: &Path) -> Result<(String, Vec<(String, String)>), String> {
        let xtask =
            std::env::current_exe().map_err(|e| format!("cannot find the xtask binary: {e}"))?;
        std::fs::create_dir_all(work)
            .map_err(|e| format!("cannot create {}: {e}", work.display()))?;
        let timeout =
            std::env::var("WASM_BINDGEN_TEST_TIMEOUT").unwrap_or_else(|_| TEST_TIMEOUT_SECS.into());
        let path = |p: &Path| p.display().to_string();
        // A JSON string is a TOML basic string (the same quotes and escapes).
        let runner = format!(
            "target.{WASM_TARGET}.runner=[{}, \"wasm-runner\"]",
            serde_json::Value::from(path(&xtask))
        );
        let env = vec![
            (
                "SHOAL_WASM_TEST_RUNNER".into(),
                path(&self.wasm.test_runner),
            ),
            ("SHOAL_CHROMIUM".into(), path(&self.chromium)),
            ("SHOAL_WEB_WORK_DIR".into(), path(work)),
            ("CHROMEDRIVER".into(), path(&self.chromedriver)),
            // Every suite needs WebGPU, so every binary runs in the browser, also those (the
            // kernels') that do not say `wasm_bindgen_test_configure!(run_in_browser)`.
            ("WASM_BINDGEN_USE_BROWSER".into(), "1".into()),
            ("WASM_BINDGEN_TEST_TIMEOUT".into(), timeout),
        ];
        Ok((runner, env))
    }
}

/// `xtask wasm-runner FILE.wasm [ARGS]`: what cargo runs for each wasm32 test binary. Gives the
/// browser a fresh profile and the flags in a `webdriver.json`, runs wasm-bindgen-test-runner,
/// and removes the profile again.
pub(crate) fn wasm_runner(args: &[OsString]) -> ExitCode {
    let var = |name: &str| std::env::var_os(name).map(PathBuf::from);
    let (Some(runner), Some(chromium), Some(work)) = (
        var("SHOAL_WASM_TEST_RUNNER"),
        var("SHOAL_CHROMIUM"),
        var("SHOAL_WEB_WORK_DIR"),
    ) else {
        eprintln!(
            "xtask wasm-runner is the wasm32 test runner of `cargo xtask test`; run that instead"
        );
        return ExitCode::FAILURE;
    };
    let dir = match fresh_dir(&work) {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let flags = chromium_flags(&dir.join("profile"));
    let webdriver_json = dir.join("webdriver.json");
    let json = json!({"goog:chromeOptions": {
        "binary": chromium.display().to_string(),
        "args": flags,
    }});
    let status = std::fs::write(&webdriver_json, format!("{json:#}\n"))
        .map_err(|e| format!("cannot write {}: {e}", webdriver_json.display()))
        .and_then(|()| {
            Command::new(&runner)
                .args(args)
                .env("WASM_BINDGEN_TEST_WEBDRIVER_JSON", &webdriver_json)
                .status()
                .map_err(|e| format!("cannot run {}: {e}", runner.display()))
        });
    // A profile is a few MB per test binary: keep nothing between runs.
    let _ = std::fs::remove_dir_all(&dir);
    match status {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(s) => ExitCode::from(
            s.code()
                .and_then(|c| u8::try_from(c).ok())
                .filter(|&c| c != 0)
                .unwrap_or(1),
        ),
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// A new, empty directory under `work` for one browser.
pub(crate) fn fresh_dir(work: &Path) -> Result<PathBuf, String> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = work.join(format!("browser-{}-{stamp}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Ok(dir)
}
