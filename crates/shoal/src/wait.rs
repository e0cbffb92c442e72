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
//!   reaches wgpu takes the `Gpu`'s [`TurnLock`] first (a plain lock with no time limit), and
//!   waits take it only for each short poll; a readback tries it between yields within its
//!   deadline ([`turn_by`]), and what it gives up past the deadline is buried
//!   ([`TurnLock::bury`]) for the turn's holder to destroy. On other backends a lighter lock serialises the
//!   calls that may poll the device (submits and polls), because wgpu-core 30 panics on an
//!   assertion when two threads poll one device at once.

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

#[cfg(not(target_arch = "wasm32"))]
use crate::error::{Error, Result};
#[cfg(not(target_arch = "wasm32"))]
use crate::gpu::Gpu;

/// The default deadline of waits and readbacks: 60 s. Measured on llvmpipe in the kernels'
/// suite (`SHOAL_BACKEND=gl cargo test -p shoal-kernels`, test threads sharing one `Gpu`, two
/// busy cores): the slowest wait took 8.2 s (most of it waiting for the GL turn while other
/// threads' submissions ran), the slowest submission 20.3 s (llvmpipe runs the kernels inside
/// `submit`, which no deadline can interrupt).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// How long a native wait sleeps between two polls of the device.
#[cfg(not(target_arch = "wasm32"))]
const SLICE: Duration = Duration::from_micros(250);

/// The lock GL calls take turns on (see the module's documentation). Re-entrant: a thread
/// that holds the turn takes it again at once, so a resource dropped inside a call that holds
/// the turn (a kernel released while recording, say) does not wait for itself.
#[derive(Default)]
pub(crate) struct TurnLock {
    held: Mutex<Holder>,
    free: Condvar,
}

/// Who holds a [`TurnLock`], and how many times.
#[derive(Default)]
struct Holder {
    thread: Option<std::thread::ThreadId>,
    depth: usize,
    /// What to destroy under the turn that a call could not wait for (a readback's staging
    /// buffer past its deadline): the holder destroys it as it passes the turn on. Under the
    /// same lock as `depth`, so nothing is buried after the holder last looked.
    #[cfg(not(target_arch = "wasm32"))]
    graveyard: Vec<Box<dyn Send>>,
}

/// Holding the turn; it passes on when dropped.
pub(crate) struct Turn(Option<Arc<TurnLock>>);

impl TurnLock {
    /// Waits for the turn.
    pub(crate) fn take(lock: &Arc<TurnLock>) -> Turn {
        let me = std::thread::current().id();
        let mut held = lock.held.lock().unwrap_or_else(|e| e.into_inner());
        while held.depth > 0 && held.thread != Some(me) {
            held = lock.free.wait(held).unwrap_or_else(|e| e.into_inner());
        }
        held.thread = Some(me);
        held.depth += 1;
        Turn(Some(Arc::clone(lock)))
    }

    /// Destroys `item` under the turn: now if nobody else holds it, else when its holder
    /// passes it on. Never waits.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn bury(lock: &Arc<TurnLock>, item: Box<dyn Send>) {
        let me = std::thread::current().id();
        let mut held = lock.held.lock().unwrap_or_else(|e| e.into_inner());
        if held.depth > 0 && held.thread != Some(me) {
            held.graveyard.push(item);
            return;
        }
        held.thread = Some(me);
        held.depth += 1;
        drop(held);
        let turn = Turn(Some(Arc::clone(lock)));
        drop(item);
        drop(turn);
    }

    /// The turn if nobody else holds it now.
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn try_take(lock: &Arc<TurnLock>) -> Option<Turn> {
        let me = std::thread::current().id();
        let mut held = lock.held.lock().unwrap_or_else(|e| e.into_inner());
        if held.depth > 0 && held.thread != Some(me) {
            return None;
        }
        held.thread = Some(me);
        held.depth += 1;
        Some(Turn(Some(Arc::clone(lock))))
    }
}

impl Turn {
    /// No turn to hold (backends other than GL).
    pub(crate) fn none() -> Self {
        Turn(None)
    }
}

