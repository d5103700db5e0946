//! Search (being written: issue 6). The interface the UCI worker uses is fixed here:
//! a [`Searcher`] owned by the worker, driven by [`Limits`] and a shared [`Control`].

mod limits;

pub use limits::Limits;

use crate::board::{Move, Position};
use crate::movegen::legal_moves;
use std::sync::atomic::{AtomicBool, Ordering};

/// Flags the UCI loop flips while a search runs.
#[derive(Debug, Default)]
pub struct Control {
    /// Set by `stop` (and `quit`): the search ends as soon as it can.
    pub stop: AtomicBool,
    /// Set while pondering; `ponderhit` clears it and the clock starts to count.
    pub pondering: AtomicBool,
}

impl Control {
    /// Whether `stop` was received.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// The search's state kept between searches (hash table, history).
pub struct Searcher {
    hash_mb: usize,
    threads: usize,
    move_overhead_ms: u64,
}

/// The outcome of a search: the move to play and the expected reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply, for `bestmove ... ponder ...`.
    pub ponder: Option<Move>,
}

impl Searcher {
    /// A searcher with a hash table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Self {
        Self {
            hash_mb,
            threads: 1,
            move_overhead_ms: 10,
        }
    }

    /// Resizes the hash table (UCI `Hash`).
    pub fn set_hash(&mut self, mb: usize) {
        self.hash_mb = mb;
    }

    /// Sets the number of search threads (UCI `Threads`).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.max(1);
    }

    /// Time kept in reserve per move for the GUI and the link (UCI `Move Overhead`, ms).
    pub fn set_move_overhead(&mut self, ms: u64) {
        self.move_overhead_ms = ms;
    }

    /// Forgets everything learnt (UCI `ucinewgame`).
    pub fn clear(&mut self) {}

    /// Searches `pos`. `history` holds the keys of the positions before it in the game
    /// (oldest first) for repetition draws. Each `info ...` line goes to `report`; the
    /// caller prints `bestmove` from the result. With `infinite` or `ponder`, returns
    /// only after `stop` (or, when pondering, after `ponderhit` and the search's end).
    pub fn go(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(String),
    ) -> SearchResult {
        let _ = (history, self.hash_mb, self.threads, self.move_overhead_ms);
        let moves = legal_moves(pos);
        let best = limits
            .searchmoves
            .first()
            .copied()
            .or_else(|| moves.first().copied());
        report("info depth 1 score cp 0 nodes 1 pv".to_string());
        while (limits.infinite || control.pondering.load(Ordering::Relaxed)) && !control.stopped() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        SearchResult { best, ponder: None }
    }
}
