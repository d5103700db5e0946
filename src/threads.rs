//! The threads Rookling starts, for perft and search alike: how many can run at once,
//! and the stack each gets.

use std::sync::OnceLock;

/// The threads that can run at once on this machine (1 if unknown), asked once. Perft
/// and search start at most this many counting threads (the calling one included), so
/// that the thread reading commands is never kept waiting for a core.
pub fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The stack to give a thread that counts or searches: enough for a perft walk of
/// [`crate::perft::MAX_DEPTH`] plies and for the deepest search. A release build needs
/// under 1 KB a perft ply (measured with `ulimit -s`: `perft 255 --hash 1` on two bare
/// kings runs in 210 KB of stack, `perft 100` in 90 KB); a debug build needs several
/// times that. Only the part used is ever touched, so this is generous.
pub const STACK_BYTES: usize = 16 << 20;
