//! Perft: counts the leaf nodes of the legal move tree, exactly.
//!
//! Pure functions on a [`Position`]; printing belongs to the UCI and CLI layers.
//! The last ply is bulk-counted: the legal moves are counted by popcount, not made.

use crate::board::{Color, Move, Position};
use crate::movegen::{Black, Counter, MoveList, Side, White, generate, legal_moves};
use std::sync::atomic::{AtomicBool, Ordering};

pub mod stats;

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

/// The number of leaf nodes `depth` plies below `pos` (`perft(0)` is 1).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    let never = AtomicBool::new(false);
    perft_stoppable(pos, depth, &never).unwrap_or(0)
}

/// Each legal move with the perft of `depth - 1` below it (empty for depth 0).
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let never = AtomicBool::new(false);
    divide_with(pos, depth, &PerftOptions::default(), &never).unwrap_or_default()
}

/// [`divide`] with options, ending early with `None` once `stop` is set.
pub fn divide_with(
    pos: &Position,
    depth: u32,
    options: &PerftOptions,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    let _ = options;
    if depth == 0 {
        return Some(Vec::new());
    }
    let mut pos = pos.clone();
    let mut divide = Vec::new();
    for &mv in legal_moves(&pos).iter() {
        let undo = pos.make(mv);
        let nodes = perft_stoppable(&mut pos, depth - 1, stop);
        pos.unmake(mv, &undo);
        divide.push((mv, nodes?));
    }
    Some(divide)
}

/// Perft that gives up with `None` once `stop` is set.
fn perft_stoppable(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    let nodes = match pos.side_to_move() {
        Color::White => perft_side::<White>(pos, depth, stop),
        Color::Black => perft_side::<Black>(pos, depth, stop),
    };
    if stop.load(Ordering::Relaxed) {
        None
    } else {
        Some(nodes)
    }
}

/// Perft with the side to move known at compile time; returns early (with a partial,
/// meaningless count) once `stop` is set.
fn perft_side<S: Side>(pos: &mut Position, depth: u32, stop: &AtomicBool) -> u64 {
    match depth {
        0 => 1,
        1 => count::<S>(pos),
        _ => {
            if depth >= 3 && stop.load(Ordering::Relaxed) {
                return 0;
            }
            let mut moves = MoveList::new();
            generate::<S, _>(pos, &mut moves);
            let mut nodes = 0;
            for &mv in moves.iter() {
                let undo = pos.make(mv);
                nodes += if depth == 2 {
                    count::<S::Them>(pos)
                } else {
                    perft_side::<S::Them>(pos, depth - 1, stop)
                };
                pos.unmake(mv, &undo);
                debug_assert_eq!(pos.key(), pos.compute_key());
            }
            nodes
        }
    }
}

/// The number of legal moves for `S`, by popcount.
#[inline(always)]
fn count<S: Side>(pos: &Position) -> u64 {
    let mut counter = Counter(0);
    generate::<S, _>(pos, &mut counter);
    counter.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_ends_a_perft() {
        let stop = AtomicBool::new(true);
        let pos = Position::startpos();
        assert_eq!(divide_with(&pos, 5, &PerftOptions::default(), &stop), None);
        assert_eq!(perft(&mut pos.clone(), 0), 1);
        assert_eq!(divide(&mut pos.clone(), 0), Vec::new());
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
            let mut pos = Position::from_fen(fen).expect("valid FEN");
            assert_eq!(perft(&mut pos, depth), nodes, "{fen}");
        }
        let leaf = Position::from_fen(steps[4].0).expect("valid FEN");
        let moves: Vec<String> = legal_moves(&leaf).iter().map(|m| m.to_uci(false)).collect();
        assert!(
            moves.contains(&"b5c6".to_string()),
            "en passant out of check: {moves:?}"
        );
    }
}
