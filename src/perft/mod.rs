//! Perft: counts the leaf nodes of the legal move tree, exactly.
//!
//! Pure functions on a [`Position`]; printing belongs to the UCI and CLI layers. Counts
//! are `u128`: exact at any depth (a perft's count passes 2^64 well within
//! [`MAX_DEPTH`]).
//! - `tree`: the tree walk, generic over what it counts: leaf nodes (`nodes`, the last
//!   ply bulk-counted by popcount, never made) or a breakdown by kind of move ([`stats`]);
//! - `parallel`: the tree cut into subtrees shared out to threads;
//! - `hash`: the optional transposition table of subtree counts;
//! - [`units`]: the tree split into work units for other processes or machines, and
//!   the exact sum of their results.

pub mod epd;
pub(crate) mod hash;
mod nodes;
mod parallel;
mod pool;
pub mod stats;
mod tree;
pub mod units;

use crate::board::{Move, Position};
use crate::movegen::legal_moves;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// How a perft runs: threads and hash table (UCI `Threads` / `PerftHash`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftOptions {
    /// Worker threads (1 = this thread only).
    pub threads: usize,
    /// Perft hash table size in MB (0 = no table).
    pub hash_mb: usize,
}

impl Default for PerftOptions {
    fn default() -> Self {
        Self {
            threads: 1,
            hash_mb: 0,
        }
    }
}

/// The deepest perft the walk runs (each ply takes stack: a thread given
/// [`threads::STACK_BYTES`](crate::threads::STACK_BYTES) has enough); callers refuse
/// deeper requests.
pub const MAX_DEPTH: u32 = 255;

/// The number of leaf nodes `depth` plies below `pos` (`perft(0)` is 1); 0 for a depth
/// above [`MAX_DEPTH`].
///
/// ```
/// use rookling::board::Position;
/// use rookling::perft::perft;
///
/// let pos = Position::startpos();
/// assert_eq!(perft(&pos, 4), 197_281);
/// assert_eq!(perft(&pos, 0), 1);
/// ```
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u128 {
    let never = AtomicBool::new(false);
    perft_with(pos, depth, &PerftOptions::default(), &never).unwrap_or(0)
}

/// [`perft`] with options, ending early with `None` once `stop` is set (and `None` for a
/// depth above [`MAX_DEPTH`]).
#[must_use]
pub fn perft_with(
    pos: &Position,
    depth: u32,
    options: &PerftOptions,
    stop: &AtomicBool,
) -> Option<u128> {
    if depth > MAX_DEPTH {
        return None;
    }
    if depth == 0 {
        return Some(1);
    }
    let divide = divide_with(pos, depth, options, stop)?;
    Some(divide.iter().map(|&(_, nodes)| nodes).sum())
}

/// Each legal move with the perft of `depth - 1` below it (empty for depth 0, and for a
/// depth above [`MAX_DEPTH`]).
///
/// ```
/// use rookling::board::Position;
/// use rookling::perft::divide;
///
/// let pos = Position::startpos();
/// let divide = divide(&pos, 3);
/// assert_eq!(divide.len(), 20);
/// assert_eq!(divide.iter().map(|(_, nodes)| nodes).sum::<u128>(), 8_902);
/// let e2e4 = divide.iter().find(|(mv, _)| mv.to_uci(false) == "e2e4").unwrap();
/// assert_eq!(e2e4.1, 600);
/// ```
#[must_use]
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u128)> {
    let never = AtomicBool::new(false);
    divide_with(pos, depth, &PerftOptions::default(), &never).unwrap_or_default()
}

/// [`divide`] with options, ending early with `None` once `stop` is set (and `None` for
/// a depth above [`MAX_DEPTH`]).
///
/// A hash table, if asked for, is allocated once and kept for later calls of the same
/// size; each run sees only its own entries (if the memory cannot be had, the run goes
/// without a table).
#[must_use]
pub fn divide_with(
    pos: &Position,
    depth: u32,
    options: &PerftOptions,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u128)>> {
    if depth > MAX_DEPTH {
        return None;
    }
    if depth == 0 {
        return Some(Vec::new());
    }
    let table = match options.hash_mb {
        0 => None,
        mb => hash::Run::start(mb).map(Arc::new),
    };
    let divide = if depth == 1 {
        legal_moves(pos).iter().map(|&mv| (mv, 1)).collect()
    } else {
        parallel::divide::<u64>(pos, depth, options.threads, table, stop)
    };
    (!stop.load(Ordering::Relaxed)).then_some(divide)
}

