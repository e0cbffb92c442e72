//! The turn: the lock Shoal's calls that reach wgpu take one at a time (on GL, every call, for
//! wgpu's context lock; elsewhere the calls that may poll the device; see `wait.rs`).
//!
//! - **Re-entrant.** A thread that holds the turn takes it again at once, so a resource
//!   dropped inside a call that holds the turn (a kernel released while recording, say) does
//!   not wait for itself.
//! - **Buried items.** What a call past its deadline cannot wait to destroy under the turn (a
//!   readback's staging buffer) is handed to the holder, which destroys it as it lets go
//!   ([`TurnLock::bury`]).
//! - **Calls that try, and calls that wait.** Most calls wait for the turn ([`TurnLock::take`]);
//!   readbacks and waits, which have a deadline and must not block an executor, try it between
//!   yields ([`TurnLock::try_take`]). Left at that, a thread that takes the turn over and over
//!   (a loop of submits) would win nearly every time it is let go, since it waits on the lock
//!   while the other call sleeps between tries: on lavapipe a read beside it waited many times
//!   the other thread's hold. So a call that tried and
//!   failed stands in line ([`Waiting`]), and a waiting call lets a free turn be for up to
//!   [`DEFER`] while one stands in line on another thread and tried within the last [`FRESH`].
//!   Only up to `DEFER`, and only to calls that keep trying: a call in line whose future is no
//!   longer polled (forgotten, or awaited by a thread busy elsewhere) delays nobody once its last
//!   try is older than `FRESH`.

use std::sync::{Arc, Condvar, Mutex};
#[cfg(not(target_arch = "wasm32"))]
use std::thread::ThreadId;
#[cfg(not(target_arch = "wasm32"))]
use std::time::{Duration, Instant};

/// How long a call that waits for the turn leaves a free turn to the calls in line on other
/// threads, which try it every quarter of a millisecond or so (`wait::later`).
#[cfg(not(target_arch = "wasm32"))]
const DEFER: Duration = Duration::from_millis(2);

/// How recently a call in line must have tried the turn for others to defer to it: a call that
/// keeps trying does so every quarter of a millisecond or so.
#[cfg(not(target_arch = "wasm32"))]
const FRESH: Duration = Duration::from_millis(2);

/// The lock calls take turns on (see the module's documentation).
pub(crate) struct TurnLock {
    held: Mutex<Holder>,
    free: Condvar,
    /// [`DEFER`] and [`FRESH`], but in tests.
    #[cfg(not(target_arch = "wasm32"))]
    defer: Duration,
    #[cfg(not(target_arch = "wasm32"))]
    fresh: Duration,
}

impl Default for TurnLock {
    fn default() -> Self {
        TurnLock {
            held: Mutex::default(),
            free: Condvar::new(),
            #[cfg(not(target_arch = "wasm32"))]
            defer: DEFER,
            #[cfg(not(target_arch = "wasm32"))]
            fresh: FRESH,
        }
    }
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
    /// The calls in line: each one's number, and the thread it last tried from and when.
    #[cfg(not(target_arch = "wasm32"))]
    line: Vec<(u64, ThreadId, Instant)>,
    /// The number of the next call to stand in line.
    #[cfg(not(target_arch = "wasm32"))]
    next: u64,
}

/// Holding the turn; it passes on when dropped.
pub(crate) struct Turn(Option<Arc<TurnLock>>);

/// A call's place in line for the turn, taken when it first finds the turn held by another
/// thread; it leaves the line when it gets the turn or is dropped.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) struct Waiting {
    lock: Arc<TurnLock>,
    number: u64,
}

