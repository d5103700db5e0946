//! The attack sets the prober asks the engine for: Rookling's own tables, so the
//! prober generates moves exactly as the engine does.

use crate::attacks;
use crate::board::{Bitboard, Color, Square};

/// Rookling's attack look-ups in the form pyrrhic-rs asks for (squares 0 = a1 to 63 = h8,
/// bitboards as `u64`).
#[derive(Clone, Copy, Debug)]
pub struct Adapter;

/// The square with index `sq` (the prober only passes squares of the board).
fn square(sq: u64) -> Square {
    Square::new((sq & 63) as u8)
}

impl pyrrhic_rs::EngineAdapter for Adapter {
    fn pawn_attacks(color: pyrrhic_rs::Color, sq: u64) -> u64 {
        let color = match color {
            pyrrhic_rs::Color::White => Color::White,
            pyrrhic_rs::Color::Black => Color::Black,
        };
        attacks::pawn(color, square(sq)).0
    }

    fn knight_attacks(sq: u64) -> u64 {
        attacks::knight(square(sq)).0
    }

    fn bishop_attacks(sq: u64, occupied: u64) -> u64 {
        attacks::bishop(square(sq), Bitboard(occupied)).0
    }

    fn rook_attacks(sq: u64, occupied: u64) -> u64 {
        attacks::rook(square(sq), Bitboard(occupied)).0
    }

    fn queen_attacks(sq: u64, occupied: u64) -> u64 {
        attacks::queen(square(sq), Bitboard(occupied)).0
    }

    fn king_attacks(sq: u64) -> u64 {
        attacks::king(square(sq)).0
    }
}
