//! The device's health as Shoal tracks it: errors wgpu reports (error scopes around every call,
//! the uncaptured-error handler, chained to the application's), device loss, the deadline of
//! waits and the GL turn (`wait.rs`).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::error::{Error, Result};
use crate::gpu::Gpu;
#[cfg(not(target_arch = "wasm32"))]
use crate::turn::Waiting;
use crate::turn::{Turn, TurnLock};
use crate::wait::DEFAULT_TIMEOUT;

/// The application's handler of errors no error scope captured, given to
/// [`Gpu::from_wgpu_chained`]; Shoal calls it for every error it does not report itself.
pub type ErrorHandler = Arc<dyn Fn(wgpu::Error) + Send + Sync + 'static>;

/// The application's device-lost callback, given to [`Gpu::from_wgpu_chained`]; Shoal calls
/// it after marking the `Gpu` lost.
pub type LostHandler = Box<dyn Fn(wgpu::DeviceLostReason, String) + Send + 'static>;

/// What [`Gpu`] keeps about its device's health.
pub(crate) struct Health {
    /// Errors wgpu reported outside any scope, each naming the call when known.
    uncaptured: Arc<Mutex<Vec<String>>>,
    /// Why the device was lost, once it is.
    lost: Arc<Mutex<Option<String>>>,
    /// The deadline of waits, in nanoseconds.
    timeout_nanos: AtomicU64,
    /// Taken around wgpu calls on GL (`wait.rs`); `None` on other backends.
    turn: Option<Arc<TurnLock>>,
    /// Taken around polls and Shoal's calls on other backends: wgpu-core 30 asserts (and
    /// panics) when two threads poll one device at once (`queue.submit` polls too) and one
    /// retires the other's submission between its fence read and its queue check. (The
    /// browser polls by itself.)
    #[cfg(not(target_arch = "wasm32"))]
    polling: Arc<TurnLock>,
    /// The last submission Shoal made on this device: a readback waits for it (with the
    /// deadline) before submitting its copy, since lavapipe's `vkQueueSubmit` blocks until the
    /// work submitted before has run (`readback.rs`).
    /// Numbered in the order of the submits (taken inside the submitting call's turn), so that
    /// a thread noting its submission late does not replace a later one.
    #[cfg(not(target_arch = "wasm32"))]
    last_submission: Mutex<Option<(u64, wgpu::SubmissionIndex)>>,
    #[cfg(not(target_arch = "wasm32"))]
    submits: AtomicU64,
    /// Error scopes popped in the browser: the number of the next, and those whose answer has
    /// not arrived yet.
    #[cfg(target_arch = "wasm32")]
    popped: AtomicU64,
    #[cfg(target_arch = "wasm32")]
    unanswered: Arc<Mutex<std::collections::BTreeSet<u64>>>,
}

impl Health {
    /// Installs Shoal's uncaptured-error handler and device-lost callback on `device`, each
    /// calling the application's after Shoal's own work when one is given.
    pub(crate) fn install(
        device: &wgpu::Device,
        app_errors: Option<ErrorHandler>,
        app_lost: Option<LostHandler>,
    ) -> Self {
        let uncaptured = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&uncaptured);
        // wgpu's default handler panics. With no application handler, Shoal keeps the error
        // and the next wait or readback returns it; with one, the error is the application's
        // (Shoal's own calls are inside error scopes, so what arrives here is not Shoal's).
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| match &app_errors {
            Some(app) => app(e),
            None => {
                log::error!("wgpu: {e}");
                sink.lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push(e.to_string());
            }
        }));
        let lost = Arc::new(Mutex::new(None));
        let flag = Arc::clone(&lost);
        device.set_device_lost_callback(move |reason, message| {
            flag.lock()
                .unwrap_or_else(|p| p.into_inner())
                .get_or_insert_with(|| format!("{reason:?}: {message}"));
            if let Some(app) = &app_lost {
                app(reason, message);
            }
        });
        let gl = device.adapter_info().backend == wgpu::Backend::Gl;
        Self {
            uncaptured,
            lost,
            timeout_nanos: AtomicU64::new(DEFAULT_TIMEOUT.as_nanos() as u64),
            turn: gl.then(gl_turn),
            #[cfg(not(target_arch = "wasm32"))]
            polling: Arc::default(),
            #[cfg(not(target_arch = "wasm32"))]
            last_submission: Mutex::new(None),
            #[cfg(not(target_arch = "wasm32"))]
            submits: AtomicU64::new(0),
            #[cfg(target_arch = "wasm32")]
            popped: AtomicU64::new(0),
            #[cfg(target_arch = "wasm32")]
            unanswered: Arc::default(),
        }
    }
}

