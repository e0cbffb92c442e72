//! `cargo xtask bench --browser`: the bench page (`demos/web/bench.html`, `shoal-bench`'s
//! library built for wasm32 in release) in headless Chromium on WebGPU (SwiftShader), driven
//! through WebDriver as the page test drives the site. The page runs the same entries and the
//! same verification as the native benchmark; this reads its table, JSON and plot back
//! (`window.shoalBench`), prints the table and writes `docs/bench/webgpu-<adapter>.{md,json,svg}`
//! as the native run writes `<backend>-<adapter>.*`.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::bench_stamp::Stamp;
use crate::pages::{load, with_chromium};
use crate::site::{BENCH, build};
use crate::web::BrowserTools;

/// The largest size (log2) in the browser when `SHOAL_BENCH_MAX_LOG2` is not set: the whole
/// page at 2^16 takes minutes on SwiftShader, at 2^20 tens of minutes (docs/bench/webgpu-swiftshader.md).
const DEFAULT_MAX_LOG2: u32 = 16;

/// How long the whole page may take: SwiftShader on two cores is slow
/// (docs/bench/webgpu-swiftshader.md has a run's times); past this the command fails and says where the page got to.
const TIMEOUT: Duration = Duration::from_secs(3 * 3600);

/// Beside the suites' flags: Chromium rounds WebGPU timestamps to 100 µs unless told not to,
/// coarser than the small sizes' times.
const BENCH_FLAGS: &[&str] = &["--disable-dawn-features=timestamp_quantization"];

/// Builds the bench page, runs it with `filter` (the primitives' names, as natively) and writes
/// its results, stamped with `stamp`.
pub(crate) fn run(
    tools: &BrowserTools,
    root: &Path,
    target: &Path,
    filter: &[String],
    stamp: &Stamp,
) -> Result<(), String> {
    let site = build(root, target, &tools.wasm.wasm_bindgen, true, &[BENCH])?;
    let max_log2 = std::env::var("SHOAL_BENCH_MAX_LOG2")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_MAX_LOG2)
        .clamp(16, 24);
    let out = root.join("docs").join("bench");
    std::fs::create_dir_all(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let web = target.join("shoal").join("web");
    with_chromium(tools, &site, &web, BENCH_FLAGS, |session, base| {
        let words: Vec<&str> = filter
            .iter()
            .map(String::as_str)
            .filter(|w| *w != "--")
            .collect();
        let page = format!(
            "{}bench.html?autostart=1&max_log2={max_log2}&filter={}&commit={}&cpu={}&date={}",
            base,
            url_encode(&words.join(" ")),
            url_encode(&stamp.commit),
            url_encode(&stamp.cpu),
            url_encode(&stamp.date),
        );
        let status = load(session, &page, TIMEOUT)?;
        eprintln!("  {}", status.replace('\n', " — "));
        let results = session.execute("return window.shoalBench;")?;
        let text = |key: &str| {
            results
                .get(key)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| format!("the page's results have no `{key}`"))
        };
        println!("\n{}", text("table")?);
        let stem = text("stem")?;
        for ext in ["md", "json", "svg"] {
            let path = out.join(format!("{stem}.{ext}"));
            std::fs::write(&path, text(ext)?)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            println!("written: {}", path.display());
        }
        Ok(())
    })
}

/// `text` for a URL's query: letters, digits and `-._~` as they are, every other byte as `%XX`.
fn url_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::url_encode;

    #[test]
    fn query_values_are_percent_encoded() {
        assert_eq!(
            url_encode("scan u32 (look-back)"),
            "scan%20u32%20%28look-back%29"
        );
        assert_eq!(url_encode("abc-1.2_3~"), "abc-1.2_3~");
    }
}
