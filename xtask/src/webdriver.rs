//! A small WebDriver client over `std::net`: chromedriver started on a free port, one Chromium
//! session, navigation, scripts and screenshots. The protocol is JSON over HTTP/1.1 on loopback;
//! a dozen calls a run do not justify an HTTP client and a JSON library in xtask.
//!
//! Everything started here is stopped on drop, also when a check fails half-way: the session is
//! deleted (Chromium quits), chromedriver is asked to shut down and then killed, and any browser
//! process still running with this run's profile directory is killed by its pid.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::json::{Json, quote};

/// The key of an element reference in WebDriver answers.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// A running chromedriver.
pub(crate) struct Chromedriver {
    child: Child,
    port: u16,
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
        let driver = Self {
            child,
            port,
            log: log.to_path_buf(),
            profile: profile.to_path_buf(),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let ready = request(port, "GET", "/status", None, Duration::from_secs(5))
                .ok()
                .and_then(|v| match v.get("ready") {
                    Some(Json::Bool(b)) => Some(*b),
                    _ => None,
                });
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
        let args: Vec<String> = args.iter().map(|a| quote(a)).collect();
        let body = format!(
            "{{\"capabilities\": {{\"alwaysMatch\": {{\"browserName\": \"chrome\", \
             \"goog:loggingPrefs\": {{\"browser\": \"ALL\"}}, \
             \"goog:chromeOptions\": {{\"binary\": {}, \"args\": [{}]}}}}}}}}",
            quote(&binary.display().to_string()),
            args.join(", ")
        );
        let value = request(
            self.port,
            "POST",
            "/session",
            Some(&body),
            Duration::from_secs(60),
        )?;
        let id = value
            .get("sessionId")
            .and_then(Json::as_str)
            .ok_or("chromedriver's new session has no sessionId")?
            .to_string();
        Ok(Session { driver: self, id })
    }
}

impl Drop for Chromedriver {
    fn drop(&mut self) {
        // chromedriver quits its browsers and exits when asked; wait a little for that.
        let _ = request(self.port, "GET", "/shutdown", None, Duration::from_secs(10));
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
    driver: &'a Chromedriver,
    id: String,
}

impl Session<'_> {
    fn call(&self, method: &str, path: &str, body: Option<&str>) -> Result<Json, String> {
        request(
            self.driver.port,
            method,
            &format!("/session/{}{path}", self.id),
            body,
            Duration::from_secs(300),
        )
    }

    /// Loads `url` and waits for its `load` event.
    pub(crate) fn navigate(&self, url: &str) -> Result<(), String> {
        self.call(
            "POST",
            "/url",
            Some(&format!("{{\"url\": {}}}", quote(url))),
        )
        .map(drop)
    }

    /// Runs `script` (a function body: `return ...;`) in the page and returns its result.
    pub(crate) fn execute(&self, script: &str) -> Result<Json, String> {
        self.call(
            "POST",
            "/execute/sync",
            Some(&format!("{{\"script\": {}, \"args\": []}}", quote(script))),
        )
    }

    /// The browser console's messages since the last call (chromedriver's log endpoint).
    pub(crate) fn console(&self) -> Result<Vec<String>, String> {
        let entries = self.call("POST", "/se/log", Some("{\"type\": \"browser\"}"))?;
        Ok(entries
            .as_array()
            .unwrap_or_default()
            .iter()
            .map(|e| {
                let field = |k: &str| e.get(k).and_then(Json::as_str).unwrap_or("");
                format!("{} {}", field("level"), field("message"))
            })
            .collect())
    }

    /// A PNG of the viewport.
    pub(crate) fn screenshot(&self) -> Result<Vec<u8>, String> {
        let value = self.call("GET", "/screenshot", None)?;
        base64(value.as_str().ok_or("the screenshot is not a string")?)
    }