impl std::fmt::Debug for Turn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Turn(held)"
        } else {
            "Turn"
        })
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        if let Some(lock) = self.0.take() {
            let mut held = lock.held.lock().unwrap_or_else(|e| e.into_inner());
            // The last release destroys what was buried meanwhile, still holding the turn, until
            // nothing is left when it lets go.
            #[cfg(not(target_arch = "wasm32"))]
            while held.depth == 1 && !held.graveyard.is_empty() {
                let buried = std::mem::take(&mut held.graveyard);
                drop(held);
                drop(buried);
                held = lock.held.lock().unwrap_or_else(|e| e.into_inner());
            }
            held.depth = held.depth.saturating_sub(1);
            if held.depth == 0 {
                held.thread = None;
                drop(held);
                lock.free.notify_one();
            }
        }
    }
}

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
    loop {
        gpu.check_alive(what)?;
        // Another thread's GL call may hold the turn (a long llvmpipe submit): poll later.
        if let Some(_turn) = gpu.try_poll_turn() {
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
    try_take: impl Fn() -> Option<Turn>,
    what: &str,
    started: std::time::Instant,
) -> Result<Turn> {
    let limit = gpu.timeout();
    loop {
        gpu.check_alive(what)?;
        if let Some(turn) = try_take() {
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;
    use std::thread::ThreadId;

    /// Who destroyed it, and whether that thread held the turn then.
    type Destroyed = Arc<Mutex<Option<(ThreadId, bool)>>>;

    /// Records, when dropped, the dropping thread and whether it held `lock`'s turn.
    struct Marker(Arc<TurnLock>, Destroyed);

    impl Drop for Marker {
        fn drop(&mut self) {
            let me = std::thread::current().id();
            let held = self.0.held.lock().expect("held");
            let holding = held.depth > 0 && held.thread == Some(me);
            *self.1.lock().expect("destroyed") = Some((me, holding));
        }
    }

    fn destroyed(d: &Destroyed) -> Option<(ThreadId, bool)> {
        *d.lock().expect("destroyed")
    }

    /// A buried item is destroyed under the turn: at once by the burying thread where the turn
    /// is free, else by the thread holding it as it lets go of its last hold, not before.
    #[test]
    fn buried_items_are_destroyed_under_the_turn_by_its_holder() {
        let lock = Arc::new(TurnLock::default());
        let me = std::thread::current().id();
        let now: Destroyed = Arc::default();
        TurnLock::bury(&lock, Box::new(Marker(Arc::clone(&lock), Arc::clone(&now))));
        assert_eq!(destroyed(&now), Some((me, true)), "a free turn: at once");
        assert_eq!(
            lock.held.lock().expect("held").depth,
            0,
            "and the turn let go"
        );

        let later: Destroyed = Arc::default();
        let (held, turn_held) = channel();
        let (go_on, told) = channel::<()>();
        let (nested, nested_done) = channel();
        let holder = {
            let lock = Arc::clone(&lock);
            let later = Arc::clone(&later);
            std::thread::spawn(move || {
                let turn = TurnLock::take(&lock);
                held.send(std::thread::current().id()).expect("tell");
                told.recv().expect("go on");
                // A nested hold let go: the turn is still held, the item still kept.
                drop(TurnLock::take(&lock));
                nested.send(destroyed(&later)).expect("tell");
                drop(turn);
            })
        };
        let holder_id = turn_held.recv().expect("held");
        TurnLock::bury(
            &lock,
            Box::new(Marker(Arc::clone(&lock), Arc::clone(&later))),
        );
        assert_eq!(
            destroyed(&later),
            None,
            "kept while another thread holds the turn"
        );
        go_on.send(()).expect("go on");
        assert_eq!(
            nested_done.recv().expect("nested"),
            None,
            "not at a nested release"
        );
        holder.join().expect("holder");
        assert_eq!(destroyed(&later), Some((holder_id, true)));
        assert_eq!(lock.held.lock().expect("held").depth, 0);
    }
}
