//! `cargo xtask web`: the demos' web site. The `shoal-demos` library (and for the bench page
//! `shoal-bench`'s) is built for wasm32 as a cdylib (release for `cargo xtask web` and
//! `cargo xtask bench --browser`; the page test of `cargo xtask test` builds the demos alone in
//! the dev profile, on the wasm32 dependencies its browser suites already compiled), bound with
//! `wasm-bindgen --target web` into `target/shoal/site/` beside the checked-in pages of
//! `demos/web/`, and served by tiny_http.
//!
//! The file server's few lines stay here: mapping a URL path to a file inside the site (never
//! outside it, tested below) and its content type. The crates that serve a directory
//! (tower-http's ServeDir, actix-files, warp's fs) all sit on an async runtime, and mime_guess's
//! table of every known type would replace one `match` over the six kinds of file the site has.
//! Paths are not percent-decoded: the site's file names are plain ASCII.

use std::net::SocketAddr;
use std::path::{Component, Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::thread::JoinHandle;

use tiny_http::{Header, Method, Request, Response};

use crate::stage::{cargo, command};
use crate::web::WASM_TARGET;

/// The checked-in pages, scripts and style, relative to the workspace root.
const SOURCES: &str = "demos/web";

/// Where the site is built, under cargo's target directory.
pub(crate) fn site_dir(target: &Path) -> PathBuf {
    target.join("shoal").join("site")
}

/// A crate of the site, built as a cdylib for wasm32 and bound as `<out_name>.js` and
/// `<out_name>_bg.wasm`.
pub(crate) struct Wasm {
    /// The cargo package.
    package: &'static str,
    /// wasm-bindgen's `--out-name`, what the pages import.
    out_name: &'static str,
}

/// The demos and the kernel checks (`index.html`, `demo.html`, `kernels.html`).
pub(crate) const DEMOS: Wasm = Wasm {
    package: "shoal-demos",
    out_name: "shoal_demos",
};

/// The benchmarks (`bench.html`).
pub(crate) const BENCH: Wasm = Wasm {
    package: "shoal-bench",
    out_name: "shoal_bench",
};

/// Builds `crates` into [`site_dir`] beside the pages, optimised when `release` (what
/// `cargo xtask web` serves and the benchmarks run) or in the dev profile (the page test: the
/// same code, minutes sooner); returns that directory.
pub(crate) fn build(
    root: &Path,
    target: &Path,
    wasm_bindgen: &Path,
    release: bool,
    crates: &[Wasm],
) -> Result<PathBuf, String> {
    let out = site_dir(target);
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    for krate in crates {
        bind(target, wasm_bindgen, release, krate, &out)?;
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
    Ok(out)
}

/// Builds `krate` for wasm32 and binds it into `out`.
fn bind(
    target: &Path,
    wasm_bindgen: &Path,
    release: bool,
    krate: &Wasm,
    out: &Path,
) -> Result<(), String> {
    // `--crate-type cdylib` here, not in the manifest: natively the library stays an rlib, so
    // the native builds do not link a shared library nobody loads.
    let mut args = vec![
        "rustc",
        "-p",
        krate.package,
        "--lib",
        "--target",
        WASM_TARGET,
    ];
    if release {
        args.push("--release");
    }
    args.extend(["--crate-type", "cdylib"]);
    if !cargo(&args, &[]) {
        return Err(format!("the wasm32 build of {} failed", krate.package));
    }
    let profile = if release { "release" } else { "debug" };
    let wasm = target
        .join(WASM_TARGET)
        .join(profile)
        .join(format!("{}.wasm", krate.package.replace('-', "_")));
    let bound = command(
        Command::new(wasm_bindgen)
            .args([
                "--target",
                "web",
                "--no-typescript",
                "--out-name",
                krate.out_name,
            ])
            .arg("--out-dir")
            .arg(out)
            .arg(&wasm),
    );
    if !bound {
        return Err(format!("wasm-bindgen failed on {}", wasm.display()));
    }
    let size =
        std::fs::metadata(out.join(format!("{}_bg.wasm", krate.out_name))).map_or(0, |m| m.len());
    eprintln!(
        "site: {} in {} ({:.1} MB of wasm)",
        krate.out_name,
        out.display(),
        size as f64 / 1e6
    );
    Ok(())
}

/// A static file server on a background thread, stopped when dropped.
pub(crate) struct Server {
    /// The server, shared with the thread that answers its requests.
    server: Arc<tiny_http::Server>,
    /// Where it listens.
    addr: SocketAddr,
    /// The thread that answers, joined on drop.
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Serves `dir` on `addr` (`127.0.0.1:0` for a free port).
    pub(crate) fn start(dir: &Path, addr: &str) -> Result<Self, String> {
        let server = Arc::new(listen(addr)?);
        let addr = server
            .server_addr()
            .to_ip()
            .ok_or_else(|| format!("{addr} is not an IP address"))?;
        let (dir, serving) = (dir.to_path_buf(), Arc::clone(&server));
        let thread = std::thread::spawn(move || accept(&serving, &dir));
        Ok(Self {
            server,
            addr,
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
        // Ends the thread's wait for the next request.
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Serves `dir` on `addr` until the process is stopped (`cargo xtask web`).
pub(crate) fn serve_forever(dir: &Path, addr: &str) -> bool {
    let server = match listen(addr) {
        Ok(server) => server,
        Err(e) => {
            eprintln!("{e} (another server there? try --port)");
            return false;
        }
    };
    eprintln!(
        "serving {} on http://{addr}/ (index.html, demo.html?name=<demo>, kernels.html, bench.html); Ctrl-C stops",
        dir.display()
    );
    accept(&server, dir);
    true
}

/// An HTTP server listening on `addr`.
fn listen(addr: &str) -> Result<tiny_http::Server, String> {
    tiny_http::Server::http(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))
}

/// Answers requests until the server is unblocked.
fn accept(server: &tiny_http::Server, dir: &Path) {
    for request in server.incoming_requests() {
        let dir = dir.to_path_buf();
        // One thread a request: the browser fetches the wasm and the scripts in parallel.
        std::thread::spawn(move || {
            let _ = respond(request, &dir);
        });
    }
}

/// Answers one request: a file for `GET` (and its headers for `HEAD`), else 404 or 405.
fn respond(request: Request, dir: &Path) -> std::io::Result<()> {
    let (status, content_type, file) = match request.method() {
        Method::Get | Method::Head => {
            let path = request.url().split(['?', '#']).next().unwrap_or("/");
            match resolve(dir, path).map(|f| std::fs::File::open(&f).map(|open| (f, open))) {
                Some(Ok((path, file))) => (200, content_type(&path), Some(file)),
                _ => (404, "text/plain", None),
            }
        }
        _ => (405, "text/plain", None),
    };
    let header = |name: &str, value: &str| {
        Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("ASCII header")
    };
    // no-store: a rebuilt site shows on reload.
    let headers = vec![
        header("Content-Type", content_type),
        header("Cache-Control", "no-store"),
    ];
    match file {
        Some(file) => {
            let length = file
                .metadata()
                .ok()
                .and_then(|m| usize::try_from(m.len()).ok());
            request.respond(Response::new(200.into(), headers, file, length, None))
        }
        None => {
            let body: &[u8] = if status == 405 {
                b"GET only\n"
            } else {
                b"not found\n"
            };
            request.respond(Response::new(
                status.into(),
                headers,
                body,
                Some(body.len()),
                None,
            ))
        }
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

/// The `Content-Type` of a file, by its extension.
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
