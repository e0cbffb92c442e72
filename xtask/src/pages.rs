//! The web site checked in headless Chromium through WebDriver: the index lists the demos, a
//! demo page draws a canvas that is not blank, and the kernels page reports every kernel
//! verified. Each page says itself when it is done (`window.shoalReady`, or `window.shoalError`
//! with the message), so nothing here guesses how long a page takes.
//!
//! The canvas's screenshot is decoded with the png crate (inflate is not worth writing by hand);
//! what is here is the test itself: polling each page's flag, and counting the canvas's colours.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::site::Server;
use crate::web::{BrowserTools, chromium_flags, fresh_dir};
use crate::webdriver::{Chromedriver, Session};

/// The demo whose page is loaded and screenshotted (its canvas must show both of its colours).
const DEMO: &str = "grid";

/// Chromium's flags for pages with a WebGPU canvas, beside the suites' flags. Without a GPU,
/// Chromium's default (GL) compositor has no shared-image backing for a WebGPU canvas's swap
/// chain: the GPU process fails to create it, the WebGPU instance is dropped and every later
/// `mapAsync` is refused. With the compositor on Vulkan (SwiftShader, as WebGPU already is) the
/// canvas works. And room for the grid's 1280x720 canvas below the page's heading.
const CANVAS_FLAGS: &[&str] = &[
    "--enable-features=Vulkan",
    "--use-vulkan=swiftshader",
    "--use-angle=vulkan",
    "--window-size=1400,1000",
    "--hide-scrollbars",
];

/// How long each page may take to say it is ready, on SwiftShader on a busy two-core machine.
/// The index page.
const INDEX_TIMEOUT: Duration = Duration::from_secs(60);
/// The demo page (its first frames).
const DEMO_TIMEOUT: Duration = Duration::from_secs(180);
/// The kernels page: every kernel run and checked against its CPU reference (about 12 s for
/// the three pages in a whole `cargo xtask test` on two cores).
const KERNELS_TIMEOUT: Duration = Duration::from_secs(300);

/// Serves `site`, opens its pages in Chromium and checks them; screenshots go to `shots`.
pub(crate) fn check(tools: &BrowserTools, site: &Path, shots: &Path) -> bool {
    match run(tools, site, shots) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("{e}");
            false
        }
    }
}

/// [`check`], with the first failure as the error.
fn run(tools: &BrowserTools, site: &Path, shots: &Path) -> Result<(), String> {
    std::fs::create_dir_all(shots)
        .map_err(|e| format!("cannot create {}: {e}", shots.display()))?;
    with_chromium(tools, site, shots, CANVAS_FLAGS, |session, base| {
        index(session, base, shots)?;
        demo(session, base, shots)?;
        kernels(session, base, shots)
    })
}

/// Serves `site`, starts headless Chromium (the browser suites' flags and `extra`) through
/// chromedriver, and runs `body` with the session and the site's base URL. Chromedriver's log
/// and the profile go to a fresh directory under `parent`, kept when `body` fails and removed
/// otherwise.
pub(crate) fn with_chromium<R>(
    tools: &BrowserTools,
    site: &Path,
    parent: &Path,
    extra: &[&str],
    body: impl FnOnce(&Session<'_>, &str) -> Result<R, String>,
) -> Result<R, String> {
    let work = fresh_dir(parent)?;
    let result = (|| {
        let server = Server::start(site, "127.0.0.1:0")?;
        eprintln!("serving {} on {}", site.display(), server.url());
        let profile = work.join("profile");
        let driver = Chromedriver::start(
            &tools.chromedriver,
            &work.join("chromedriver.log"),
            &profile,
        )?;
        let mut args = chromium_flags(&profile);
        args.extend(extra.iter().map(|f| f.to_string()));
        let session = driver.session(&tools.chromium, &args)?;
        eprintln!("Chromium started (WebDriver session)");
        body(&session, &server.url())
    })();
    if result.is_err() {
        eprintln!(
            "(chromedriver's log and the profile are kept in {})",
            work.display()
        );
    } else {
        let _ = std::fs::remove_dir_all(&work);
    }
    result
}

/// The index lists the demos, [`DEMO`] among them.
fn index(session: &Session<'_>, base: &str, shots: &Path) -> Result<(), String> {
    let page = format!("{base}index.html");
    load(session, &page, INDEX_TIMEOUT)?;
    let links = session.execute(
        "return Array.from(document.querySelectorAll('#demos a')).map(a => a.getAttribute('href'));",
    )?;
    let links: Vec<&str> = links
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(Value::as_str)
        .collect();
    eprintln!(
        "  the index lists {} demo(s): {}",
        links.len(),
        links.join(" ")
    );
    let wanted = format!("demo.html?name={DEMO}");
    if !links.contains(&wanted.as_str()) {
        return Err(format!("{page}: the index does not link {wanted}"));
    }
    save(shots, "index.png", &session.screenshot()?)
}

/// [`DEMO`]'s page draws a canvas of at least two colours.
fn demo(session: &Session<'_>, base: &str, shots: &Path) -> Result<(), String> {
    let page = format!("{base}demo.html?name={DEMO}");
    let status = load(session, &page, DEMO_TIMEOUT)?;
    eprintln!("  {status}");
    save(shots, &format!("{DEMO}.png"), &session.screenshot()?)?;
    let canvas = session.element_screenshot("#canvas")?;
    save(shots, &format!("{DEMO}-canvas.png"), &canvas)?;
    let colours = colours(&canvas)?;
    let total: usize = colours.iter().map(|c| c.1).sum();
    let shown: Vec<String> = colours
        .iter()
        .take(3)
        .map(|(c, n)| {
            format!(
                "#{:02x}{:02x}{:02x} {:.0}%",
                c[0],
                c[1],
                c[2],
                100.0 * *n as f64 / total as f64
            )
        })
        .collect();
    eprintln!("  canvas colours: {}", shown.join(", "));
    // The grid is two colours in equal parts; a blank canvas is one colour.
    let big = colours.iter().filter(|(_, n)| *n * 10 >= total).count();
    if big < 2 {
        return Err(format!(
            "{page}: the canvas looks blank: fewer than two colours cover a tenth of it each ({})",
            shown.join(", ")
        ));
    }
    Ok(())
}

/// The kernels page verifies every kernel; its table is printed whatever the outcome.
fn kernels(session: &Session<'_>, base: &str, shots: &Path) -> Result<(), String> {
    let page = format!("{base}kernels.html");
    let outcome = load(session, &page, KERNELS_TIMEOUT);
    // The table, whatever the outcome: it says which kernel failed and why.
    let rows = session.execute(
        "return Array.from(document.querySelectorAll('#kernels tbody tr'))\
         .map(r => Array.from(r.cells).map(c => c.textContent));",
    )?;
    let rows: Vec<Vec<String>> = rows
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|r| {
            r.as_array()
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .map(|c| c.as_str().unwrap_or("").to_string())
                .collect()
        })
        .collect();
    let width = rows
        .iter()
        .map(|r| r.first().map_or(0, |c| c.chars().count()))
        .max()
        .unwrap_or(0);
    eprintln!("  {:<width$}  {:<8}  {:>7}", "kernel", "result", "ms");
    for row in &rows {
        let cell = |i: usize| row.get(i).map_or("", String::as_str);
        eprintln!("  {:<width$}  {:<8}  {:>7}", cell(0), cell(1), cell(2));
    }
    save(shots, "kernels.png", &session.screenshot()?)?;
    outcome?;
    let failed: Vec<&str> = rows
        .iter()
        .filter(|r| r.get(1).map(String::as_str) != Some("verified"))
        .map(|r| r.first().map_or("", String::as_str))
        .collect();
    if rows.is_empty() || !failed.is_empty() {
        return Err(format!(
            "{page}: {} kernel(s), not verified: {}",
            rows.len(),
            failed.join(", ")
        ));
    }
    eprintln!("  all {} kernels verified in the browser", rows.len());
    Ok(())
}

