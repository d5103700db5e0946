//! Piece activity: mobility, rooks on open files, pawn threats, and the king's attack
//! and shelter.

use super::{S, Weights, pawns};
use crate::attacks;
use crate::board::{Bitboard, Color, PieceType, Position};

/// Reachable squares subtracted before weighting mobility (N, B, R, Q).
const MOBILITY_BASE: [i32; 4] = [4, 6, 6, 12];

/// The activity terms of `us`.
pub(super) fn activity(pos: &Position, us: Color, w: &Weights) -> S {
    let them = us.flip();
    let occ = pos.occupied();
    let our_pawns = pos.colored(us, PieceType::Pawn);
    let their_pawns = pos.colored(them, PieceType::Pawn);
    let area = !(our_pawns | pos.colored(us, PieceType::King)) & !super::pawn_attacks(pos, them);
    let their_king = pos.king(them);
    let zone = attacks::king(their_king) | Bitboard::from(their_king);
    let mut s = S(0, 0);
    let mut attack_units = 0;
    let mut attackers = 0;
    for (i, kind) in [
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ]
    .into_iter()
    .enumerate()
    {
        for sq in pos.colored(us, kind) {
            let reach = match kind {
                PieceType::Knight => attacks::knight(sq),
                PieceType::Bishop => attacks::bishop(sq, occ),
                PieceType::Rook => attacks::rook(sq, occ),
                _ => attacks::queen(sq, occ),
            };
            s += w.mobility[i] * ((reach & area).count() as i32 - MOBILITY_BASE[i]);
            let hits = (reach & zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                attack_units += w.king_attack[i] * hits;
            }
            if kind == PieceType::Rook {
                let file = Bitboard::file(sq.file());
                if (file & our_pawns).is_empty() {
                    s += if (file & their_pawns).is_empty() {
                        w.rook_open
                    } else {
                        w.rook_semi_open
                    };
                }
            }
        }
    }
    if attackers >= 2 && pos.colored(us, PieceType::Queen).any() {
        let mg = (attack_units * attack_units / 8).min(500);
        s += S(mg, attack_units);
    }
    let their_pieces =
        pos.color(them) & !pos.pieces(PieceType::Pawn) & !pos.pieces(PieceType::King);
    s += w.pawn_threat * (super::pawn_attacks(pos, us) & their_pieces).count() as i32;
    s + shelter(pos, us, w)
}

/// Pawns in front of our king, and open files next to it.
fn shelter(pos: &Position, us: Color, w: &Weights) -> S {
    let ksq = pos.king(us);
    if ksq.relative(us).rank() > 1 {
        return S(0, 0);
    }
    let pawns = pos.colored(us, PieceType::Pawn);
    let front = pawns::ahead(us, ksq);
    let mut s = S(0, 0);
    let f = ksq.file() as i32;
    for file in (f - 1).max(0)..=(f + 1).min(7) {
        let on_file = pawns & Bitboard::file(file as u8) & front;
        if on_file.is_empty() {
            s += w.king_open_file;
            continue;
        }
        let near = on_file.any_on_rank(us, 1);
        if near {
            s += w.shield_near;
        } else if on_file.any_on_rank(us, 2) {
            s += w.shield_far;
        }
    }
    s
}

/// Rank tests from one side's point of view.
trait RelativeRank {
    /// Whether a square of the set is on `rank` counted from `color`'s side.
    fn any_on_rank(self, color: Color, rank: u8) -> bool;
}

impl RelativeRank for Bitboard {
    #[inline]
    fn any_on_rank(self, color: Color, rank: u8) -> bool {
        let r = if color == Color::White {
            rank
        } else {
            7 - rank
        };
        (self & Bitboard::rank(r)).any()
    }
}
