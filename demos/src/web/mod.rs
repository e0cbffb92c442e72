//! The web site's code (wasm32 only): what the pages of `cargo xtask web` call.
//!
//! The library is built as a cdylib for `wasm32-unknown-unknown` and bound with
//! `wasm-bindgen --target web`; the pages under `demos/web/` import the bindings and call
//! [`demo_names`], [`run_demo`] and [`run_kernels`]. Every page ends in one of two states that
//! automation polls: `window.shoalReady === true`, or `window.shoalError` holding the message.

mod canvas;
mod kernels;

use wasm_bindgen::prelude::*;
use web_sys::{HtmlCanvasElement, HtmlElement};

use crate::all::NAMES;
use crate::demo::DemoError;

/// The names of every demo, in the registry's order ([`crate::all::NAMES`]): the index lists
/// these.
#[wasm_bindgen]
pub fn demo_names() -> Vec<String> {
    NAMES.iter().map(|n| n.to_string()).collect()
}

/// Runs the demo `name` in `canvas` (resized to the demo's size) on the browser's WebGPU, one
/// frame per `requestAnimationFrame`, and writes frames per second and GPU milliseconds into
/// `readout`. `mode` is the demo's `--mode` (the ray tracer's `scene`, say).
///
/// Resolves once the first frame is under way; sets `window.shoalReady` after
/// three frames have been presented and the GPU has finished them without an
/// error, and `window.shoalError` when anything fails, then or later.
#[wasm_bindgen]
pub async fn run_demo(
    name: String,
    mode: Option<String>,
    canvas: HtmlCanvasElement,
    readout: HtmlElement,
) -> Result<(), JsError> {
    // A panic is a trap in wasm32: the page would just stop. Report it first.
    shoal::report_panics(fail);
    let started: Result<(), DemoError> = crate::with_demo!(
        name.as_str(),
        D => canvas::start::<D>(mode, canvas, readout).await,
        _ => Err(format!("no demo is called `{name}`; the demos are {}", NAMES.join(", ")).into())
    );
    started.map_err(|e| failed(&format!("{name}: {e}")))
}

/// Runs every kernel check of `shoal-kernels` (the registry `showcase::ALL`: each kernel
/// against its CPU twin) on the browser's WebGPU, one after the other, adding a row
/// (kernel, result, milliseconds, what was checked) to `rows` (a `<tbody>`) as each finishes
/// and the adapter and progress to `summary`.
///
/// Sets `window.shoalReady` when every kernel was verified, `window.shoalError` naming the
/// ones that failed otherwise.
#[wasm_bindgen]
pub async fn run_kernels(summary: HtmlElement, rows: HtmlElement) -> Result<(), JsError> {
    // A panic is a trap in wasm32: the page would just stop. Report it first.
    shoal::report_panics(fail);
    kernels::run(summary, rows)
        .await
        .map_err(|e| failed(&format!("kernels: {e}")))
}

/// Says the page is done and well: `window.shoalReady = true`.
fn set_ready() {
    set_flag("shoalReady", &JsValue::TRUE);
}

/// Says the page failed: `window.shoalError = message`, shown in the page's `#status` and
/// logged to the console. The first failure is kept: later ones are usually its consequences.
fn fail(message: &str) {
    web_sys::console::error_1(&JsValue::from_str(message));
    let already = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &JsValue::from_str("shoalError")).ok())
        .is_some_and(|v| v.is_truthy());
    if already {
        return;
    }
    set_flag("shoalError", &JsValue::from_str(message));
    if let Some(status) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("status"))
    {
        status.set_text_content(Some(&format!("error: {message}")));
    }
}

/// [`fail`], and the error to return to the page's script.
fn failed(message: &str) -> JsError {
    fail(message);
    JsError::new(message)
}

fn set_flag(name: &str, value: &JsValue) {
    if let Some(window) = web_sys::window() {
        // Only fails on a frozen `window`, which a page of ours never has.
        let _ = js_sys::Reflect::set(&window, &JsValue::from_str(name), value);
    }
}

/// A JavaScript exception as a [`DemoError`].
fn js_error(context: &str, e: JsValue) -> DemoError {
    let text = e
        .as_string()
        .or_else(|| {
            js_sys::Reflect::get(&e, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| format!("{e:?}"));
    format!("{context}: {text}").into()
}