/// Loads `page` and waits for its ready flag; returns its status line. Fails with the page's
/// own error, or after `timeout`.
pub(crate) fn load(session: &Session<'_>, page: &str, timeout: Duration) -> Result<String, String> {
    eprintln!("loading {page}");
    let started = Instant::now();
    session.navigate(page)?;
    let mut last_report = Instant::now();
    loop {
        let state = session.execute(
            "const s = document.getElementById('status');\
             return [window.shoalReady === true, window.shoalError ? String(window.shoalError) : null,\
                     s ? s.textContent : ''];",
        )?;
        let state = state.as_array().map_or(&[][..], Vec::as_slice);
        let status = state
            .get(2)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if let Some(error) = state.get(1).and_then(Value::as_str) {
            show_console(session);
            return Err(format!("{page}: the page failed: {error}"));
        }
        if state.first() == Some(&Value::Bool(true)) {
            eprintln!("  ready after {:.1} s", started.elapsed().as_secs_f64());
            return Ok(status);
        }
        if started.elapsed() > timeout {
            show_console(session);
            return Err(format!(
                "{page}: not ready after {} s (status: {status})",
                timeout.as_secs()
            ));
        }
        if last_report.elapsed() > Duration::from_secs(15) {
            eprintln!(
                "  … {:.0} s: {}",
                started.elapsed().as_secs_f64(),
                status.replace('\n', " — ")
            );
            last_report = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// Prints the page's console, which says more than the page's own message about a failure.
fn show_console(session: &Session<'_>) {
    match session.console() {
        Ok(lines) if !lines.is_empty() => {
            eprintln!("  the page's console:");
            for line in lines.iter().rev().take(20).rev() {
                // WGSL errors come with their source excerpts: the first lines say enough.
                let short: Vec<&str> = line.lines().take(3).collect();
                eprintln!("    {}", short.join(" ⏎ "));
            }
        }
        Ok(_) => {}
        Err(e) => eprintln!("  (no console: {e})"),
    }
}

/// Writes the screenshot `png` to `dir/name`.
fn save(dir: &Path, name: &str, png: &[u8]) -> Result<(), String> {
    let path = dir.join(name);
    std::fs::write(&path, png).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    eprintln!("  screenshot: {}", path.display());
    Ok(())
}

/// The colours of a PNG and how many pixels have each, most common first.
fn colours(png_bytes: &[u8]) -> Result<Vec<([u8; 3], usize)>, String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder
        .read_info()
        .map_err(|e| format!("the screenshot is not a PNG: {e}"))?;
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader
        .next_frame(&mut pixels)
        .map_err(|e| format!("the screenshot is not a PNG: {e}"))?;
    let channels = info.color_type.samples();
    let mut counts = std::collections::HashMap::<[u8; 3], usize>::new();
    for px in pixels[..info.buffer_size()].chunks_exact(channels) {
        let rgb = match channels {
            1 | 2 => [px[0]; 3],
            _ => [px[0], px[1], px[2]],
        };
        *counts.entry(rgb).or_default() += 1;
    }
    let mut counts: Vec<_> = counts.into_iter().collect();
    counts.sort_by_key(|c| std::cmp::Reverse(c.1));
    Ok(counts)
}
