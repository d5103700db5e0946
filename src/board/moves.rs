//! `Move`: a move packed in 16 bits.
//!
//! Layout (the one place it is defined):
//!
//! | bits  | field                                                    |
//! |-------|----------------------------------------------------------|
//! | 0-5   | from square                                              |
//! | 6-11  | to square; for castling, the square of the castling rook |
//! | 12-13 | promotion piece: 0 knight, 1 bishop, 2 rook, 3 queen     |
//! | 14-15 | kind: 0 normal, 1 promotion, 2 en passant, 3 castling    |
//!
//! Castling is always stored as "king takes own rook", so standard chess and Chess960
//! share one representation; the UCI spelling (`e1g1` or `e1h1`) is chosen at the edge.

use super::{PieceType, Square};
use std::fmt;

/// What a move does besides moving a piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MoveKind {
    /// A quiet move or a capture (double pushes included).
    Normal,
    /// A pawn reaching the last rank.
    Promotion,
    /// A pawn capturing en passant.
    EnPassant,
    /// The king castling with a rook.
    Castling,
}

/// A move; see the module documentation for its layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// Not a move: a placeholder (a1a1) for empty slots.
    pub const NULL: Self = Self(0);

    /// A normal move.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Self {
        Self(from.index() as u16 | (to.index() as u16) << 6)
    }

    /// A promotion to `piece` (knight to queen).
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, piece: PieceType) -> Self {
        Self(Self::normal(from, to).0 | (piece as u16 - 1) << 12 | 1 << 14)
    }

    /// The four promotions of a pawn going from `from` to `to`, queen first: the one
    /// place promotions are expanded.
    #[inline(always)]
    pub const fn promotions(from: Square, to: Square) -> [Self; 4] {
        let [q, r, b, n] = PieceType::PROMOTIONS;
        [
            Self::promotion(from, to, q),
            Self::promotion(from, to, r),
            Self::promotion(from, to, b),
            Self::promotion(from, to, n),
        ]
    }

    /// An en passant capture to the en passant square `to`.
    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Self {
        Self(Self::normal(from, to).0 | 2 << 14)
    }

    /// Castling of the king on `king` with the rook on `rook`.
    #[inline(always)]
    pub const fn castling(king: Square, rook: Square) -> Self {
        Self(Self::normal(king, rook).0 | 3 << 14)
    }

    /// The square the piece leaves.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u8)
    }

    /// The destination (the rook's square for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8)
    }

    /// The kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 14 {
            0 => MoveKind::Normal,
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            _ => MoveKind::Castling,
        }
    }

    /// The promotion piece, for a promotion.
    #[inline(always)]
    pub const fn promotion_piece(self) -> Option<PieceType> {
        match self.kind() {
            MoveKind::Promotion => Some(PieceType::from_index((self.0 >> 12 & 3) as usize + 1)),
            _ => None,
        }
    }

    /// The raw 16 bits (for hash tables).
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move from its raw 16 bits.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Self {
        Self(bits)
    }

    /// Where the king lands when castling with the rook on `rook`: the g- or c-file.
    #[inline(always)]
    pub const fn castling_king_to(king: Square, rook: Square) -> Square {
        let file = if rook.index() > king.index() { 6 } else { 2 };
        Square::from_coords(file, king.rank())
    }

    /// Where the rook lands when castling with the rook on `rook`: the f- or d-file.
    #[inline(always)]
    pub const fn castling_rook_to(king: Square, rook: Square) -> Square {
        let file = if rook.index() > king.index() { 5 } else { 3 };
        Square::from_coords(file, king.rank())
    }

    /// The UCI spelling: castling as `e1g1`, or as king-takes-rook (`e1h1`) in Chess960.
    pub fn to_uci(self, chess960: bool) -> String {
        UciMove { mv: self, chess960 }.to_string()
    }

    /// A displayable UCI spelling, without allocating.
    pub const fn uci(self, chess960: bool) -> UciMove {
        UciMove { mv: self, chess960 }
    }
}

/// A move spelled in UCI (see [`Move::uci`]).
#[derive(Clone, Copy)]
pub struct UciMove {
    mv: Move,
    chess960: bool,
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mv = self.mv;
        if mv == Move::NULL {
            return f.write_str("0000");
        }
        let to = match mv.kind() {
            MoveKind::Castling if !self.chess960 => Move::castling_king_to(mv.from(), mv.to()),
            _ => mv.to(),
        };
        write!(f, "{}{}", mv.from(), to)?;
        if let Some(piece) = mv.promotion_piece() {
            write!(f, "{}", piece.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.uci(true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).expect("valid square")
    }

    #[test]
    fn fields_round_trip() {
        let m = Move::promotion(sq("b7"), sq("a8"), PieceType::Knight);
        assert_eq!(
            (m.from(), m.to(), m.kind()),
            (sq("b7"), sq("a8"), MoveKind::Promotion)
        );
        assert_eq!(m.promotion_piece(), Some(PieceType::Knight));
        assert_eq!(m.to_uci(false), "b7a8n");
        let q = Move::promotion(sq("b7"), sq("b8"), PieceType::Queen);
        assert_eq!(q.to_uci(false), "b7b8q");
    }

    #[test]
    fn castling_spelling() {
        let m = Move::castling(sq("e1"), sq("h1"));
        assert_eq!(m.to_uci(false), "e1g1");
        assert_eq!(m.to_uci(true), "e1h1");
        let m = Move::castling(sq("e8"), sq("a8"));
        assert_eq!(m.to_uci(false), "e8c8");
        assert_eq!(Move::castling_rook_to(sq("e8"), sq("a8")), sq("d8"));
    }
}