/// Whether this CPU runs the perft walk compiled for POPCNT, BMI1, BMI2 and LZCNT.
pub fn uses_modern_cpu() -> bool {
    tree::modern_cpu()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::threads::STACK_BYTES;

    #[test]
    fn stop_ends_a_perft() {
        let stop = AtomicBool::new(true);
        let pos = Position::startpos();
        assert_eq!(divide_with(&pos, 5, &PerftOptions::default(), &stop), None);
        assert_eq!(perft(&pos, 0), 1);
        assert_eq!(divide(&pos, 0), Vec::new());
    }

    /// A stop raised during a long count ends it, with `None`, in every mode.
    #[test]
    fn stop_ends_a_running_perft_in_every_mode() {
        let pos = Position::startpos();
        for (threads, hash_mb) in [(1, 0), (2, 0), (1, 4), (2, 4)] {
            let stop = AtomicBool::new(false);
            let options = PerftOptions { threads, hash_mb };
            let result = std::thread::scope(|scope| {
                let run = scope.spawn(|| divide_with(&pos, 10, &options, &stop));
                std::thread::sleep(std::time::Duration::from_millis(30));
                stop.store(true, Ordering::Relaxed);
                run.join()
            });
            assert_eq!(result.ok(), Some(None), "{threads} threads, {hash_mb} MB");
        }
    }

    /// A count past 2^64 (two bare kings, depth 24) is exact in every mode; the hash
    /// makes it quick. Root moves' counts pass 2^64 too.
    #[test]
    fn counts_past_2_pow_64_are_exact() {
        let pos = Position::from_fen("8/8/8/3k4/8/8/8/3K4 w - - 0 1").expect("valid FEN");
        let never = AtomicBool::new(false);
        for threads in [1, 2] {
            let options = PerftOptions {
                threads,
                hash_mb: 8,
            };
            let nodes = perft_with(&pos, 24, &options, &never);
            assert_eq!(nodes, Some(98_801_146_113_350_318_118), "{threads} threads");
            let divide = divide_with(&pos, 24, &options, &never).expect("not stopped");
            assert_eq!(divide.len(), 5);
            assert_eq!(
                divide.iter().map(|&(_, n)| n).sum::<u128>(),
                nodes.unwrap_or(0)
            );
            assert!(divide.iter().any(|&(_, n)| n > u128::from(u64::MAX)));
        }
    }

    /// The deepest walk allowed runs in a thread given [`STACK_BYTES`], in every mode
    /// (it runs until stopped); deeper requests are refused.
    #[test]
    fn the_deepest_walk_fits_in_its_stack() {
        let pos = Position::from_fen("8/8/8/3k4/8/8/8/3K4 w - - 0 1").expect("valid FEN");
        for (threads, hash_mb) in [(1, 0), (2, 0), (1, 1), (2, 1)] {
            let stop = AtomicBool::new(false);
            let options = PerftOptions { threads, hash_mb };
            let result = std::thread::scope(|scope| {
                let run = std::thread::Builder::new()
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, || divide_with(&pos, MAX_DEPTH, &options, &stop))
                    .expect("thread");
                std::thread::sleep(std::time::Duration::from_millis(100));
                stop.store(true, Ordering::Relaxed);
                run.join()
            });
            assert_eq!(result.ok(), Some(None), "{threads} threads, {hash_mb} MB");
        }
        let never = AtomicBool::new(false);
        let options = PerftOptions::default();
        assert_eq!(perft_with(&pos, MAX_DEPTH + 1, &options, &never), None);
        assert_eq!(divide_with(&pos, MAX_DEPTH + 1, &options, &never), None);
    }

    #[test]
    fn modes_agree_on_kiwipete() {
        let pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .expect("valid FEN");
        let never = AtomicBool::new(false);
        let plain = divide(&pos, 4);
        assert_eq!(plain.iter().map(|(_, n)| n).sum::<u128>(), 4_085_603);
        for (threads, hash_mb) in [(2, 0), (1, 2), (3, 2)] {
            let options = PerftOptions { threads, hash_mb };
            assert_eq!(divide_with(&pos, 4, &options, &never), Some(plain.clone()));
        }
    }

    /// Seed 000: each position of the drill-down, with Stockfish's counts.
    #[test]
    fn seed_000_drill_down() {
        let steps = [
            ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5, 674_624),
            ("8/2p5/3p4/KP5r/5p1k/8/4P1P1/1R6 b - - 0 1", 4, 69_665),
            ("8/2p5/3p4/KP5r/7k/5p2/4P1P1/1R6 w - - 0 1", 3, 4_969),
            ("8/2p5/3p4/1P5r/1K5k/5p2/4P1P1/1R6 b - - 0 1", 2, 350),
            ("8/8/3p4/1Pp4r/1K5k/5p2/4P1P1/1R6 w - c6 0 1", 1, 7),
        ];
        for (fen, depth, nodes) in steps {
            let pos = Position::from_fen(fen).expect("valid FEN");
            assert_eq!(perft(&pos, depth), nodes, "{fen}");
        }
        let leaf = Position::from_fen(steps[4].0).expect("valid FEN");
        let moves: Vec<String> = legal_moves(&leaf).iter().map(|m| m.to_uci(false)).collect();
        assert!(
            moves.contains(&"b5c6".to_string()),
            "en passant out of check: {moves:?}"
        );
    }
}