impl Gpu {
    /// Whether the device is lost (destroyed with [`Gpu::destroy`], or lost by the driver).
    /// Every call after a loss fails with [`Error::DeviceLost`]; to recover, make a new `Gpu`
    /// and re-create the resources and kernels on it (`docs/errors.md`, "Recovering from a
    /// lost device").
    pub fn is_lost(&self) -> bool {
        self.lost_reason().is_some()
    }

    fn lost_reason(&self) -> Option<String> {
        self.health()
            .lost
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Destroys the device now: its memory is freed, work not yet finished is abandoned, and
    /// every later call on this `Gpu`, its clones and its resources fails with
    /// [`Error::DeviceLost`]. For freeing a device eagerly, and for testing recovery from a
    /// device loss.
    pub fn destroy(&self) {
        self.health()
            .lost
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert_with(|| "destroyed by Gpu::destroy".into());
        let _turn = self.call_turn();
        self.device().destroy();
        // wgpu runs the device-lost callbacks (the application's, when chained) at a poll; one
        // that panics on the lost device (wgpu 30 does where its back end reports the loss) has
        // nothing more to say.
        #[cfg(not(target_arch = "wasm32"))]
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.device().poll(wgpu::PollType::Poll)
        }));
    }

    /// Sets the deadline of waits and readbacks on this `Gpu` and its clones (default
    /// [`DEFAULT_TIMEOUT`], 60 s): a wait that has not seen the GPU finish by then fails with
    /// [`Error::Timeout`]. The work itself is not cancelled (the GPU cannot abandon a
    /// dispatch): it still runs, and a later wait or read sees its result.
    ///
    /// In the browser nothing can poll or block, and a readback is the browser's promise: the
    /// deadline is not applied there. On llvmpipe (GL) a submission runs its kernels inside
    /// the call that submits it, so a long kernel makes the submitting call slow and the wait
    /// that follows immediate. On lavapipe (Vulkan) a submission returns at once, but the next
    /// one does not return until the work before it has run (the driver waits inside
    /// `vkQueueSubmit`): [`Submission::wait`](crate::Submission::wait) honours the deadline,
    /// and a readback waits for Shoal's earlier submissions (with the deadline) before it
    /// submits its copy, but a [`Commands::submit`](crate::Commands::submit) behind a long
    /// kernel is slow.
    pub fn set_timeout(&self, timeout: Duration) {
        let nanos = timeout.as_nanos().min(u64::MAX as u128) as u64;
        self.health().timeout_nanos.store(nanos, Ordering::Relaxed);
    }

    /// The deadline of waits and readbacks (see [`set_timeout`](Self::set_timeout)).
    pub fn timeout(&self) -> Duration {
        Duration::from_nanos(self.health().timeout_nanos.load(Ordering::Relaxed))
    }

    /// Fails with [`Error::DeviceLost`] once the device is lost; `what` names the call.
    pub(crate) fn check_alive(&self, what: &str) -> Result<()> {
        match self.lost_reason() {
            Some(reason) => Err(Error::DeviceLost {
                what: what.to_string(),
                reason,
            }),
            None => Ok(()),
        }
    }

    /// Runs `f` holding Shoal's GL turn (on other backends, the lock Shoal's own polls of the
    /// device take), for raw wgpu calls on [`Gpu::device`] such as creating a render pipeline,
    /// or polling a device shared with [`Gpu::from_wgpu`]. On GL, wgpu panics when its context
    /// lock waits more than 6 seconds, as it does while another thread compiles a large kernel;
    /// inside the turn such a call waits for Shoal's turn instead, without a limit that panics.
    /// Elsewhere wgpu-core 30 panics when two threads poll one device at once: an application
    /// that polls a device Shoal also uses does it inside `with_turn`.
    pub fn with_turn<R>(&self, f: impl FnOnce() -> R) -> R {
        let _turn = self.call_turn();
        f()
    }

    /// The GL turn (waited for), or nothing on other backends.
    pub(crate) fn turn(&self) -> Turn {
        match &self.health().turn {
            Some(lock) => TurnLock::take(lock),
            None => Turn::none(),
        }
    }

    /// The GL turn's lock (`None` on other backends), for what takes the turn without a `Gpu`.
    pub(crate) fn turn_lock(&self) -> Option<Arc<TurnLock>> {
        self.health().turn.clone()
    }

    /// The turn for a call that may submit (and so poll): the GL turn on GL, the polling lock
    /// elsewhere.
    fn call_turn(&self) -> Turn {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let health = self.health();
            TurnLock::take(health.turn.as_ref().unwrap_or(&health.polling))
        }
        #[cfg(target_arch = "wasm32")]
        self.turn()
    }

    /// The GL turn if free now, else in line for it (`waiting`, kept between tries); on other
    /// backends, no turn: always free.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn try_turn(&self, waiting: &mut Option<Waiting>) -> Option<Turn> {
        match &self.health().turn {
            Some(lock) => TurnLock::try_take(lock, waiting),
            None => Some(Turn::none()),
        }
    }

    /// Destroys `buffer` under the GL turn without waiting for it: now if it is free, else by
    /// the thread holding it as it passes the turn on (on other backends, now).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn bury(&self, buffer: wgpu::Buffer) {
        match &self.health().turn {
            Some(lock) => TurnLock::bury(lock, Box::new(buffer)),
            None => drop(buffer),
        }
    }

    /// The turn to poll the device, if free now, else in line for it (`waiting`, kept between
    /// tries): the GL turn on GL, the polling lock elsewhere.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn try_poll_turn(&self, waiting: &mut Option<Waiting>) -> Option<Turn> {
        let health = self.health();
        TurnLock::try_take(health.turn.as_ref().unwrap_or(&health.polling), waiting)
    }

    /// The number of a submit about to be made: taken inside the call that submits (in its
    /// turn), so numbers follow the order of the submits.
    pub(crate) fn submit_number(&self) -> u64 {
        #[cfg(not(target_arch = "wasm32"))]
        return self.health().submits.fetch_add(1, Ordering::Relaxed);
        #[cfg(target_arch = "wasm32")]
        0
    }

    /// Notes `index`, the submit numbered `number` (which succeeded), as the last submission
    /// Shoal made, unless a later-numbered one was noted first (natively; see `Health`).
    pub(crate) fn submitted(&self, number: u64, index: &wgpu::SubmissionIndex) {
        #[cfg(not(target_arch = "wasm32"))]
        {
            let last = self.health().last_submission.lock();
            let mut last = last.unwrap_or_else(|p| p.into_inner());
            if last.as_ref().is_none_or(|(n, _)| *n < number) {
                *last = Some((number, index.clone()));
            }
        }
        #[cfg(target_arch = "wasm32")]
        let _ = (number, index);
    }

    /// The last submission Shoal made on this device, if any (natively).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn last_submission(&self) -> Option<wgpu::SubmissionIndex> {
        let last = self.health().last_submission.lock();
        last.unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map(|(_, i)| i.clone())
    }

    /// Errors wgpu reported outside any Shoal check since the last call, emptied.
    fn take_uncaptured(&self) -> Option<String> {
        let mut v = self.health().uncaptured.lock().ok()?;
        if v.is_empty() {
            None
        } else {
            Some(std::mem::take(&mut *v).join("; "))
        }
    }

    /// Fails with what wgpu reported since the last check, if anything (after a loss, with
    /// [`Error::DeviceLost`]). In the browser, first awaits the answers of the error scopes
    /// popped so far, so a wait or readback returns the errors of the calls before it.
    pub(crate) async fn check_settled(&self, context: &str) -> Result<()> {
        #[cfg(target_arch = "wasm32")]
        self.settle_scopes().await;
        self.check_uncaptured(context)
    }

    /// Fails with what wgpu reported since the last check, if anything (after a loss, with
    /// [`Error::DeviceLost`]).
    pub(crate) fn check_uncaptured(&self, context: &str) -> Result<()> {
        self.check_alive(context)?;
        match self.take_uncaptured() {
            Some(message) => Err(Error::Wgpu {
                context: context.to_string(),
                message,
            }),
            None => Ok(()),
        }
    }

    /// Runs `f` (which calls wgpu) inside error scopes, on the GL turn, after checking that
    /// the device is not lost, and returns what wgpu reported as an error, naming `context`.
    ///
    /// Natively the scopes resolve at once and the call that caused an error returns it. In
    /// the browser a scope's answer arrives later: it is awaited in the background and the next
    /// wait or readback returns the error, still naming `context`.
    pub(crate) fn scoped<R>(&self, context: &str, f: impl FnOnce() -> R) -> Result<R> {
        self.check_alive(context)?;
        let _turn = self.call_turn();
        let device = self.device();
        // Internal catches what a back end refuses after validation passed (a GLSL program that
        // does not link on GL, say); without it those errors reach the uncaptured sink later.
        let internal = device.push_error_scope(wgpu::ErrorFilter::Internal);
        let oom = device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let validation = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let out = f();
        #[cfg(not(target_arch = "wasm32"))]
        {
            let v = now_or_later(validation.pop());
            let o = now_or_later(oom.pop());
            let i = now_or_later(internal.pop());
            if let Some(e) = v.or(o).or(i) {
                self.check_alive(context)?;
                return Err(Error::Wgpu {
                    context: context.to_string(),
                    message: e.to_string(),
                });
            }
        }
        #[cfg(target_arch = "wasm32")]
        self.pop_later(context, [validation.pop(), oom.pop(), internal.pop()]);
        Ok(out)
    }

    /// Awaits the popped scopes in the background and keeps their errors for the next check.
    #[cfg(target_arch = "wasm32")]
    fn pop_later(
        &self,
        context: &str,
        pops: [impl std::future::Future<Output = Option<wgpu::Error>> + 'static; 3],
    ) {
        let health = self.health();
        let (sink, unanswered) = (
            Arc::clone(&health.uncaptured),
            Arc::clone(&health.unanswered),
        );
        let context = context.to_string();
        let number = health.popped.fetch_add(1, Ordering::SeqCst);
        unanswered
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(number);
        wasm_bindgen_futures::spawn_local(async move {
            for pop in pops {
                if let Some(e) = pop.await {
                    sink.lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .push(format!("{context}: {e}"));
                }
            }
            unanswered
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&number);
        });
    }

    /// Waits until every scope popped before this call has answered (each answer is a browser
    /// promise that settles after the work before it; yields to the browser's event loop
    /// between looks). Scopes popped meanwhile, by calls after this one, are not waited for:
    /// a page that submits every frame would otherwise never settle.
    #[cfg(target_arch = "wasm32")]
    async fn settle_scopes(&self) {
        let health = self.health();
        let before = health.popped.load(Ordering::SeqCst);
        let earliest = || {
            let unanswered = health.unanswered.lock().unwrap_or_else(|p| p.into_inner());
            unanswered.first().copied()
        };
        while earliest().is_some_and(|n| n < before) {
            let tick = js_sys::Promise::new(&mut |resolve, _| {
                let _ = web_sys_set_timeout(&resolve);
            });
            let _ = wasm_bindgen_futures::JsFuture::from(tick).await;
        }
    }
}