    /// A PNG of the first element `css` selects, as the page shows it.
    pub(crate) fn element_screenshot(&self, css: &str) -> Result<Vec<u8>, String> {
        let found = self.call(
            "POST",
            "/element",
            Some(&format!(
                "{{\"using\": \"css selector\", \"value\": {}}}",
                quote(css)
            )),
        )?;
        let element = found
            .get(ELEMENT_KEY)
            .and_then(Json::as_str)
            .ok_or_else(|| format!("no element `{css}` in the page"))?;
        let value = self.call("GET", &format!("/element/{element}/screenshot"), None)?;
        base64(value.as_str().ok_or("the screenshot is not a string")?)
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        // Quits the browser; chromedriver's drop ends whatever this leaves.
        let _ = request(
            self.driver.port,
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

/// One WebDriver call: returns the answer's `value`, or its error as a message.
fn request(
    port: u16,
    method: &str,
    path: &str,
    body: Option<&str>,
    timeout: Duration,
) -> Result<Json, String> {
    let fail = |e: std::io::Error| format!("WebDriver {method} {path}: {e}");
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(fail)?;
    stream.set_read_timeout(Some(timeout)).map_err(fail)?;
    let body = body.unwrap_or("");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\
         Content-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    )
    .map_err(fail)?;
    let raw = read_response(&mut stream).map_err(fail)?;
    let (status, content) = parse_response(&raw)?;
    let answer = Json::parse(&content)
        .map_err(|e| format!("WebDriver {method} {path}: status {status}, {e}"))?;
    let value = answer.get("value").cloned().unwrap_or(Json::Null);
    if status != 200 {
        let field = |k: &str| {
            value
                .get(k)
                .and_then(Json::as_str)
                .unwrap_or("")
                .to_string()
        };
        return Err(format!(
            "WebDriver {method} {path}: {} ({})",
            field("message"),
            field("error")
        ));
    }
    Ok(value)
}

/// Reads one HTTP/1.1 response: up to its Content-Length, the last chunk, or the end of the
/// connection. chromedriver keeps connections open whatever the request says, so reading to the
/// end would wait for its idle timeout.
fn read_response(stream: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut raw = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    loop {
        let n = match stream.read(&mut buf) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            read => read?,
        };
        if n == 0 {
            return Ok(raw);
        }
        raw.extend_from_slice(&buf[..n]);
        let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
        let body = raw.len() - split - 4;
        let length = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse::<usize>().ok());
        let complete = match length {
            Some(length) => body >= length,
            None if head.contains("transfer-encoding: chunked") => raw.ends_with(b"0\r\n\r\n"),
            None => false,
        };
        if complete {
            return Ok(raw);
        }
    }
}

/// The status and the body of an HTTP/1.1 response (plain or chunked).
fn parse_response(raw: &[u8]) -> Result<(u16, String), String> {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or("a WebDriver answer without headers")?;
    let head = String::from_utf8_lossy(&raw[..split]);
    let mut body = raw[split + 4..].to_vec();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("a WebDriver answer without a status: {head}"))?;
    let chunked = head.lines().any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("transfer-encoding:") && l.contains("chunked")
    });
    if chunked {
        body = dechunk(&body)?;
    }
    Ok((status, String::from_utf8_lossy(&body).into_owned()))
}

fn dechunk(mut data: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let line_end = data
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or("a truncated chunk")?;
        let size_text = String::from_utf8_lossy(&data[..line_end]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| format!("a bad chunk size `{size_text}`"))?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Ok(out);
        }
        let chunk = data.get(..size).ok_or("a truncated chunk")?;
        out.extend_from_slice(chunk);
        data = data.get(size + 2..).unwrap_or(&[]);
    }
}

/// Decodes standard base64 (WebDriver's screenshots).
fn base64(text: &str) -> Result<Vec<u8>, String> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for group in digits.chunks(4) {
        let mut bits = 0u32;
        for (i, &c) in group.iter().enumerate() {
            bits |= value(c).ok_or("the screenshot is not base64")? << (18 - 6 * i);
        }
        let bytes = bits.to_be_bytes();
        out.extend_from_slice(&bytes[1..group.len()]);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{base64, parse_response};

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(base64("aGVsbG8=").expect("ok"), b"hello");
        assert_eq!(base64("aGVsbG8h").expect("ok"), b"hello!");
        assert_eq!(base64("aGk").expect("ok"), b"hi");
        assert!(base64("a$b=").is_err());
    }

    #[test]
    fn responses_plain_and_chunked() {
        let plain = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}";
        assert_eq!(parse_response(plain).expect("ok"), (200, "{}".to_string()));
        let chunked =
            b"HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"a\r\n4\r\n\":1}\r\n0\r\n\r\n";
        assert_eq!(
            parse_response(chunked).expect("ok"),
            (404, "{\"a\":1}".to_string())
        );
    }
}