impl TurnLock {
    /// Waits for the turn (natively, leaving a free turn for up to [`DEFER`] to the calls in
    /// line on other threads).
    pub(crate) fn take(lock: &Arc<TurnLock>) -> Turn {
        let me = std::thread::current().id();
        let mut held = lock.held.lock().unwrap_or_else(|e| e.into_inner());
        #[cfg(not(target_arch = "wasm32"))]
        let mut deferring: Option<Instant> = None;
        loop {
            if held.depth > 0 && held.thread != Some(me) {
                held = lock.free.wait(held).unwrap_or_else(|e| e.into_inner());
                continue;
            }
            #[cfg(not(target_arch = "wasm32"))]
            if held.depth == 0
                && (held.line.iter())
                    .any(|&(_, thread, tried)| thread != me && tried.elapsed() < lock.fresh)
            {
                let left = lock
                    .defer
                    .saturating_sub(deferring.get_or_insert_with(Instant::now).elapsed());
                if !left.is_zero() {
                    held = lock
                        .free
                        .wait_timeout(held, left)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                    continue;
                }
            }
            break;
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

    /// The turn if nobody else holds it now; otherwise `None`, and the call stands in line
    /// (`waiting` holds its place, kept between tries).
    #[cfg(not(target_arch = "wasm32"))]
    pub(crate) fn try_take(lock: &Arc<TurnLock>, waiting: &mut Option<Waiting>) -> Option<Turn> {
        let me = std::thread::current().id();
        let mut held = lock.held.lock().unwrap_or_else(|e| e.into_inner());
        if held.depth > 0 && held.thread != Some(me) {
            match waiting {
                Some(w) => {
                    if let Some(place) = held.line.iter_mut().find(|(n, ..)| *n == w.number) {
                        (place.1, place.2) = (me, Instant::now());
                    }
                }
                None => {
                    let number = held.next;
                    held.next += 1;
                    held.line.push((number, me, Instant::now()));
                    *waiting = Some(Waiting {
                        lock: Arc::clone(lock),
                        number,
                    });
                }
            }
            return None;
        }
        held.thread = Some(me);
        held.depth += 1;
        drop(held);
        // Out of line (its drop takes the lock `held` was).
        *waiting = None;
        Some(Turn(Some(Arc::clone(lock))))
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Drop for Waiting {
    fn drop(&mut self) {
        let mut held = self.lock.held.lock().unwrap_or_else(|e| e.into_inner());
        held.line.retain(|&(n, ..)| n != self.number);
        drop(held);
        // A call deferring to this one need not wait out `DEFER`.
        self.lock.free.notify_all();
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

    /// A lock whose waiting calls leave a free turn to the line for a minute: long enough that
    /// a test that depends on it cannot pass by timing.
    fn patient() -> Arc<TurnLock> {
        Arc::new(TurnLock {
            defer: Duration::from_secs(60),
            fresh: Duration::from_secs(60),
            ..TurnLock::default()
        })
    }

    /// Holds `lock`'s turn on another thread until told; returns the channel that tells it.
    fn held_elsewhere(
        lock: &Arc<TurnLock>,
    ) -> (std::sync::mpsc::Sender<()>, std::thread::JoinHandle<()>) {
        let (held, turn_held) = channel();
        let (release, released) = channel::<()>();
        let lock = Arc::clone(lock);
        let holder = std::thread::spawn(move || {
            let turn = TurnLock::take(&lock);
            held.send(()).expect("tell");
            released.recv().expect("release");
            drop(turn);
        });
        turn_held.recv().expect("held");
        (release, holder)
    }

    /// This thread's place in line for `lock`, taken while another thread held it, which has
    /// let go since.
    fn in_line_then_free(lock: &Arc<TurnLock>) -> Option<Waiting> {
        let (release, holder) = held_elsewhere(lock);
        let mut waiting = None;
        assert!(
            TurnLock::try_take(lock, &mut waiting).is_none(),
            "held elsewhere"
        );
        assert!(waiting.is_some(), "in line");
        release.send(()).expect("release");
        holder.join().expect("holder");
        waiting
    }

    /// A call that tried the turn stands in line: a thread waiting for the turn lets it go by
    /// when the holder lets go, and takes the turn once the call in line had it; a call that
    /// leaves the line (dropped) lets the waiting thread go on at once.
    #[test]
    fn a_call_in_line_gets_the_turn_before_a_waiting_thread() {
        for leaves in [false, true] {
            let lock = patient();
            let (release, holder) = held_elsewhere(&lock);
            let mut waiting = None;
            assert!(
                TurnLock::try_take(&lock, &mut waiting).is_none(),
                "held elsewhere"
            );
            assert!(waiting.is_some(), "in line");
            let (took, taken) = channel();
            let waiter = {
                let lock = Arc::clone(&lock);
                std::thread::spawn(move || {
                    let turn = TurnLock::take(&lock);
                    took.send(()).expect("tell");
                    drop(turn);
                })
            };
            release.send(()).expect("release");
            holder.join().expect("holder");
            // The holder let go; the waiting thread defers to the line (for a minute).
            assert!(
                taken.recv_timeout(Duration::from_millis(200)).is_err(),
                "the line first"
            );
            if leaves {
                drop(waiting.take());
            } else {
                let turn = TurnLock::try_take(&lock, &mut waiting).expect("the turn, in line");
                assert!(waiting.is_none(), "out of line once it has the turn");
                drop(turn);
            }
            taken
                .recv_timeout(Duration::from_secs(30))
                .expect("the waiting thread's turn");
            waiter.join().expect("waiter");
        }
    }

    /// A thread does not defer to its own place in line (a read awaited beside a call that
    /// waits, on one thread, would otherwise wait for itself).
    #[test]
    fn a_thread_does_not_defer_to_itself() {
        let lock = patient();
        let waiting = in_line_then_free(&lock);
        let started = Instant::now();
        drop(TurnLock::take(&lock));
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "waited for its own place in line"
        );
        drop(waiting);
    }

    /// A place in line whose call stopped trying (its future no longer polled) delays nobody
    /// once its last try is older than the lock's freshness.
    #[test]
    fn a_stale_place_in_line_is_not_waited_for() {
        let lock = Arc::new(TurnLock {
            defer: Duration::from_secs(60),
            fresh: Duration::from_millis(20),
            ..TurnLock::default()
        });
        let waiting = in_line_then_free(&lock);
        std::thread::sleep(Duration::from_millis(50));
        let started = Instant::now();
        let lock_elsewhere = Arc::clone(&lock);
        std::thread::spawn(move || drop(TurnLock::take(&lock_elsewhere)))
            .join()
            .expect("taker");
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "waited for a stale place in line"
        );
        drop(waiting);
    }
}
