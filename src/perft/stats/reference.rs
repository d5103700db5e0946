//! The statistics by definition: every last-ply move is made and the position it leads
//! to looked at. Slow (about 17 times a perft), but plainly right: the fast walk is
//! tested against it, and uses `record` for the rare moves it makes one by one (en
//! passant and castling).

use super::{CheckKind, Stats, Tally};
use crate::board::{Move, MoveKind, Position};
use crate::movegen::{count_legal, legal_moves};

/// The statistics of the perft of `depth` below `pos`, every last-ply move made.
/// Depth 0 is the position itself: one node and no last-ply move.
#[must_use]
pub fn stats(pos: &Position, depth: u32) -> Stats {
    let mut pos = pos.clone();
    let mut total = Stats::default();
    walk(&mut pos, depth, &mut total);
    total
}

/// Adds the leaves `depth` plies below `pos` to `total`.
fn walk(pos: &mut Position, depth: u32, total: &mut Stats) {
    match depth {
        0 => total.nodes += 1,
        1 => {
            let mut tally = Tally::default();
            for &mv in legal_moves(pos).iter() {
                record(&mut tally, pos, mv);
            }
            *total += Stats::from(tally);
        }
        _ => {
            for &mv in legal_moves(pos).iter() {
                let undo = pos.make(mv);
                walk(pos, depth - 1, total);
                pos.unmake(mv, &undo);
            }
        }
    }
}

/// Adds the move `mv`, legal in `pos`, to `tally` as one leaf, by making it.
pub(super) fn record(tally: &mut Tally, pos: &mut Position, mv: Move) {
    tally.nodes += 1;
    match mv.kind() {
        MoveKind::EnPassant => tally.en_passant += 1,
        MoveKind::Castling => tally.castles += 1,
        MoveKind::Promotion => tally.promotions += 1,
        MoveKind::Normal => {}
    }
    if pos.is_capture(mv) {
        tally.captures += 1;
    }
    let undo = pos.make(mv);
    let checkers = pos.checkers();
    if checkers.any() {
        let mover = match mv.kind() {
            MoveKind::Castling => Move::castling_rook_to(mv.from(), mv.to()),
            _ => mv.to(),
        };
        let kind = CheckKind::of(checkers.more_than_one(), checkers.has(mover));
        let counts = if count_legal(pos) == 0 {
            &mut tally.mates
        } else {
            &mut tally.checks
        };
        *counts.of_kind(kind) += 1;
    }
    pos.unmake(mv, &undo);
}
