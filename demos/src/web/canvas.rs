//! One demo in a canvas: the surface, and the `requestAnimationFrame` loop that runs the demo's
//! compute and draw each frame, as the native window does with winit.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use shoal::{Gpu, wgpu};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{HtmlCanvasElement, HtmlElement};

use super::{fail, js_error, set_ready};
use crate::cli::Options;
use crate::demo::{Demo, DemoError};

/// Frames presented, and finished by the GPU without an error, before the page sets
/// `window.shoalReady`.
pub(super) const READY_FRAMES: u64 = 3;

/// One frame in this many is timed: reading its timestamps waits for the GPU.
const TIMED_EVERY: u64 = 30;

/// A demo running in a canvas.
struct Running<D> {
    gpu: Gpu,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    demo: D,
    readout: HtmlElement,
    frame: u64,
    /// Frames since `since` (milliseconds, the animation clock), for the frame rate.
    counted: (f64, u32),
    fps: f64,
    /// The last timed frame's GPU milliseconds, written when its timestamps arrive.
    gpu_ms: Rc<Cell<f64>>,
    /// Set on the first error: no more frames.
    stopped: Rc<Cell<bool>>,
}

/// Opens the browser's device, makes `canvas` the demo's surface (at the demo's size) and starts
/// the frame loop.
pub(super) async fn start<D: Demo + 'static>(
    mode: Option<String>,
    canvas: HtmlCanvasElement,
    readout: HtmlElement,
) -> Result<(), DemoError> {
    let options = Options {
        headless: false,
        frames: 1,
        out: None,
        size: D::SIZE,
        mode,
    };
    let [width, height] = options.size;
    canvas.set_width(width);
    canvas.set_height(height);
    readout.set_text_content(Some("opening WebGPU…"));
    let gpu = Gpu::new().await?;
    let (Some(instance), Some(adapter)) = (gpu.instance(), gpu.adapter()) else {
        return Err("the device came without its instance and adapter".into());
    };
    // WebGPU's canvases work with every adapter: no need to choose the adapter by the surface.
    let surface = instance.create_surface(wgpu::SurfaceTarget::Canvas(canvas))?;
    let config = surface
        .get_default_config(adapter, width, height)
        .ok_or("the canvas cannot be configured for this adapter")?;
    surface.configure(gpu.device(), &config);
    let demo = D::new(&gpu, &options, config.format)?;
    readout.set_text_content(Some(&format!("running on {}", gpu.adapter_details())));
    animate(Running {
        gpu,
        surface,
        config,
        demo,
        readout,
        frame: 0,
        counted: (0.0, 0),
        fps: 0.0,
        gpu_ms: Rc::new(Cell::new(0.0)),
        stopped: Rc::new(Cell::new(false)),
    })
}

type FrameCallback = Closure<dyn FnMut(f64)>;

/// Runs `state` once per animation frame until it fails.
fn animate<D: Demo + 'static>(state: Running<D>) -> Result<(), DemoError> {
    // The callback asks for the next frame with itself, so it holds a handle to itself: a cycle
    // that keeps it alive as long as the page, which is what a frame loop should live for.
    let callback: Rc<RefCell<Option<FrameCallback>>> = Rc::new(RefCell::new(None));
    let next = Rc::clone(&callback);
    let state = RefCell::new(state);
    *callback.borrow_mut() = Some(Closure::new(move |now: f64| {
        let mut state = state.borrow_mut();
        if state.stopped.get() {
            return;
        }
        let again = state
            .frame(now)
            .and_then(|()| match next.borrow().as_ref() {
                Some(cb) => request_frame(cb),
                None => Ok(()),
            });
        if let Err(e) = again {
            state.stopped.set(true);
            fail(&format!("{}: frame {}: {e}", D::NAME, state.frame));
        }
    }));
    match callback.borrow().as_ref() {
        Some(cb) => request_frame(cb),
        None => Ok(()),
    }
}

fn request_frame(callback: &FrameCallback) -> Result<(), DemoError> {
    let window = web_sys::window().ok_or("no window")?;
    window
        .request_animation_frame(callback.as_ref().unchecked_ref())
        .map_err(|e| js_error("requestAnimationFrame", e))?;
    Ok(())
}

impl<D: Demo + 'static> Running<D> {
    /// Records, submits and presents one frame; `now` is the animation clock in milliseconds.
    fn frame(&mut self, now: f64) -> Result<(), DemoError> {
        let texture = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(self.gpu.device(), &self.config);
                return Ok(());
            }
            // Nothing to draw into this time (a hidden tab, say): try again next frame.
            _ => return Ok(()),
        };
        let view = texture.texture.create_view(&Default::default());
        let frame = self.frame;
        let timed = frame.is_multiple_of(TIMED_EVERY) || frame + 1 == READY_FRAMES;
        let mut commands = if timed {
            self.gpu.commands().profiled()
        } else {
            self.gpu.commands()
        };
        self.demo.update(&mut commands, frame)?;
        self.demo.draw(
            &mut commands,
            &view,
            [self.config.width, self.config.height],
        )?;
        let submission = commands.submit()?;
        self.gpu.queue().present(texture);
        if timed {
            // The browser reports errors (and timestamps) asynchronously: await them beside the
            // loop. Frames that are not timed report theirs at the next submit.
            let (gpu_ms, stopped) = (Rc::clone(&self.gpu_ms), Rc::clone(&self.stopped));
            wasm_bindgen_futures::spawn_local(async move {
                match submission.timings().await {
                    Ok(timings) => {
                        gpu_ms.set(timings.iter().map(|t| t.millis()).sum());
                        if frame + 1 == READY_FRAMES {
                            set_ready();
                        }
                    }
                    Err(e) => {
                        stopped.set(true);
                        fail(&format!("{}: frame {frame}: {e}", D::NAME));
                    }
                }
            });
        }
        self.frame += 1;
        self.count(now);
        Ok(())
    }

    /// Updates the frame rate once a second, and the readout with it.
    fn count(&mut self, now: f64) {
        let (since, frames) = &mut self.counted;
        if *frames == 0 && *since == 0.0 {
            *since = now;
        }
        *frames += 1;
        let elapsed = now - *since;
        if elapsed >= 1000.0 {
            self.fps = f64::from(*frames) * 1000.0 / elapsed;
            self.counted = (now, 0);
        }
        self.readout.set_text_content(Some(&format!(
            "{:.1} fps, GPU {:.2} ms/frame (compute), frame {} — {}",
            self.fps,
            self.gpu_ms.get(),
            self.frame,
            self.gpu.adapter_details()
        )));
    }
}
