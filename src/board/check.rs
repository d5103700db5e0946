//! Whether a move gives check, answered before it is made: the search prunes most of
//! the moves it looks at, and making each one only to ask would cost a make and an
//! unmake.

use super::{Bitboard, Move, MoveKind, PieceType, Position, Square};
use crate::attacks;

/// What answers "does this move give check?" for every move of one position, computed
/// once: the squares from which each kind of piece would attack the enemy king, and the
/// pieces of ours whose leaving may uncover a slider's check (Stockfish's
/// `checkSquares` and `blockersForKing`). See [`Position::check_squares`].
#[derive(Clone, Copy, Debug)]
pub struct CheckSquares {
    /// The enemy king's square.
    king: Square,
    /// By [`PieceType`] index: where a piece of that kind would give check (none for the
    /// king).
    squares: [Bitboard; 6],
    /// Our pieces alone between one of our sliders and the enemy king.
    discoverers: Bitboard,
}

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

    /// The check squares of this position, for
    /// [`gives_check_with`](Self::gives_check_with): worth computing when many moves
    /// are asked about.
    pub fn check_squares(&self) -> CheckSquares {
        let us = self.side_to_move();
        let king = self.king(us.flip());
        let occ = self.occupied();
        let diagonal = attacks::bishop(king, occ);
        let straight = attacks::rook(king, occ);
        let queens = self.colored(us, PieceType::Queen);
        let snipers = (attacks::bishop_rays(king) & (self.colored(us, PieceType::Bishop) | queens))
            | (attacks::rook_rays(king) & (self.colored(us, PieceType::Rook) | queens));
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(king, sniper) & occ;
            if between.count() == 1 {
                discoverers |= between & self.color(us);
            }
        }
        CheckSquares {
            king,
            squares: [
                attacks::pawn(us.flip(), king),
                attacks::knight(king),
                diagonal,
                straight,
                diagonal | straight,
                Bitboard::EMPTY,
            ],
            discoverers,
        }
    }

    /// [`gives_check`](Self::gives_check), answered from this position's
    /// [`check_squares`](Self::check_squares).
    #[inline]
    pub fn gives_check_with(&self, check: &CheckSquares, mv: Move) -> bool {
        if mv.kind() != MoveKind::Normal {
            // Promotions (the pawn's square opens lines), castling and en passant.
            return self.gives_check(mv);
        }
        let (from, to) = (mv.from(), mv.to());
        let kind = self.piece_on(from).kind();
        check.squares[kind.index()].has(to)
            || (check.discoverers.has(from) && !attacks::line(from, to).has(check.king))
    }
}
