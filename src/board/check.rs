//! Whether a move gives check, answered before it is made: the search prunes most of
//! the moves it looks at, and making each one only to ask would cost a make and an
//! unmake.

use super::{Bitboard, Move, MoveKind, PieceType, Position};
use crate::attacks;

impl Position {
    /// Whether the legal move `mv` puts the opponent in check.
    #[inline]
    pub fn gives_check(&self, mv: Move) -> bool {
        if !matches!(mv.kind(), MoveKind::Normal | MoveKind::Promotion) {
            // Castling and en passant (rare): ask the position they make.
            let mut after = self.clone();
            after.play(mv);
            return after.in_check();
        }
        let us = self.side_to_move();
        let king = self.king(us.flip());
        let (from, to) = (mv.from(), mv.to());
        let kind = mv
            .promotion_piece()
            .unwrap_or_else(|| self.piece_on(from).kind());
        let moved = Bitboard::from(from);
        let occ = (self.occupied() ^ moved) | Bitboard::from(to);
        let direct = match kind {
            PieceType::Pawn => attacks::pawn(us, to),
            PieceType::Knight => attacks::knight(to),
            PieceType::Bishop => attacks::bishop(to, occ),
            PieceType::Rook => attacks::rook(to, occ),
            PieceType::Queen => attacks::queen(to, occ),
            PieceType::King => Bitboard::EMPTY,
        };
        if direct.has(king) {
            return true;
        }
        // Discovered: a slider of ours (not the moved piece) that sees the king now.
        let queens = self.colored(us, PieceType::Queen);
        let diagonal = (self.colored(us, PieceType::Bishop) | queens) & !moved;
        let straight = (self.colored(us, PieceType::Rook) | queens) & !moved;
        (attacks::bishop(king, occ) & diagonal).any() || (attacks::rook(king, occ) & straight).any()
    }
}
