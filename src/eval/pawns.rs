//! Pawn structure: passed, doubled, isolated and connected pawns.

use super::{S, Weights};
use crate::board::{Bitboard, Color, PieceType, Position, Square};

/// The squares strictly in front of `sq` (from `color`'s side) on its file and the two
/// beside it; with `adjacent_only`, the file itself is left out.
#[inline]
pub(super) fn front_span(color: Color, sq: Square, adjacent_only: bool) -> Bitboard {
    let f = sq.file();
    let mut files = Bitboard::EMPTY;
    if !adjacent_only {
        files |= Bitboard::file(f);
    }
    if f > 0 {
        files |= Bitboard::file(f - 1);
    }
    if f < 7 {
        files |= Bitboard::file(f + 1);
    }
    files & ahead(color, sq)
}

/// Every square on the ranks in front of `sq` from `color`'s side.
#[inline]
pub(super) fn ahead(color: Color, sq: Square) -> Bitboard {
    let r = sq.rank() as u32;
    match color {
        Color::White if r < 7 => Bitboard(!0u64 << (8 * (r + 1))),
        Color::Black if r > 0 => Bitboard((1u64 << (8 * r)) - 1),
        _ => Bitboard::EMPTY,
    }
}

/// Chebyshev distance between two squares.
#[inline]
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// The pawn-structure terms of `us`.
pub(super) fn structure(pos: &Position, us: Color, w: &Weights) -> S {
    let them = us.flip();
    let ours = pos.colored(us, PieceType::Pawn);
    let theirs = pos.colored(them, PieceType::Pawn);
    let defended = super::pawn_attacks(pos, us);
    let mut s = S(0, 0);
    for sq in ours {
        let f = sq.file();
        let rank = sq.relative(us).rank() as usize;
        let file = Bitboard::file(f);
        let mut neighbours = Bitboard::EMPTY;
        if f > 0 {
            neighbours |= Bitboard::file(f - 1);
        }
        if f < 7 {
            neighbours |= Bitboard::file(f + 1);
        }
        let ahead_on_file = file & ahead(us, sq);
        if (ours & ahead_on_file).any() {
            s += w.doubled;
        }
        if (ours & neighbours).is_empty() {
            s += w.isolated;
        }
        let phalanx = ours & neighbours & Bitboard::rank(sq.rank());
        if phalanx.any() || defended.has(sq) {
            s += w.connected[rank];
        }
        if (theirs & front_span(us, sq, false)).is_empty() && (ours & ahead_on_file).is_empty() {
            s += w.passed[rank];
            let stop = sq.offset(if us == Color::White { 8 } else { -8 });
            let weight = rank as i32 - 2;
            if weight > 0 {
                let (theirs_w, ours_w) = w.passer_king_distance;
                let eg = theirs_w * distance(pos.king(them), stop)
                    - ours_w * distance(pos.king(us), stop);
                s += S(0, eg * weight / 2);
            }
        }
    }
    s
}
