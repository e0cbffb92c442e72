//! A small WebDriver client: chromedriver started on a free port, one Chromium session,
//! navigation, scripts and screenshots. The protocol is JSON over HTTP/1.1 on loopback, spoken
//! with ureq (blocking, no TLS) and serde_json; screenshots are decoded with base64.
//!
//! Why the client itself is written here: the Rust WebDriver crates (fantoccini, thirtyfour) are
//! async and bring tokio and hyper, several times xtask's build, for the seven calls the page test
//! makes. Each call below is one request and one `serde_json::Value`.
//!
//! Everything started here is stopped on drop, also when a check fails half-way: the session is
//! deleted (Chromium quits), chromedriver is asked to shut down and then killed, and any browser
//! process still running with this run's profile directory is killed by its pid. Those pids come
//! from reading `/proc` (this runs on Linux, where chromium-driver is packaged), not from
//! sysinfo, a large crate for one scan; each is ended with the `kill` command, not with libc's
//! `kill` and an `unsafe` block. A free port is std's: bind port 0 and read the port back.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

/// The key of an element reference in WebDriver answers.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A running chromedriver.
pub(crate) struct Chromedriver {
    /// The chromedriver process.
    child: Child,
    /// The loopback port it listens on.
    port: u16,
    /// The HTTP client of every call (it keeps its connection to chromedriver open).
    agent: ureq::Agent,
    /// Its log file, named when it fails to start.
    log: PathBuf,
    /// The profile directory of the browsers of this run: how leftovers are recognised.
    profile: PathBuf,
}

impl Chromedriver {
    /// Starts `chromedriver` on a free port, logging to `log`, and waits until it is ready.
    /// `profile` is the `--user-data-dir` its browsers will get.
    pub(crate) fn start(path: &Path, log: &Path, profile: &Path) -> Result<Self, String> {
        let port = free_port()?;
        let log_file = std::fs::File::create(log)
            .map_err(|e| format!("cannot create {}: {e}", log.display()))?;
        let mut cmd = Command::new(path);
        cmd.arg(format!("--port={port}"))
            .arg(format!("--log-path={}", log.display()))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log_file);
        let child = cmd
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", path.display()))?;
        // chromedriver answers errors with 4xx/5xx and a JSON body that says what went wrong; no
        // proxy from the environment may come between xtask and a driver on loopback.
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .proxy(None)
            .build()
            .into();
        let driver = Self {
            child,
            port,
            agent,
            log: log.to_path_buf(),
            profile: profile.to_path_buf(),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let ready = driver
                .request("GET", "/status", None, Duration::from_secs(5))
                .ok()
                .and_then(|v| v.get("ready").and_then(Value::as_bool));
            if ready == Some(true) {
                return Ok(driver);
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "chromedriver did not become ready on port {port} in 30 s (log: {})",
                    driver.log.display()
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Starts Chromium (`binary`, with `args`) in a new session.
    pub(crate) fn session(&self, binary: &Path, args: &[String]) -> Result<Session<'_>, String> {
        let body = json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {"binary": binary.display().to_string(), "args": args},
        }}});
        let value = self.request("POST", "/session", Some(&body), Duration::from_secs(60))?;
        let id = value
            .get("sessionId")
            .and_then(Value::as_str)
            .ok_or("chromedriver's new session has no sessionId")?
            .to_string();
        Ok(Session { driver: self, id })
    }

    /// One WebDriver call: returns the answer's `value`, or its error as a message.
    fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        timeout: Duration,
    ) -> Result<Value, String> {
        let fail = |e: ureq::Error| format!("WebDriver {method} {path}: {e}");
        let url = format!("http://127.0.0.1:{}{path}", self.port);
        let timeout = Some(timeout);
        let mut answer = match method {
            "GET" => self
                .agent
                .get(&url)
                .config()
                .timeout_global(timeout)
                .build()
                .call(),
            "DELETE" => self
                .agent
                .delete(&url)
                .config()
                .timeout_global(timeout)
                .build()
                .call(),
            _ => self
                .agent
                .post(&url)
                .header("Content-Type", "application/json; charset=utf-8")
                .config()
                .timeout_global(timeout)
                .build()
                .send(body.unwrap_or(&json!({})).to_string()),
        }
        .map_err(fail)?;
        let status = answer.status().as_u16();
        let content = answer
            .body_mut()
            .with_config()
            .limit(ANSWER_LIMIT)
            .read_to_vec()
            .map_err(fail)?;
        let answer: Value = serde_json::from_slice(&content)
            .map_err(|e| format!("WebDriver {method} {path}: status {status}, JSON: {e}"))?;
        let value = answer.get("value").cloned().unwrap_or(Value::Null);
        if status != 200 {
            let field = |k: &str| value.get(k).and_then(Value::as_str).unwrap_or("");
            return Err(format!(
                "WebDriver {method} {path}: {} ({})",
                field("message"),
                field("error")
            ));
        }
        Ok(value)
    }
}

