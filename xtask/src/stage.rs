//! Stages of a command, timed and summarised, and the commands they run.
//!
//! Commands run through `std::process::Command`, which already takes arguments and environment
//! without a shell in between; xshell or duct would add a dependency and save no lines here.
//!
//! A stage may have a wall-clock limit ([`Stages::run_within`]): past it, a watchdog thread ends
//! every process this xtask started (found in `/proc` by parent pid, as the page test finds its
//! browsers: each stopped, then killed, by its own pid with the shell's `kill`) until the stage
//! returns, and the stage fails naming its limit. Stages run one after another, so what runs
//! under xtask then is the late stage's. The processes keep xtask's process group, so Ctrl-C
//! still reaches them all.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::{Duration, Instant};

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
        self.run_limited(name, None, f)
    }

    /// Runs a stage that may take at most `limit`: past it, the processes the stage started are
    /// killed, and the stage fails saying so.
    pub(crate) fn run_within(
        &mut self,
        name: &str,
        limit: Duration,
        f: impl FnOnce() -> bool,
    ) -> bool {
        self.run_limited(name, Some(limit), f)
    }

    /// [`Self::run`], with a wall-clock limit when `limit` is given.
    fn run_limited(
        &mut self,
        name: &str,
        limit: Option<Duration>,
        f: impl FnOnce() -> bool,
    ) -> bool {
        eprintln!("\n==> {name}");
        let t = Instant::now();
        let (ok, over) = match limit {
            Some(limit) => watched(name, limit, f),
            None => (f(), false),
        };
        let ok = ok && !over;
        let secs = t.elapsed().as_secs_f64();
        let mut shown = name.to_string();
        if let (true, Some(limit)) = (over, limit) {
            eprintln!(
                "==> {name}: FAILED: not done within its time limit of {}; its processes were \
                 killed",
                show_limit(limit)
            );
            shown.push_str(&format!(" (over its {} limit)", show_limit(limit)));
        }
        eprintln!(
            "==> {name}: {} in {secs:.1} s",
            if ok { "ok" } else { "FAILED" }
        );
        self.done.push((shown, ok, secs));
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

/// `target_directory` from `cargo metadata --no-deps` of the workspace at `root`.
pub(crate) fn metadata_target_dir(root: &Path) -> Option<PathBuf> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--manifest-path",
        ])
        .arg(root.join("Cargo.toml"))
        .stderr(Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let metadata: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    metadata
        .get("target_directory")?
        .as_str()
        .map(PathBuf::from)
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

/// `n` minutes: the unit of the stages' limits.
pub(crate) const fn minutes(n: u64) -> Duration {
    Duration::from_secs(n * 60)
}

/// A limit as the messages show it: `20 min`, or seconds below a minute.
fn show_limit(limit: Duration) -> String {
    match limit.as_secs() {
        s if s % 60 == 0 && s > 0 => format!("{} min", s / 60),
        _ => format!("{} s", limit.as_secs_f64()),
    }
}

/// Runs `f` while a watchdog waits for `limit`; past it, the watchdog ends every process under
/// this one, and again each second until `f` returns (so a stage's loop cannot start the next
/// command and run on). Returns `f`'s result and whether the limit passed.
fn watched(name: &str, limit: Duration, f: impl FnOnce() -> bool) -> (bool, bool) {
    let (done, wait) = channel::<()>();
    let stage = name.to_string();
    let watchdog = std::thread::spawn(move || {
        if !matches!(wait.recv_timeout(limit), Err(RecvTimeoutError::Timeout)) {
            return false;
        }
        eprintln!(
            "\n==> {stage}: still running after its time limit of {}: killing its processes",
            show_limit(limit)
        );
        loop {
            let killed = kill_descendants();
            if killed > 0 {
                eprintln!("==> {stage}: killed {killed} process(es)");
            }
            if !matches!(
                wait.recv_timeout(Duration::from_secs(1)),
                Err(RecvTimeoutError::Timeout)
            ) {
                return true;
            }
        }
    });
    let ok = f();
    let _ = done.send(());
    // A watchdog cannot panic short of a bug; then the stage counts as over its limit.
    let over = watchdog.join().unwrap_or(true);
    (ok, over)
}

/// Stops every process under this one (read again until no new one appears: a stopped process
/// starts nothing), then kills them all; returns how many. Nothing on a system without `/proc`.
fn kill_descendants() -> usize {
    let mut stopped: Vec<u32> = Vec::new();
    for _ in 0..20 {
        let new: Vec<u32> = descendants()
            .into_iter()
            .filter(|p| !stopped.contains(p))
            .collect();
        if new.is_empty() {
            break;
        }
        signal("STOP", &new);
        stopped.extend(new);
    }
    if !stopped.is_empty() {
        signal("KILL", &stopped);
    }
    stopped.len()
}

/// Sends the signal `name` to `pids` with the shell's `kill` (a builtin of every `sh`; the
/// `kill` program is procps's, which a minimal Debian lacks); errors (a process already gone)
/// are ignored.
fn signal(name: &str, pids: &[u32]) {
    let _ = Command::new("sh")
        .args(["-c", "kill -s \"$0\" \"$@\"", name])
        .args(pids.iter().map(u32::to_string))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// The pids of this process's descendants, from each `/proc/PID/stat`'s parent pid.
fn descendants() -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let parents: Vec<(u32, u32)> = entries
        .filter_map(|e| {
            let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            Some((pid, parent_pid(&stat)?))
        })
        .collect();
    let mut found = vec![std::process::id()];
    let mut i = 0;
    while let Some(&pid) = found.get(i) {
        found.extend(parents.iter().filter(|p| p.1 == pid).map(|p| p.0));
        i += 1;
    }
    found.split_off(1)
}

/// The parent pid in a `/proc/PID/stat` line, `PID (COMM) STATE PPID ...`; the command name may
/// hold spaces and parentheses, so the fields are read after its last `)`.
fn parent_pid(stat: &str) -> Option<u32> {
    stat.rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::{Stages, parent_pid, show_limit};
    use std::time::{Duration, Instant};

    #[test]
    fn parent_pid_is_read_after_the_command_name() {
        assert_eq!(parent_pid("42 (a) b) c) S 7 42 42 0"), Some(7));
        assert_eq!(parent_pid("42 (cargo) R 1 42"), Some(1));
        assert_eq!(parent_pid("garbage"), None);
    }

    #[test]
    fn limits_are_shown_in_minutes_or_seconds() {
        assert_eq!(show_limit(Duration::from_secs(1200)), "20 min");
        assert_eq!(show_limit(Duration::from_secs(90)), "90 s");
        assert_eq!(show_limit(Duration::from_millis(300)), "0.3 s");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_stage_over_its_limit_is_killed_and_fails() {
        let mut stages = Stages::new("test");
        let started = Instant::now();
        // A child with a child of its own: the whole tree goes, not only the shell.
        let ok = stages.run_within("sleep", Duration::from_millis(300), || {
            super::command(std::process::Command::new("sh").args(["-c", "sleep 31 & wait"]))
        });
        assert!(!ok);
        assert!(started.elapsed() < Duration::from_secs(10));
        assert!(stages.run_within("quick", Duration::from_secs(30), || true));
    }
}
