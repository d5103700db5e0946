//! Hash tables made ready off the loop thread.
//!
//! `setoption name Hash` / `PerftHash`, `ucinewgame` and `Clear Hash` start an allocation
//! here, with every page touched (about a second per GB on a loaded machine). `isready`
//! and the next `go` wait for it, so `readyok` means the memory is ready and the first
//! search or perft does not pay for it, while `stop`, `quit` and the rest are still read
//! meanwhile (a `quit` ends the wait). One preparation runs at a time.

use crate::perft::hash;
use crate::search::tt::Tt;
use crossbeam_channel::{Receiver, bounded};

/// What to make ready.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// A new, empty search table of this many MB (`Hash`, `ucinewgame`, `Clear Hash`).
    Search(usize),
    /// The perft table of this many MB (`PerftHash`; 0 frees it).
    Perft(usize),
}

/// What a preparation produced.
pub enum Ready {
    /// A search table to install, or why it could not be had.
    Search {
        /// The table, or why not.
        table: Result<Tt, String>,
        /// The size asked for, MB.
        mb: usize,
    },
    /// The perft table of `mb` MB is kept and touched, or why not.
    Perft {
        /// The size asked for.
        mb: usize,
        /// Why it could not be had.
        result: Result<(), String>,
    },
}

/// A preparation under way: its result arrives on [`Preparing::done`] (at once when
/// no thread could be started and it ran on the loop thread).
pub struct Preparing {
    /// Receives the result once; disconnected without one if the preparation panicked.
    pub done: Receiver<Ready>,
}

impl Preparing {
    /// Starts making `table` ready.
    pub fn start(table: Table) -> Self {
        let (sender, done) = bounded(1);
        let sent = sender.clone();
        let spawned = std::thread::Builder::new()
            .name("uci-hash".into())
            .spawn(move || {
                let _ = sent.send(make(table));
            });
        if let Err(e) = spawned {
            log::warn!("cannot start a thread for the hash table ({e}); allocating here");
            let _ = sender.send(make(table));
        }
        Self { done }
    }
}

/// Allocates and touches `table`.
fn make(table: Table) -> Ready {
    match table {
        Table::Search(mb) => Ready::Search {
            table: Tt::new(mb).map_err(|e| e.to_string()),
            mb,
        },
        Table::Perft(mb) => Ready::Perft {
            mb,
            result: perft_table(mb),
        },
    }
}

/// The perft table of `mb` MB, refused when the machine does not have the memory free
/// (`crate::memory::check_table`; a kept table of another size is freed first).
fn perft_table(mb: usize) -> Result<(), String> {
    hash::prepare(mb).map_err(|e| e.to_string())
}
