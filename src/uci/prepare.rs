//! Hash tables made ready off the loop thread.
//!
//! `setoption name Hash` / `PerftHash`, `ucinewgame` and `Clear Hash` start an allocation
//! here, with every page touched (about a second per GB on a loaded machine). `isready`
//! and the next `go` wait for it, so `readyok` means the memory is ready and the first
//! search or perft does not pay for it, while `stop`, `quit` and the rest are still read
//! meanwhile. One preparation runs at a time.

use crate::perft::hash;
use crate::search::tt::{Tt, meminfo_mb};
use std::thread::JoinHandle;

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
    /// A search table to install, and the size that was asked for (MB).
    Search {
        /// The table (possibly smaller than asked: see [`Tt::new`]).
        table: Tt,
        /// The size asked for.
        asked_mb: usize,
    },
    /// The perft table of `mb` MB is kept and touched, or why not.
    Perft {
        /// The size asked for.
        mb: usize,
        /// Why it could not be had.
        result: Result<(), String>,
    },
}

/// A preparation under way (or done already, when no thread could be started).
pub enum Preparing {
    /// Running on its own thread.
    Running(JoinHandle<Ready>),
    /// Done on the loop thread.
    Done(Ready),
}

/// Fraction (in percent) of the available memory a perft table may take: touching more
/// would invite the OOM killer instead of an error.
const PERFT_MEMORY_PERCENT: usize = 90;

impl Preparing {
    /// Starts making `table` ready.
    pub fn start(table: Table) -> Self {
        let spawned = std::thread::Builder::new()
            .name("uci-hash".into())
            .spawn(move || make(table));
        match spawned {
            Ok(handle) => Self::Running(handle),
            Err(e) => {
                log::warn!("cannot start a thread for the hash table ({e}); allocating here");
                Self::Done(make(table))
            }
        }
    }

    /// Waits for the result; `None` if the preparation panicked.
    pub fn wait(self) -> Option<Ready> {
        match self {
            Self::Running(handle) => handle.join().ok(),
            Self::Done(ready) => Some(ready),
        }
    }
}

/// Allocates and touches `table`.
fn make(table: Table) -> Ready {
    match table {
        Table::Search(mb) => Ready::Search {
            table: Tt::new(mb),
            asked_mb: mb,
        },
        Table::Perft(mb) => Ready::Perft {
            mb,
            result: perft_table(mb),
        },
    }
}

/// The perft table of `mb` MB, refused when the machine does not have the memory free.
fn perft_table(mb: usize) -> Result<(), String> {
    if mb > 0
        && let Some(available) = meminfo_mb("MemAvailable:")
        && mb > available / 100 * PERFT_MEMORY_PERCENT
    {
        // Free a kept table first: it may be what makes the memory short.
        let _ = hash::prepare(0);
        return Err(format!(
            "{mb} MB is more than {PERFT_MEMORY_PERCENT}% of the {available} MB of memory available"
        ));
    }
    hash::prepare(mb).map_err(|e| e.to_string())
}
