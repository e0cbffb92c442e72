//! Waiting for the GPU without hanging, without blocking an executor, and without wgpu's GL
//! context-lock panic.
//!
//! - **Deadline.** A wait or readback gives up with [`Error::Timeout`] after the `Gpu`'s
//!   [`timeout`](crate::Gpu::timeout) (default [`DEFAULT_TIMEOUT`]). Natively the device is
//!   polled without blocking (`PollType::Wait` with a zero timeout), so the deadline is checked
//!   between polls. In the browser nothing can block or poll: there the wait is the browser's
//!   promise, and the deadline is not applied (see [`crate::Gpu::set_timeout`]). Calls that
//!   submit are not polls: on llvmpipe (GL) `queue.submit` runs the kernels before it returns,
//!   and on lavapipe (Vulkan) it does not return while the work submitted before it runs
//!   (wgpu chains each submission to the previous one with a semaphore, and lavapipe waits for
//!   it inside `vkQueueSubmit`). `Submission::wait` honours the deadline on both; on lavapipe
//!   a readback first waits, within its deadline, for the last submission Shoal made
//!   (`readback.rs`), so its own submit does not block; a `Commands::submit` behind a long
//!   kernel is slow there.
//! - **No blocked executor.** Between two polls a native wait returns `Pending` and is woken
//!   again by a small timer thread ([`later`]), so two reads awaited together on one thread
//!   both progress; the blocking conveniences (`read_blocking`, `wait_blocking`) park the thread
//!   meanwhile instead of spinning.
//! - **One GL caller at a time.** wgpu's GL backend holds one context lock for every call and
//!   panics when a thread waits more than 6 s for it; on llvmpipe a submission runs the
//!   kernels inside `submit`, holding that lock the whole time. So on GL every Shoal call that
//!   reaches wgpu takes the `Gpu`'s turn first ([`TurnLock`], a plain lock with no time limit),
//!   and waits take it only for each short poll; a readback tries it between yields within its
//!   deadline ([`turn_by`]), standing in line so that a thread taking the turn over and over
//!   does not win every time, and what it gives up past the deadline is buried
//!   ([`TurnLock::bury`]) for the turn's holder to destroy (`turn.rs`). On other backends a
//!   lighter lock serialises the calls that may poll the device (submits and polls), because
//!   wgpu-core 30 panics on an assertion when two threads poll one device at once.

use std::time::Duration;

#[cfg(not(target_arch = "wasm32"))]
use crate::error::{Error, Result};
#[cfg(not(target_arch = "wasm32"))]
use crate::gpu::Gpu;
#[cfg(doc)]
use crate::turn::TurnLock;
#[cfg(not(target_arch = "wasm32"))]
use crate::turn::{Turn, Waiting};

/// The default deadline of waits and readbacks: 60 s, well above the slowest wait and the
/// slowest submission seen in the kernels' suite on llvmpipe (`SHOAL_BACKEND=gl cargo test -p
/// shoal-kernels`, test threads sharing one `Gpu` on two busy cores), where a wait can stand
/// behind other threads' submissions for the GL turn and llvmpipe runs the kernels inside
/// `submit`, which no deadline can interrupt.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// How long a native wait sleeps between two polls of the device.
#[cfg(not(target_arch = "wasm32"))]
const SLICE: Duration = Duration::from_micros(250);

/// Natively: polls the device until submission `index` has finished and `done()` holds (a map
/// callback has run, say), yielding to the executor between polls; fails with
/// [`Error::Timeout`] once the `Gpu`'s deadline has passed since `started` (the call's start,
/// shared by a call that waits twice) and [`Error::DeviceLost`] once the device is lost. `what`
/// names the call in errors.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) async fn until_done(
    gpu: &Gpu,
    index: &wgpu::SubmissionIndex,
    what: &str,
    done: impl Fn() -> bool,
    started: std::time::Instant,
) -> Result<()> {
    let limit = gpu.timeout();
    let mut waiting = None;
    loop {
        gpu.check_alive(what)?;
        // Another thread's GL call may hold the turn (a long llvmpipe submit): poll later, in
        // line for it.
        if let Some(_turn) = gpu.try_poll_turn(&mut waiting) {
            let poll = || {
                gpu.device().poll(wgpu::PollType::Wait {
                    submission_index: Some(index.clone()),
                    timeout: Some(Duration::ZERO),
                })
            };
            // wgpu 30 panics in `poll` when the device is lost during the wait (its back end
            // reports the loss as an error `poll` has no variant for), after the lost callback
            // has run: that is `DeviceLost`, any other panic goes on.
            let polled = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(poll)) {
                Ok(polled) => polled,
                Err(panic) => {
                    gpu.check_alive(what)?;
                    std::panic::resume_unwind(panic)
                }
            };
            match polled {
                Ok(_) if done() => return Ok(()),
                Ok(_) | Err(wgpu::PollError::Timeout) => {}
                Err(e) => {
                    gpu.check_alive(what)?;
                    return Err(Error::Wgpu {
                        context: what.to_string(),
                        message: e.to_string(),
                    });
                }
            }
        }
        within(what, started, limit)?;
        later().await;
    }
}

