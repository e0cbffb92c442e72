//! The kernels page: every self-check of `shoal-kernels` in the browser, as a table.

use shoal::Gpu;
use wasm_bindgen::prelude::*;
use web_sys::HtmlElement;

use super::{fail, js_error, set_ready};
use crate::demo::DemoError;

/// Runs the checks one by one, a row for each; see [`super::run_kernels`].
pub(super) async fn run(summary: HtmlElement, rows: HtmlElement) -> Result<(), DemoError> {
    summary.set_text_content(Some("opening WebGPU…"));
    let gpu = Gpu::new().await?;
    let limits = gpu.limits();
    let adapter = format!(
        "{}: {} invocations per work group, {} KiB of workgroup storage, subgroups {}, timestamps {}",
        gpu.adapter_details(),
        limits.max_compute_work_group_invocations,
        limits.max_compute_shared_memory_size / 1024,
        yes_no(gpu.has_subgroups()),
        yes_no(gpu.has_timestamps()),
    );
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let checks = shoal_kernels::showcase::ALL;
    let mut failed = Vec::new();
    for (i, entry) in checks.iter().enumerate() {
        let (name, check) = (entry.name, entry.check);
        summary.set_text_content(Some(&format!(
            "{adapter}\nchecking {}/{}: {name}…",
            i + 1,
            checks.len()
        )));
        let row = document
            .create_element("tr")
            .map_err(|e| js_error("a table row", e))?;
        let cells = [name, "running…", "", ""].map(|text| {
            let cell = document.create_element("td")?;
            cell.set_text_content(Some(text));
            row.append_child(&cell)?;
            Ok::<_, JsValue>(cell)
        });
        rows.append_child(&row)
            .map_err(|e| js_error("a table row", e))?;
        let started = web_time::Instant::now();
        let outcome = check(&gpu).await;
        let ms = started.elapsed().as_secs_f64() * 1e3;
        let (status, detail) = match outcome {
            Ok(detail) => ("verified", detail),
            Err(e) => {
                // The row has the whole message; the summary its first line.
                let first = e.lines().next().unwrap_or("");
                failed.push(format!("{name} ({first})"));
                ("FAILED", e)
            }
        };
        let _ = row.set_attribute("data-status", status);
        for (cell, text) in cells
            .iter()
            .zip([name, status, &format!("{ms:.0}"), &detail])
        {
            if let Ok(cell) = cell {
                cell.set_text_content(Some(text));
            }
        }
    }
    let verdict = if failed.is_empty() {
        format!(
            "all {} kernels verified against their CPU twins",
            checks.len()
        )
    } else {
        format!("{} of {} kernels FAILED", failed.len(), checks.len())
    };
    summary.set_text_content(Some(&format!("{adapter}\n{verdict}")));
    if failed.is_empty() {
        set_ready();
    } else {
        fail(&format!("{verdict}: {}", failed.join("; ")));
    }
    Ok(())
}

fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}