impl Drop for Chromedriver {
    fn drop(&mut self) {
        // chromedriver quits its browsers and exits when asked; wait a little for that.
        let _ = self.request("GET", "/shutdown", None, Duration::from_secs(10));
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline && matches!(self.child.try_wait(), Ok(None)) {
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        // A browser that outlived its driver (a crash half-way) still has our profile directory
        // on its command line: end exactly those processes, each by its own pid.
        for pid in processes_using(&self.profile) {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .stderr(Stdio::null())
                .status();
        }
    }
}

/// The pids of the processes whose command line mentions `path` (Linux: from /proc).
fn processes_using(path: &Path) -> Vec<u32> {
    let needle = path.display().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != std::process::id() && pid > 1)
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(&needle))
        })
        .collect()
}

/// One browser, driven through its chromedriver.
pub(crate) struct Session<'a> {
    /// The driver the calls go through.
    driver: &'a Chromedriver,
    /// The session's id in chromedriver's paths.
    id: String,
}

impl Session<'_> {
    /// One call on this session's path, waiting at most five minutes (the kernels page).
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        self.driver.request(
            method,
            &format!("/session/{}{path}", self.id),
            body.as_ref(),
            Duration::from_secs(300),
        )
    }

    /// Loads `url` and waits for its `load` event.
    pub(crate) fn navigate(&self, url: &str) -> Result<(), String> {
        self.call("POST", "/url", Some(json!({ "url": url })))
            .map(drop)
    }

    /// Runs `script` (a function body: `return ...;`) in the page and returns its result.
    pub(crate) fn execute(&self, script: &str) -> Result<Value, String> {
        let body = json!({ "script": script, "args": [] });
        self.call("POST", "/execute/sync", Some(body))
    }

    /// The browser console's messages since the last call (chromedriver's log endpoint).
    pub(crate) fn console(&self) -> Result<Vec<String>, String> {
        let entries = self.call("POST", "/se/log", Some(json!({ "type": "browser" })))?;
        Ok(entries
            .as_array()
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|e| {
                let field = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("");
                format!("{} {}", field("level"), field("message"))
            })
            .collect())
    }

    /// A PNG of the viewport.
    pub(crate) fn screenshot(&self) -> Result<Vec<u8>, String> {
        base64_png(&self.call("GET", "/screenshot", None)?)
    }

    /// A PNG of the first element `css` selects, as the page shows it.
    pub(crate) fn element_screenshot(&self, css: &str) -> Result<Vec<u8>, String> {
        let found = self.call(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        )?;
        let element = found
            .get(ELEMENT_KEY)
            .and_then(Value::as_str)
            .ok_or_else(|| format!("no element `{css}` in the page"))?;
        base64_png(&self.call("GET", &format!("/element/{element}/screenshot"), None)?)
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        // Quits the browser; chromedriver's drop ends whatever this leaves.
        let _ = self.driver.request(
            "DELETE",
            &format!("/session/{}", self.id),
            None,
            Duration::from_secs(20),
        );
    }
}

/// A port nobody listens on now (the kernel picks it; chromedriver binds it right after).
fn free_port() -> Result<u16, String> {
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free port: {e}"))?;
    listener
        .local_addr()
        .map(|a| a.port())
        .map_err(|e| e.to_string())
}

/// The largest answer read: a viewport screenshot of the kernels page is a few MB of base64.
const ANSWER_LIMIT: u64 = 256 << 20;

/// Decodes a screenshot: standard base64 of a PNG.
fn base64_png(value: &Value) -> Result<Vec<u8>, String> {
    let text = value.as_str().ok_or("the screenshot is not a string")?;
    STANDARD
        .decode(text)
        .map_err(|e| format!("the screenshot is not base64: {e}"))
}

#[cfg(test)]
mod tests {
    use super::base64_png;
    use serde_json::json;

    #[test]
    fn screenshots_decode_from_base64() {
        assert_eq!(base64_png(&json!("aGVsbG8=")).expect("ok"), b"hello");
        assert!(base64_png(&json!("a$b=")).is_err());
        assert!(base64_png(&json!(3)).is_err());
    }
}
