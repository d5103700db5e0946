//! `Side`: the side to move as a type, so one generator serves both colours.

use crate::board::{Bitboard, Color};

/// Compile-time facts about one side to move.
pub trait Side {
    /// The side to move.
    const US: Color;
    /// The opponent.
    const THEM: Color;
    /// One step forward for a pawn, in squares.
    const UP: i8;
    /// The rank a single push lands on when a double push is possible (3rd / 6th).
    const DOUBLE_PUSH_RANK: Bitboard;
    /// The rank pawns promote on.
    const PROMOTION_RANK: Bitboard;
    /// The opponent as a type.
    type Them: Side;
}

/// White to move.
pub struct White;
/// Black to move.
pub struct Black;

impl Side for White {
    const US: Color = Color::White;
    const THEM: Color = Color::Black;
    const UP: i8 = 8;
    const DOUBLE_PUSH_RANK: Bitboard = Bitboard::rank(2);
    const PROMOTION_RANK: Bitboard = Bitboard::rank(7);
    type Them = Black;
}

impl Side for Black {
    const US: Color = Color::Black;
    const THEM: Color = Color::White;
    const UP: i8 = -8;
    const DOUBLE_PUSH_RANK: Bitboard = Bitboard::rank(5);
    const PROMOTION_RANK: Bitboard = Bitboard::rank(0);
    type Them = White;
}
