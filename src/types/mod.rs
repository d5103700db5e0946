//! The small value types every layer uses: `Color`, `PieceType`, `Piece`, `Square` and
//! `Bitboard`. They sit below the attack tables and the board and import nothing from the
//! crate.

mod bitboard;

pub use bitboard::Bitboard;
use std::fmt;

/// A side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    /// White, moving up the board.
    White = 0,
    /// Black, moving down the board.
    Black = 1,
}

impl Color {
    /// Both colours, white first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other colour.
    #[inline]
    pub const fn flip(self) -> Self {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for white, 1 for black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The FEN letter: `w` or `b`.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

/// A kind of piece, without colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    /// Pawn.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King.
    King = 5,
}

impl PieceType {
    /// What a pawn may promote to, queen first (the order moves are listed in).
    pub const PROMOTIONS: [PieceType; 4] = [
        PieceType::Queen,
        PieceType::Rook,
        PieceType::Bishop,
        PieceType::Knight,
    ];

    /// All six, pawn first.
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    /// 0 (pawn) to 5 (king).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece type with index `i` (0..6).
    #[inline]
    pub const fn from_index(i: usize) -> Self {
        Self::ALL[i]
    }

    /// The lower-case letter (`p n b r q k`).
    pub const fn char(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }

    /// The piece type for a letter of either case.
    pub fn from_char(c: char) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|p| p.char() == c.to_ascii_lowercase())
    }
}

/// A coloured piece, or `Piece::NONE` on an empty square (`index` = colour * 6 + type).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Piece {
    /// An empty square.
    pub const NONE: Self = Self(12);

    /// The piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceType) -> Self {
        Self(color as u8 * 6 + kind as u8)
    }

    /// Whether this is `NONE`.
    #[inline]
    pub const fn is_none(self) -> bool {
        self.0 == 12
    }

    /// The colour; not for `NONE`.
    #[inline]
    pub const fn color(self) -> Color {
        if self.0 < 6 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The kind; not for `NONE`.
    #[inline]
    pub const fn kind(self) -> PieceType {
        // A table rather than `% 6` (make and unmake ask for it at every move).
        const KINDS: [PieceType; 16] = {
            let mut kinds = [PieceType::Pawn; 16];
            let mut i = 0;
            while i < 12 {
                kinds[i] = PieceType::ALL[i % 6];
                i += 1;
            }
            kinds
        };
        KINDS[self.0 as usize & 15]
    }

    /// 0..12 for a piece, 12 for `NONE`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The FEN letter (upper case for white).
    pub fn char(self) -> char {
        if self.is_none() {
            return ' ';
        }
        let c = self.kind().char();
        if self.color() == Color::White {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }

    /// The piece for a FEN letter.
    pub fn from_char(c: char) -> Option<Self> {
        let kind = PieceType::from_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Self::new(color, kind))
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Piece({})",
            if self.is_none() { '.' } else { self.char() }
        )
    }
}

/// A square, 0 = a1 to 63 = h8.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with index `i`; `i` must be below 64.
    #[inline]
    pub const fn new(i: u8) -> Self {
        debug_assert!(i < 64);
        Self(i)
    }

    /// The square on `file` (0 = a) and `rank` (0 = 1).
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Self {
        Self::new(rank * 8 + file)
    }

    /// 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 (a) to 7 (h).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// 0 (rank 1) to 7 (rank 8).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The square `delta` steps away (positive towards h8); the caller keeps it on the board.
    #[inline]
    pub const fn offset(self, delta: i8) -> Self {
        Self::new((self.0 as i8 + delta) as u8)
    }

    /// The same square seen from `color`'s side (rank mirrored for black).
    #[inline]
    pub const fn relative(self, color: Color) -> Self {
        match color {
            Color::White => self,
            Color::Black => Self(self.0 ^ 56),
        }
    }

    /// Parses `e4`.
    pub fn parse(s: &str) -> Option<Self> {
        match s.as_bytes() {
            &[f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Self::from_coords(f - b'a', r - b'1')),
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_round_trip() {
        for i in 0..64 {
            let sq = Square::new(i);
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
    }

    #[test]
    fn piece_letters_round_trip() {
        for c in "PNBRQKpnbrqk".chars() {
            assert_eq!(Piece::from_char(c).map(Piece::char), Some(c));
        }
        assert_eq!(Piece::from_char('x'), None);
    }
}