/// [`Error::Timeout`] once `limit` has passed since `started`.
#[cfg(not(target_arch = "wasm32"))]
fn within(what: &str, started: std::time::Instant, limit: Duration) -> Result<()> {
    let waited = started.elapsed();
    if waited >= limit {
        return Err(Error::Timeout {
            what: what.to_string(),
            waited,
            limit,
        });
    }
    Ok(())
}

/// Natively: a turn, tried with `try_take` (`Gpu::try_poll_turn` for a call that may submit,
/// `Gpu::try_turn` for one that only reaches wgpu's GL context) between yields to the executor,
/// so that behind another thread's long llvmpipe submission a readback ends with
/// [`Error::Timeout`] at its deadline (the `Gpu`'s timeout since `started`) instead of waiting
/// for it. The turn is the calling thread's: use it before the next `.await`.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) async fn turn_by(
    gpu: &Gpu,
    try_take: impl Fn(&mut Option<Waiting>) -> Option<Turn>,
    what: &str,
    started: std::time::Instant,
) -> Result<Turn> {
    let limit = gpu.timeout();
    let mut waiting = None;
    loop {
        gpu.check_alive(what)?;
        if let Some(turn) = try_take(&mut waiting) {
            return Ok(turn);
        }
        within(what, started, limit)?;
        later().await;
    }
}

/// A future that is pending once and ready after about [`SLICE`]: a timer thread wakes it, so
/// the thread awaiting it is free meanwhile.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn later() -> Later {
    Later { asked: false }
}

/// See [`later`].
#[cfg(not(target_arch = "wasm32"))]
pub(crate) struct Later {
    asked: bool,
}

#[cfg(not(target_arch = "wasm32"))]
impl std::future::Future for Later {
    type Output = ();
    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<()> {
        if self.asked {
            return std::task::Poll::Ready(());
        }
        self.asked = true;
        timer::wake_later(cx.waker().clone());
        std::task::Poll::Pending
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod timer {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Condvar, Mutex, Once};
    use std::task::Waker;

    /// Set when the thread could not start: then wakers are woken at once (a busy wait, but
    /// never a hang).
    static NO_THREAD: AtomicBool = AtomicBool::new(false);

    static WAITING: Mutex<Vec<Waker>> = Mutex::new(Vec::new());
    static SOME: Condvar = Condvar::new();
    static START: Once = Once::new();

    /// Wakes `waker` after about one slice, from the timer thread (started on first use; it
    /// sleeps on a condition variable while nothing waits).
    pub(super) fn wake_later(waker: Waker) {
        START.call_once(|| {
            let spawned = std::thread::Builder::new()
                .name("shoal-timer".into())
                .spawn(run);
            if let Err(e) = spawned {
                log::error!("shoal: cannot start the timer thread: {e}");
                NO_THREAD.store(true, Ordering::Relaxed);
            }
        });
        if NO_THREAD.load(Ordering::Relaxed) {
            waker.wake();
            return;
        }
        WAITING
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(waker);
        SOME.notify_one();
    }

    fn run() {
        loop {
            {
                let mut waiting = WAITING.lock().unwrap_or_else(|e| e.into_inner());
                while waiting.is_empty() {
                    waiting = SOME.wait(waiting).unwrap_or_else(|e| e.into_inner());
                }
            }
            std::thread::sleep(super::SLICE);
            let wakers = std::mem::take(&mut *WAITING.lock().unwrap_or_else(|e| e.into_inner()));
            for waker in wakers {
                waker.wake();
            }
        }
    }
}
