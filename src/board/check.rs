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

#[cfg(test)]
mod tests {
    use crate::board::Position;
    use crate::movegen::legal_moves;

    /// Every legal move of every position two plies deep from positions rich in
    /// checks, discovered checks, promotions, en passant and castling (standard and
    /// Chess960): `gives_check` says what making the move says.
    #[test]
    fn gives_check_agrees_with_making_the_move() {
        for fen in [
            crate::board::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/2k5/3Pp3/8/8/4KQ2 b - d3 0 1",
            "2r1k2r/8/8/8/8/8/8/R3K1R1 w Qk - 0 1",
            "1rk3r1/8/8/8/8/8/8/1R1K2R1 b GBgb - 0 1",
            "4k3/1P6/8/8/8/8/8/4K2R w K - 0 1",
        ] {
            let root = Position::from_fen(fen).expect("valid FEN");
            let mut checked = 0;
            for first in legal_moves(&root).iter().copied() {
                let mut pos = root.clone();
                pos.play(first);
                for mv in legal_moves(&pos).iter().copied() {
                    let mut after = pos.clone();
                    after.play(mv);
                    assert_eq!(
                        pos.gives_check(mv),
                        after.in_check(),
                        "{fen} {first:?} {mv:?}"
                    );
                    checked += 1;
                }
            }
            assert!(checked > 0, "{fen}");
        }
    }
}