/// `setTimeout(resolve, 1)` through the global object, without a web-sys dependency.
#[cfg(target_arch = "wasm32")]
fn web_sys_set_timeout(
    resolve: &js_sys::Function,
) -> std::result::Result<(), wasm_bindgen::JsValue> {
    let global = js_sys::global();
    let set_timeout = js_sys::Reflect::get(&global, &"setTimeout".into())?;
    let set_timeout: js_sys::Function = set_timeout.into();
    set_timeout.call2(&global, resolve, &1.into())?;
    Ok(())
}

/// Polls a future once; wgpu-core resolves error scopes immediately.
#[cfg(not(target_arch = "wasm32"))]
fn now_or_later<F: std::future::Future<Output = Option<wgpu::Error>>>(
    fut: F,
) -> Option<wgpu::Error> {
    let mut fut = std::pin::pin!(fut);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match fut.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(e) => e,
        std::task::Poll::Pending => None,
    }
}

/// The one GL turn of the process: wgpu's GL devices on one adapter share its context lock (and
/// panic after waiting 6 s for it), so two `Gpu`s there take turns with each other, not each with
/// itself.
fn gl_turn() -> Arc<TurnLock> {
    static TURN: std::sync::OnceLock<Arc<TurnLock>> = std::sync::OnceLock::new();
    Arc::clone(TURN.get_or_init(Arc::default))
}
