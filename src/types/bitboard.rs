//! `Bitboard`: a set of squares, one bit per square (bit 0 = a1, bit 63 = h8).

use super::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Self = Self(0);
    /// Every square.
    pub const FULL: Self = Self(!0);
    /// The a-file.
    pub const FILE_A: Self = Self(0x0101_0101_0101_0101);
    /// The h-file.
    pub const FILE_H: Self = Self(0x8080_8080_8080_8080);
    /// The dark squares: a1, c1, ..., h8.
    pub const DARK_SQUARES: Self = Self(0xAA55_AA55_AA55_AA55);
    /// Ranks 1 and 8, where pawns promote or cannot stand.
    pub const BACK_RANKS: Self = Self(0xFF00_0000_0000_00FF);

    /// The rank with index `r` (0 = rank 1).
    #[inline]
    pub const fn rank(r: u8) -> Self {
        Self(0xFF << (8 * r))
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of squares.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set has more than one square.
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The lowest square; the set must not be empty.
    #[inline]
    pub const fn lsb(self) -> Square {
        debug_assert!(self.0 != 0);
        Square::new(self.0.trailing_zeros() as u8)
    }

    /// The set shifted by `delta` squares (positive towards h8); squares falling off vanish.
    #[inline]
    pub const fn shift(self, delta: i8) -> Self {
        if delta >= 0 {
            Self(self.0 << delta)
        } else {
            Self(self.0 >> -delta)
        }
    }
}

impl From<Square> for Bitboard {
    #[inline]
    fn from(sq: Square) -> Self {
        Self(1 << sq.index())
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.lsb();
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let squares: Vec<String> = self.map(|sq| sq.to_string()).collect();
        write!(f, "Bitboard[{}]", squares.join(" "))
    }
}

macro_rules! bit_ops {
    ($($trait:ident $fn:ident $assign:ident $assign_fn:ident $op:tt),*) => {$(
        impl $trait for Bitboard {
            type Output = Self;
            #[inline]
            fn $fn(self, rhs: Self) -> Self {
                Self(self.0 $op rhs.0)
            }
        }
        impl $assign for Bitboard {
            #[inline]
            fn $assign_fn(&mut self, rhs: Self) {
                self.0 = self.0 $op rhs.0;
            }
        }
    )*};
}

bit_ops!(BitAnd bitand BitAndAssign bitand_assign &, BitOr bitor BitOrAssign bitor_assign |,
    BitXor bitxor BitXorAssign bitxor_assign ^);

impl Not for Bitboard {
    type Output = Self;
    #[inline]
    fn not(self) -> Self {
        Self(!self.0)
    }
}
