// What every page of the site does: load the wasm (shoal_demos.js, made by wasm-bindgen), run the
// page's part, and end with window.shoalReady = true or window.shoalError = "what went wrong".
// Automation (cargo xtask test) polls those two; the Rust side sets them for what happens later.
import init, * as shoal from './shoal_demos.js';

window.shoalReady = false;
window.shoalError = null;

/** Runs `run(shoal)` once the wasm is loaded; a failure becomes window.shoalError. */
export async function page(run) {
  try {
    if (!navigator.gpu) {
      throw new Error('this browser has no WebGPU (navigator.gpu is missing): Chrome or ' +
        'Edge 113+, Firefox 141+ on Windows, Safari 26; Chromium on Linux needs --enable-unsafe-webgpu');
    }
    await init();
    await run(shoal);
  } catch (e) {
    const message = String(e && e.message ? e.message : e);
    if (!window.shoalError) {
      window.shoalError = message;
      const status = document.getElementById('status');
      if (status) status.textContent = 'error: ' + message;
    }
  }
}
