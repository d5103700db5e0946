//! Castling rights: which rooks may still castle, for standard chess and Chess960.

use super::{Bitboard, Color, Move, Square};
use crate::attacks;

/// The side of the board a rook castles on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CastleSide {
    /// Towards the h-file (O-O).
    King = 0,
    /// Towards the a-file (O-O-O).
    Queen = 1,
}

impl CastleSide {
    /// Both sides, king side first.
    pub const ALL: [CastleSide; 2] = [CastleSide::King, CastleSide::Queen];
}

/// What castling on one side needs, worked out once when the right is granted so that
/// move generation tests it with a few masks.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct CastlePath {
    /// Squares that must be empty: the king's and the rook's paths, but for the two of them.
    pub empty: Bitboard,
    /// Squares the king stands on, crosses or reaches: none may be attacked.
    pub king: Bitboard,
    /// The king's and the rook's squares (off the board while testing attacks).
    pub movers: Bitboard,
    /// Squares from which a rook could attack a square of `king` on an empty board: the
    /// only enemy rooks and queens that can stop this castling.
    pub rook_reach: Bitboard,
    /// Squares from which a bishop could attack a square of `king` on an empty board.
    pub bishop_reach: Bitboard,
}

impl CastlePath {
    /// The path of the king on `king` castling with the rook on `rook` (same rank).
    pub fn new(king: Square, rook: Square) -> Self {
        let king_to = Move::castling_king_to(king, rook);
        let rook_to = Move::castling_rook_to(king, rook);
        let movers = Bitboard::from(king) | Bitboard::from(rook);
        let king_path = attacks::between(king, king_to) | Bitboard::from(king_to);
        let rook_path = attacks::between(rook, rook_to) | Bitboard::from(rook_to);
        let king_squares = king_path | Bitboard::from(king);
        let (mut rook_reach, mut bishop_reach) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for sq in king_squares {
            rook_reach |= attacks::rook_rays(sq);
            bishop_reach |= attacks::bishop_rays(sq);
        }
        Self {
            empty: (king_path | rook_path) & !movers,
            king: king_squares,
            movers,
            rook_reach,
            bishop_reach,
        }
    }
}

/// The rights as 4 bits (white O-O, white O-O-O, black O-O, black O-O-O), the rook and
/// path of each right, and for each square the rights that survive a move touching it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Castling {
    rights: u8,
    rooks: [[Square; 2]; 2],
    paths: [[CastlePath; 2]; 2],
    keep: [u8; 64],
}

impl Default for Castling {
    fn default() -> Self {
        Self {
            rights: 0,
            rooks: [[Square::new(0); 2]; 2],
            paths: [[CastlePath::default(); 2]; 2],
            keep: [0xF; 64],
        }
    }
}

/// The bit of one right.
#[inline(always)]
pub const fn bit(color: Color, side: CastleSide) -> u8 {
    1 << (color as u8 * 2 + side as u8)
}

impl Castling {
    /// The rights as 4 bits (see `bit`).
    #[inline(always)]
    pub const fn bits(&self) -> u8 {
        self.rights
    }

    /// Whether `color` may still castle on `side`.
    #[inline(always)]
    pub const fn has(&self, color: Color, side: CastleSide) -> bool {
        self.rights & bit(color, side) != 0
    }

    /// Whether `color` has any right left.
    #[inline(always)]
    pub const fn any(&self, color: Color) -> bool {
        self.rights & (3 << (color as u8 * 2)) != 0
    }

    /// The rook that castles on `side`; meaningful only while the right is held.
    #[inline(always)]
    pub const fn rook(&self, color: Color, side: CastleSide) -> Square {
        self.rooks[color as usize][side as usize]
    }

    /// What castling on `side` needs; meaningful only while the right is held.
    #[inline(always)]
    pub const fn path(&self, color: Color, side: CastleSide) -> &CastlePath {
        &self.paths[color as usize][side as usize]
    }

    /// Grants a right: the king on `king`, the rook on `rook`.
    pub fn add(&mut self, color: Color, side: CastleSide, king: Square, rook: Square) {
        let b = bit(color, side);
        self.rights |= b;
        self.rooks[color as usize][side as usize] = rook;
        self.paths[color as usize][side as usize] = CastlePath::new(king, rook);
        self.keep[rook.index()] &= !b;
        self.keep[king.index()] &= !(3 << (color as u8 * 2));
    }

    /// Drops the rights lost by a move from `from` to `to`; returns the old bits.
    #[inline(always)]
    pub fn update(&mut self, from: Square, to: Square) -> u8 {
        let old = self.rights;
        self.rights &= self.keep[from.index()] & self.keep[to.index()];
        old
    }

    /// Restores bits returned by [`update`](Self::update).
    #[inline(always)]
    pub fn restore(&mut self, bits: u8) {
        self.rights = bits;
    }
}
