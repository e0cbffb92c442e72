//! The bench page (wasm32 only): `demos/web/bench.html` calls [`run_bench`], which runs the same
//! entries as `cargo xtask bench` on the browser's WebGPU, verified the same way, adds a table
//! row as each finishes, and leaves the results for automation: `window.shoalBench` holds the
//! `table`, `json`, `svg` and `md` texts and the files' `stem`, and `window.shoalReady` turns
//! true, or `window.shoalError` holds the message. `cargo xtask bench --browser` reads them
//! through WebDriver and writes `docs/bench/<stem>.{md,json,svg}`.

use shoal::Gpu;
use wasm_bindgen::prelude::*;
use web_sys::HtmlElement;

use crate::harness::{self, Progress};
use crate::primitives;
use crate::report::{Report, Stamp};

/// Runs the primitives `filter` selects (space-separated words, as on the command line; empty
/// for all) from 2^16 up to 2^`max_log2`, writing progress into `status` and a row per result
/// into `rows` (a `<tbody>`). `commit`, `cpu` and `date` stamp the results (each empty when
/// unknown; `cargo xtask bench --browser` passes them in the page's address).
#[wasm_bindgen]
pub async fn run_bench(
    status: HtmlElement,
    rows: HtmlElement,
    filter: String,
    max_log2: u32,
    commit: String,
    cpu: String,
    date: String,
) -> Result<(), JsError> {
    // A panic is a trap in wasm32: the page would just stop. Report it first.
    shoal::report_panics(fail);
    let known = |s: String| (!s.is_empty()).then_some(s);
    let filter: Vec<String> = filter.split_whitespace().map(str::to_string).collect();
    let stamp = Stamp {
        commit: known(commit),
        cpu: known(cpu),
        date: known(date),
        filter,
    };
    run(&status, &rows, max_log2, stamp).await.map_err(|e| {
        fail(&e);
        JsError::new(&e)
    })
}

/// [`run_bench`], its errors as messages.
async fn run(
    status: &HtmlElement,
    rows: &HtmlElement,
    max_log2: u32,
    stamp: Stamp,
) -> Result<(), String> {
    status.set_text_content(Some("opening WebGPU…"));
    let gpu = Gpu::new().await.map_err(|e| e.to_string())?;
    let adapter = format!(
        "{} (timing: {})",
        gpu.adapter_details(),
        harness::timing_source(&gpu)
    );
    let entries = primitives::selected(&stamp.filter);
    let sizes = primitives::sizes(max_log2);
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let mut failure = None;
    let measured = harness::run(&gpu, &entries, &sizes, &mut |p| match p {
        Progress::Started {
            done,
            total,
            name,
            log2,
        } => status.set_text_content(Some(&format!(
            "{adapter}\nmeasuring {done}/{total}: {name} at 2^{log2}…"
        ))),
        Progress::Finished { row, .. } => {
            if let Err(e) = add_row(&document, rows, row) {
                failure.get_or_insert(e);
            }
        }
    })
    .await?;
    if let Some(e) = failure {
        return Err(e);
    }
    let report = Report::new(&gpu, stamp, measured);
    let results = js_sys::Object::new();
    for (key, text) in [
        ("table", report.table()),
        ("json", report.json()?),
        ("svg", report.svg()),
        ("md", report.markdown()),
        ("stem", report.stem()),
    ] {
        js_sys::Reflect::set(&results, &key.into(), &text.into())
            .map_err(|_| "cannot set the results")?;
    }
    set_flag("shoalBench", &results);
    status.set_text_content(Some(&format!(
        "{adapter}\n{} results, every one verified against the CPU",
        report.rows.len()
    )));
    set_flag("shoalReady", &JsValue::TRUE);
    Ok(())
}

/// Appends `row` to the table: the milliseconds and their ratios.
fn add_row(
    document: &web_sys::Document,
    rows: &HtmlElement,
    row: &harness::Row,
) -> Result<(), String> {
    let tr = document
        .create_element("tr")
        .map_err(|_| "cannot make a row")?;
    let or_dash = |v: Option<f64>| v.map_or("–".to_string(), |v| format!("{v:.3}"));
    let cells = [
        row.name.clone(),
        format!("2^{}", row.n.trailing_zeros()),
        format!("{:.3}", row.gpu_ms),
        format!("{:.3}", row.copy_ms),
        format!("{:.2}", row.gpu_ms / row.copy_ms),
        format!("{:.3}", row.cpu_ms),
        or_dash(row.peer_ms),
        row.peer_ms
            .map_or("–".to_string(), |p| format!("{:.2}", p / row.gpu_ms)),
        "verified".to_string(),
    ];
    for text in cells {
        let td = document
            .create_element("td")
            .map_err(|_| "cannot make a cell")?;
        td.set_text_content(Some(&text));
        tr.append_child(&td).map_err(|_| "cannot fill a row")?;
    }
    rows.append_child(&tr).map_err(|_| "cannot add a row")?;
    Ok(())
}

/// Says the page failed: `window.shoalError = message`, also in the page's `#status`.
fn fail(message: &str) {
    web_sys::console::error_1(&JsValue::from_str(message));
    set_flag("shoalError", &JsValue::from_str(message));
    if let Some(status) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("status"))
    {
        status.set_text_content(Some(&format!("error: {message}")));
    }
}

/// Sets `window[name]`.
fn set_flag(name: &str, value: &JsValue) {
    if let Some(window) = web_sys::window() {
        // Only fails on a frozen `window`, which the page never has.
        let _ = js_sys::Reflect::set(&window, &JsValue::from_str(name), value);
    }
}
