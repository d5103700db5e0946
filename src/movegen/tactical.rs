//! Captures and promotions only (for quiescence search): the legal generator with a
//! [`Visitor`] that drops every target not holding an enemy piece.

use super::{MoveList, Visitor, generate_all};
use crate::board::{Bitboard, Move, MoveKind, Position, Square};

/// Keeps captures (en passant included) and promotions; promotions other than to a queen
/// are kept only when they capture.
struct Tactical<'a> {
    theirs: Bitboard,
    list: &'a mut MoveList,
}

impl Visitor for Tactical<'_> {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        self.list.piece(from, targets & self.theirs);
    }

    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i8, promotion: bool) {
        if !promotion {
            self.list.pawns(targets & self.theirs, delta, false);
            return;
        }
        for to in targets {
            let [queen, under @ ..] = Move::promotions(to.offset(-delta), to);
            self.list.push(queen);
            if self.theirs.has(to) {
                for mv in under {
                    self.list.push(mv);
                }
            }
        }
    }

    #[inline(always)]
    fn single(&mut self, mv: Move) {
        if mv.kind() == MoveKind::EnPassant {
            self.list.push(mv);
        }
    }
}

/// The legal captures and promotions of the side to move (under-promotions only when
/// they capture).
pub fn tactical_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    tactical_moves_into(pos, &mut list);
    list
}

/// [`tactical_moves`] appended to `list`, so that a caller that keeps the list in its
/// own frame does not copy it back.
pub fn tactical_moves_into(pos: &Position, list: &mut MoveList) {
    let mut visitor = Tactical {
        theirs: pos.color(pos.side_to_move().flip()),
        list,
    };
    generate_all(pos, &mut visitor);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::PieceType;
    use crate::movegen::legal_moves;

    #[test]
    fn tactical_moves_are_the_legal_captures_and_promotions() {
        for fen in [
            crate::board::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/8/3p4/1Pp4r/1K5k/5p2/4P1P1/1R6 w - c6 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).expect("valid FEN");
            let mut expected: Vec<Move> = legal_moves(&pos)
                .iter()
                .copied()
                .filter(|&mv| {
                    let capture = pos.is_capture(mv);
                    match mv.promotion_piece() {
                        Some(PieceType::Queen) => true,
                        Some(_) => capture,
                        None => capture,
                    }
                })
                .collect();
            let mut got: Vec<Move> = tactical_moves(&pos).iter().copied().collect();
            expected.sort_by_key(|m| m.bits());
            got.sort_by_key(|m| m.bits());
            assert_eq!(got, expected, "{fen}");
        }
    }
}
