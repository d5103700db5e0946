//! Perft: counts the leaf nodes of the legal move tree, exactly.
//!
//! Pure functions on a [`Position`]; printing belongs to the UCI and CLI layers.
//! The last ply is bulk-counted: the legal moves are counted by popcount, not made.

use crate::board::{Move, Position};
use crate::movegen::{Black, Counter, MoveList, Side, White, generate};

/// The number of leaf nodes `depth` plies below `pos` (`perft(0)` is 1).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match pos.side_to_move() {
        crate::board::Color::White => perft_side::<White>(pos, depth),
        crate::board::Color::Black => perft_side::<Black>(pos, depth),
    }
}

/// Each legal move with the perft of `depth - 1` below it (empty for depth 0).
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = crate::movegen::legal_moves(pos);
    moves
        .iter()
        .map(|&mv| {
            let undo = pos.make(mv);
            let nodes = perft(pos, depth - 1);
            pos.unmake(mv, &undo);
            (mv, nodes)
        })
        .collect()
}

/// Perft with the side to move known at compile time.
fn perft_side<S: Side>(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count::<S>(pos),
        _ => {
            let mut moves = MoveList::new();
            generate::<S, _>(pos, &mut moves);
            let mut nodes = 0;
            for &mv in moves.iter() {
                let undo = pos.make(mv);
                nodes += if depth == 2 {
                    count::<S::Them>(pos)
                } else {
                    perft_side::<S::Them>(pos, depth - 1)
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
