//! [`Local`]: the in-process [`Transport`], through host memory: one endpoint per part, each on
//! its own thread, meeting at a barrier for every collective.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use shoal::{Error, Result};

use crate::transport::{Transport, first_error};

/// One round of mail between `n` members: each deposits one item per destination, waits for the
/// others, takes its own column, and the last to take it opens the next round.
struct Exchange<M> {
    n: usize,
    state: Mutex<Round<M>>,
    changed: Condvar,
}

struct Round<M> {
    /// `mail[destination][source]`.
    mail: Vec<Vec<Option<M>>>,
    arrived: usize,
    taken: usize,
    /// Whether every member has deposited and the round is being taken.
    draining: bool,
    /// Set when a member's thread panicked: the others would wait for it for ever.
    broken: bool,
}

impl<M> Exchange<M> {
    fn new(n: usize) -> Self {
        Self {
            n,
            state: Mutex::new(Round {
                mail: (0..n).map(|_| (0..n).map(|_| None).collect()).collect(),
                arrived: 0,
                taken: 0,
                draining: false,
                broken: false,
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Round<M>> {
        // A member that panicked while holding the lock leaves the round as it was: the state
        // is still whole, and `broken` tells the others.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn wait<'a>(&self, guard: MutexGuard<'a, Round<M>>) -> MutexGuard<'a, Round<M>> {
        let guard = self.changed.wait(guard).unwrap_or_else(|p| p.into_inner());
        if guard.broken {
            drop(guard);
            panic!("shoal-scale: another part's thread panicked during a collective");
        }
        guard
    }

    /// Deposits `out[q]` for each member `q` and returns what each member sent to `rank`.
    fn round(&self, rank: usize, out: Vec<M>) -> Vec<M> {
        let mut s = self.lock();
        while s.draining {
            s = self.wait(s);
        }
        for (q, item) in out.into_iter().enumerate() {
            s.mail[q][rank] = Some(item);
        }
        s.arrived += 1;
        if s.arrived == self.n {
            s.draining = true;
            self.changed.notify_all();
        }
        while !s.draining {
            s = self.wait(s);
        }
        let mine: Vec<M> = s.mail[rank].iter_mut().filter_map(Option::take).collect();
        s.taken += 1;
        if s.taken == self.n {
            (s.arrived, s.taken, s.draining) = (0, 0, false);
            self.changed.notify_all();
        }
        mine
    }

    fn break_off(&self) {
        self.lock().broken = true;
        self.changed.notify_all();
    }
}

/// What the endpoints of one in-process computation share.
struct Shared {
    bytes: Exchange<Vec<u8>>,
    statuses: Exchange<Option<Error>>,
    /// Held around each member's device work when the devices must take turns (GL).
    turn: Option<Arc<Mutex<()>>>,
}

/// The in-process [`Transport`]: one endpoint per part of a [`Spread`](crate::Spread), each used
/// by one thread. Collectives meet at a barrier and pass bytes through host memory.
///
/// [`Group`](crate::Group) makes the endpoints and runs one thread per part; make them yourself
/// ([`Local::endpoints`]) to write a computation of your own over the parts.
pub struct Local {
    rank: usize,
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Local {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Local")
            .field("rank", &self.rank)
            .field("ranks", &self.shared.bytes.n)
            .finish_non_exhaustive()
    }
}

impl Local {
    /// `n` endpoints of one computation, rank 0 first. With `turn`, each member's device work
    /// runs while holding it (one member at a time), as GL devices of one process need.
    pub fn endpoints(n: usize, turn: Option<Arc<Mutex<()>>>) -> Vec<Local> {
        let shared = Arc::new(Shared {
            bytes: Exchange::new(n),
            statuses: Exchange::new(n),
            turn,
        });
        (0..n)
            .map(|rank| Local {
                rank,
                shared: Arc::clone(&shared),
            })
            .collect()
    }
}

impl Drop for Local {
    fn drop(&mut self) {
        // An endpoint dropped while its thread unwinds will never meet the others again.
        if std::thread::panicking() {
            self.shared.bytes.break_off();
            self.shared.statuses.break_off();
        }
    }
}

impl Transport for Local {
    fn rank(&self) -> usize {
        self.rank
    }

    fn ranks(&self) -> usize {
        self.shared.bytes.n
    }

    fn all_gather(&self, mine: Vec<u8>) -> Vec<Vec<u8>> {
        let n = self.ranks();
        let out = (0..n).map(|_| mine.clone()).collect();
        self.shared.bytes.round(self.rank, out)
    }

    fn all_to_all(&self, sends: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
        assert_eq!(sends.len(), self.ranks(), "one message per member");
        self.shared.bytes.round(self.rank, sends)
    }

    fn agree(&self, status: Result<()>) -> Result<()> {
        let n = self.ranks();
        let mine = status.err();
        let out = (0..n).map(|_| mine.clone()).collect();
        first_error(self.shared.statuses.round(self.rank, out))
    }

    fn device_turn<R>(&self, work: impl FnOnce() -> R) -> R {
        match &self.shared.turn {
            Some(turn) => {
                let _held = turn.lock().unwrap_or_else(|p| p.into_inner());
                work()
            }
            None => work(),
        }
    }
}
