//! Stages of a command, timed and summarised, and the commands they run.
//!
//! Commands run through `std::process::Command`, which already takes arguments and environment
//! without a shell in between; xshell or duct would add a dependency and save no lines here.

use std::process::Command;
use std::time::Instant;

/// The stages of one command and how each went.
pub(crate) struct Stages {
    /// The command, as the summary names it.
    title: &'static str,
    /// When the command started.
    started: Instant,
    /// Each stage run: its name, whether it passed, its seconds.
    done: Vec<(String, bool, f64)>,
}

impl Stages {
    /// No stages yet; the clock starts now.
    pub(crate) fn new(title: &'static str) -> Self {
        Self {
            title,
            started: Instant::now(),
            done: Vec::new(),
        }
    }

    /// Runs a stage, printing its name before and its time after.
    pub(crate) fn run(&mut self, name: &str, f: impl FnOnce() -> bool) -> bool {
        eprintln!("\n==> {name}");
        let t = Instant::now();
        let ok = f();
        let secs = t.elapsed().as_secs_f64();
        eprintln!(
            "==> {name}: {} in {secs:.1} s",
            if ok { "ok" } else { "FAILED" }
        );
        self.done.push((name.to_string(), ok, secs));
        ok
    }

    /// Prints the summary; true when every stage passed.
    pub(crate) fn finish(self) -> bool {
        let ok = self.done.iter().all(|d| d.1);
        eprintln!(
            "\n{} — {}",
            self.title,
            if ok { "all stages passed" } else { "FAILED" }
        );
        for (name, passed, secs) in &self.done {
            eprintln!(
                "  {:<6} {secs:>7.1} s  {name}",
                if *passed { "ok" } else { "FAILED" }
            );
        }
        eprintln!("  total  {:>7.1} s", self.started.elapsed().as_secs_f64());
        ok
    }
}

/// Runs `cargo` with `args` and extra environment; true on success.
pub(crate) fn cargo(args: &[&str], env: &[(&str, &str)]) -> bool {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(args).envs(env.iter().copied());
    // Mesa's EGL/WSI complain on every start without a runtime directory (headless CI has none).
    if std::env::var_os("XDG_RUNTIME_DIR").is_none() {
        let dir = std::env::temp_dir().join("shoal-xdg-runtime");
        if std::fs::create_dir_all(&dir).is_ok() {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
            }
            cmd.env("XDG_RUNTIME_DIR", dir);
        }
    }
    command(&mut cmd)
}

/// Runs `cargo` with `args` and extra environment, then prints what it wrote; its output when it
/// succeeded.
pub(crate) fn cargo_output(args: &[&str], env: &[(&str, &str)]) -> Option<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = match Command::new(cargo)
        .args(args)
        .envs(env.iter().copied())
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            eprintln!("cannot run cargo: {e}");
            return None;
        }
    };
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    eprint!("{text}");
    out.status.success().then_some(text)
}

/// Runs a command, inheriting the terminal; true on success.
pub(crate) fn command(cmd: &mut Command) -> bool {
    match cmd.status() {
        Ok(status) => status.success(),
        Err(e) => {
            eprintln!("cannot run {:?}: {e}", cmd.get_program());
            false
        }
    }
}
