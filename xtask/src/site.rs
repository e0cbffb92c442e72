//! `cargo xtask web`: the demos' web site. The `shoal-demos` library is built for wasm32 as a
//! cdylib (release), bound with `wasm-bindgen --target web` into `target/shoal/site/` beside the
//! checked-in pages of `demos/web/`, and served by a small static file server.

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use crate::stage::{cargo, command};
use crate::web::WASM_TARGET;

/// The checked-in pages, scripts and style, relative to the workspace root.
const SOURCES: &str = "demos/web";

/// Where the site is built, under cargo's target directory.
pub(crate) fn site_dir(target: &Path) -> PathBuf {
    target.join("shoal").join("site")
}

/// Builds the site into [`site_dir`]; returns that directory.
pub(crate) fn build(root: &Path, target: &Path, wasm_bindgen: &Path) -> Result<PathBuf, String> {
    // `--crate-type cdylib` here, not in the manifest: natively the library stays an rlib, so
    // the native builds do not link a shared library nobody loads.
    let built = cargo(
        &[
            "rustc",
            "-p",
            "shoal-demos",
            "--lib",
            "--release",
            "--target",
            WASM_TARGET,
            "--crate-type",
            "cdylib",
        ],
        &[],
    );
    if !built {
        return Err("the wasm32 build of shoal-demos failed".into());
    }
    let wasm = target
        .join(WASM_TARGET)
        .join("release")
        .join("shoal_demos.wasm");
    let out = site_dir(target);
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let bound = command(
        Command::new(wasm_bindgen)
            .args([
                "--target",
                "web",
                "--no-typescript",
                "--out-name",
                "shoal_demos",
            ])
            .arg("--out-dir")
            .arg(&out)
            .arg(&wasm),
    );
    if !bound {
        return Err(format!("wasm-bindgen failed on {}", wasm.display()));
    }
    let sources = root.join(SOURCES);
    let entries = std::fs::read_dir(&sources)
        .map_err(|e| format!("cannot read {}: {e}", sources.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_file()
            && let Some(name) = path.file_name()
        {
            std::fs::copy(&path, out.join(name))
                .map_err(|e| format!("cannot copy {}: {e}", path.display()))?;
        }
    }
    let size = std::fs::metadata(out.join("shoal_demos_bg.wasm")).map_or(0, |m| m.len());
    eprintln!(
        "site: {} ({:.1} MB of wasm)",
        out.display(),
        size as f64 / 1e6
    );
    Ok(out)
}

/// A static file server on a background thread, stopped when dropped.
pub(crate) struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Serves `dir` on `addr` (`127.0.0.1:0` for a free port).
    pub(crate) fn start(dir: &Path, addr: &str) -> Result<Self, String> {
        let listener =
            TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        let stop = Arc::new(AtomicBool::new(false));
        let (dir, stopping) = (dir.to_path_buf(), Arc::clone(&stop));
        let thread = std::thread::spawn(move || accept(&listener, &dir, &stopping));
        Ok(Self {
            addr,
            stop,
            thread: Some(thread),
        })
    }

    /// `http://127.0.0.1:<port>/`.
    pub(crate) fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the blocking accept so the thread sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Serves `dir` on `addr` until the process is stopped (`cargo xtask web`).
pub(crate) fn serve_forever(dir: &Path, addr: &str) -> bool {
    let listener = match TcpListener::bind(addr) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("cannot listen on {addr}: {e} (another server there? try --port)");
            return false;
        }
    };
    eprintln!(
        "serving {} on http://{addr}/ (index.html, demo.html?name=<demo>, kernels.html); Ctrl-C stops",
        dir.display()
    );
    accept(&listener, dir, &AtomicBool::new(false));
    true
}

fn accept(listener: &TcpListener, dir: &Path, stop: &AtomicBool) {
    for stream in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(stream) = stream else { continue };
        let dir = dir.to_path_buf();
        // One thread a connection: the browser fetches the wasm and the scripts in parallel.
        std::thread::spawn(move || {
            let _ = respond(stream, &dir);
        });
    }
}

/// Answers one request (`GET` or `HEAD`) and closes the connection.
fn respond(mut stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    // The headers say nothing a static server needs; read them so the client sees a clean close.
    let mut line = String::new();
    while reader.read_line(&mut line)? > 2 {
        line.clear();
    }
    let mut parts = request.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or("/"));
    if method != "GET" && method != "HEAD" {
        return reply(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"GET only\n",
            true,
        );
    }
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let Some(file) = resolve(dir, path) else {
        return reply(
            &mut stream,
            "404 Not Found",
            "text/plain",
            b"not found\n",
            true,
        );
    };
    match std::fs::read(&file) {
        Ok(body) => reply(
            &mut stream,
            "200 OK",
            content_type(&file),
            &body,
            method == "GET",
        ),
        Err(_) => reply(
            &mut stream,
            "404 Not Found",
            "text/plain",
            b"not found\n",
            true,
        ),
    }
}

/// The file a URL path names inside `dir`, never outside it; `/` is `index.html`.
fn resolve(dir: &Path, path: &str) -> Option<PathBuf> {
    let relative = Path::new(path.trim_start_matches('/'));
    if !relative
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
    {
        return None;
    }
    let file = dir.join(relative);
    let file = if file.is_dir() {
        file.join("index.html")
    } else {
        file
    };
    file.is_file().then_some(file)
}

fn content_type(file: &Path) -> &'static str {
    match file.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        // `WebAssembly.instantiateStreaming` insists on this one.
        Some("wasm") => "application/wasm",
        Some("css") => "text/css; charset=utf-8",
        Some("png") => "image/png",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

fn reply(
    stream: &mut TcpStream,
    status: &str,
    content_type: &str,
    body: &[u8],
    with_body: bool,
) -> std::io::Result<()> {
    // no-store: a rebuilt site shows on reload.
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    if with_body {
        stream.write_all(body)?;
    }
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn paths_stay_inside_the_site() {
        let dir = std::env::temp_dir().join(format!("xtask-site-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(dir.join("index.html"), "x").expect("file");
        assert_eq!(resolve(&dir, "/"), Some(dir.join("index.html")));
        assert_eq!(resolve(&dir, "/index.html"), Some(dir.join("index.html")));
        assert_eq!(resolve(&dir, "/../index.html"), None);
        assert_eq!(resolve(&dir, "/missing.js"), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
