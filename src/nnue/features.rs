//! The network's inputs: one per (piece, square) as seen from one side, shared by the
//! engine and the trainer (`examples/train.rs`) so the two can never disagree.

use crate::board::{Color, Piece, Position, Square};

/// Inputs per side's view: 2 colours (own, enemy) x 6 kinds x 64 squares.
pub const INPUTS: usize = 768;

/// The input for `piece` on `sq` as seen by `view`: own pieces first, board flipped
/// vertically for black so that every side sees itself at the bottom.
#[inline(always)]
pub fn index(view: Color, piece: Piece, sq: Square) -> usize {
    let theirs = (piece.color() != view) as usize;
    (theirs * 6 + piece.kind().index()) * 64 + sq.relative(view).index()
}

/// Every active input of `pos` as seen by `view`.
pub fn active(pos: &Position, view: Color) -> impl Iterator<Item = usize> + '_ {
    pos.occupied()
        .into_iter()
        .map(move |sq| index(view, pos.piece_on(sq), sq))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::PieceType;

    #[test]
    fn each_side_sees_itself_at_the_bottom() {
        let white_pawn = Piece::new(Color::White, PieceType::Pawn);
        let black_pawn = Piece::new(Color::Black, PieceType::Pawn);
        let e2 = Square::from_coords(4, 1);
        let e7 = Square::from_coords(4, 6);
        assert_eq!(
            index(Color::White, white_pawn, e2),
            index(Color::Black, black_pawn, e7)
        );
        assert_eq!(
            index(Color::White, black_pawn, e7),
            index(Color::Black, white_pawn, e2)
        );
        assert!(index(Color::Black, Piece::new(Color::White, PieceType::King), e2) < INPUTS);
    }
}
