//! `FenError`: every way a FEN can be malformed or describe an impossible position.

use super::Color;
use std::fmt;

/// Why a FEN was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Fewer than 4 or more than 6 space-separated fields.
    FieldCount(usize),
    /// The placement field is not 8 ranks of 8 squares.
    BadPlacement(String),
    /// A character that is not a piece letter, digit or `/`.
    BadPieceChar(char),
    /// The side to move is not `w` or `b`.
    BadSide(String),
    /// The castling field is not `-` or letters from `KQkq` / `A-Ha-h`.
    BadCastling(String),
    /// The en passant field is not `-` or a square.
    BadEnPassantSquare(String),
    /// The halfmove clock is not a number from 0 to [`super::MAX_FEN_COUNTER`].
    BadHalfmove(String),
    /// The fullmove number is not a number from 0 to [`super::MAX_FEN_COUNTER`].
    BadFullmove(String),
    /// A side without exactly one king.
    KingCount(Color, u32),
    /// A pawn on the first or last rank.
    PawnOnBackRank,
    /// More than 16 pieces for one side.
    TooManyPieces(Color, u32),
    /// More than 8 pawns for one side.
    TooManyPawns(Color, u32),
    /// The side that just moved has its king in check.
    OpponentInCheck,
    /// A castling right whose king or rook is not in place.
    CastlingWithoutPieces(char),
    /// An en passant square that no double pawn push could have made.
    ImpossibleEnPassant(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |c: &Color| if *c == Color::White { "white" } else { "black" };
        match self {
            Self::FieldCount(n) => write!(f, "a FEN has 4 to 6 fields, this one has {n}"),
            Self::BadPlacement(why) => write!(f, "bad piece placement: {why}"),
            Self::BadPieceChar(c) => write!(f, "bad piece placement: '{c}' is not a piece letter"),
            Self::BadSide(s) => write!(f, "side to move must be 'w' or 'b', not '{s}'"),
            Self::BadCastling(s) => write!(f, "bad castling field '{s}'"),
            Self::BadEnPassantSquare(s) => write!(f, "bad en passant field '{s}'"),
            Self::BadHalfmove(s) => write!(
                f,
                "bad halfmove clock '{s}' (a whole number up to {})",
                super::MAX_FEN_COUNTER
            ),
            Self::BadFullmove(s) => write!(
                f,
                "bad fullmove number '{s}' (a whole number up to {})",
                super::MAX_FEN_COUNTER
            ),
            Self::KingCount(c, n) => write!(f, "{} has {n} kings, it needs exactly one", name(c)),
            Self::PawnOnBackRank => write!(f, "a pawn stands on the first or last rank"),
            Self::TooManyPieces(c, n) => {
                write!(f, "{} has {n} pieces, at most 16 are possible", name(c))
            }
            Self::TooManyPawns(c, n) => {
                write!(f, "{} has {n} pawns, at most 8 are possible", name(c))
            }
            Self::OpponentInCheck => write!(f, "the side not to move is in check"),
            Self::CastlingWithoutPieces(c) => {
                write!(f, "castling right '{c}' without its king and rook in place")
            }
            Self::ImpossibleEnPassant(s) => {
                write!(
                    f,
                    "en passant square {s} could not come from a double pawn push"
                )
            }
        }
    }
}

impl std::error::Error for FenError {}
