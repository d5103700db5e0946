//! The board: a validated chess position with make/unmake.
//!
//! [`Position`] keeps bitboards by piece type and by colour, a square-to-piece array,
//! castling rights, the en passant square, the move counters and an incremental Zobrist
//! key. It is built only from a FEN that passes validation (`fen.rs`), so every
//! `Position` is a legal chess position.

mod castling;
mod check;
pub mod diagram;
mod error;
mod fen;
mod make;
mod moves;
pub mod zobrist;

pub use crate::types::{Bitboard, Color, Piece, PieceType, Square};
pub use castling::{CastlePath, CastleSide, Castling};
pub use check::CheckSquares;
pub use error::FenError;
pub use make::Undo;
pub use moves::{Move, MoveKind, UciMove};

use crate::attacks;

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The largest halfmove clock or fullmove number a FEN may give: half of `u32`, so
/// that the 2^31 further moves it leaves room for (a UCI move list holds at most ~13
/// million) can never make a counter wrap or saturate.
pub const MAX_FEN_COUNTER: u32 = u32::MAX / 2;

/// A legal chess position (standard or Chess960).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Position {
    by_type: [Bitboard; 6],
    by_color: [Bitboard; 2],
    board: [Piece; 64],
    side: Color,
    castling: Castling,
    ep: Option<Square>,
    halfmove: u32,
    fullmove: u32,
    key: u64,
    chess960: bool,
}

impl Default for Position {
    fn default() -> Self {
        Self::startpos()
    }
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Self {
        match Self::from_fen(START_FEN) {
            Ok(pos) => pos,
            Err(e) => unreachable!("the start FEN is valid: {e}"),
        }
    }

    /// Pieces of `kind`, both colours.
    #[inline(always)]
    pub fn pieces(&self, kind: PieceType) -> Bitboard {
        self.by_type[kind.index()]
    }

    /// Pieces of `color`.
    #[inline(always)]
    pub fn color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Pieces of `color` and `kind`.
    #[inline(always)]
    pub fn colored(&self, color: Color, kind: PieceType) -> Bitboard {
        self.by_type[kind.index()] & self.by_color[color.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The piece on `sq`, or `Piece::NONE`.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The king square of `color`.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.colored(color, PieceType::King).lsb()
    }

    /// Castling rights.
    #[inline(always)]
    pub fn castling(&self) -> &Castling {
        &self.castling
    }

    /// The en passant square, kept only when a pawn of the side to move attacks it.
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    /// Half-moves since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The full-move number (starts at 1, grows after black moves; exact in any
    /// reachable game: see [`MAX_FEN_COUNTER`]).
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Whether castling moves are spelled king-takes-rook (Chess960).
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Sets how castling moves are spelled (the rules are the same).
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// Pieces of either colour attacking `sq`, with `occ` as the occupancy.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let rq = self.pieces(PieceType::Rook) | self.pieces(PieceType::Queen);
        let bq = self.pieces(PieceType::Bishop) | self.pieces(PieceType::Queen);
        (attacks::pawn(Color::White, sq) & self.colored(Color::Black, PieceType::Pawn))
            | (attacks::pawn(Color::Black, sq) & self.colored(Color::White, PieceType::Pawn))
            | (attacks::knight(sq) & self.pieces(PieceType::Knight))
            | (attacks::king(sq) & self.pieces(PieceType::King))
            | (attacks::rook(sq, occ) & rq)
            | (attacks::bishop(sq, occ) & bq)
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        let us = self.side;
        self.attackers_to(self.king(us), self.occupied()) & self.color(us.flip())
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    /// The key computed from scratch (the incremental one must always equal it).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied() {
            key ^= zobrist::piece(self.piece_on(sq), sq);
        }
        if self.side == Color::Black {
            key ^= zobrist::side();
        }
        if let Some(ep) = self.ep {
            key ^= zobrist::en_passant(ep);
        }
        key ^ zobrist::castling(self.castling.bits())
    }

    /// Puts `piece` on the empty square `sq` (key not updated).
    #[inline(always)]
    fn put(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from(sq);
        self.by_type[piece.kind().index()] |= bb;
        self.by_color[piece.color().index()] |= bb;
        self.board[sq.index()] = piece;
    }

    /// Takes `piece` off `sq` (key not updated).
    #[inline(always)]
    fn remove(&mut self, sq: Square, piece: Piece) {
        let bb = Bitboard::from(sq);
        self.by_type[piece.kind().index()] ^= bb;
        self.by_color[piece.color().index()] ^= bb;
        self.board[sq.index()] = Piece::NONE;
    }

    /// Moves `piece` from `from` to the empty square `to` (key not updated).
    #[inline(always)]
    fn shift(&mut self, from: Square, to: Square, piece: Piece) {
        let bb = Bitboard::from(from) | Bitboard::from(to);
        self.by_type[piece.kind().index()] ^= bb;
        self.by_color[piece.color().index()] ^= bb;
        self.board[from.index()] = Piece::NONE;
        self.board[to.index()] = piece;
    }

    /// An empty board, white to move: the starting point of FEN parsing.
    fn empty() -> Self {
        Self {
            by_type: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            board: [Piece::NONE; 64],
            side: Color::White,
            castling: Castling::default(),
            ep: None,
            halfmove: 0,
            fullmove: 1,
            key: 0,
            chess960: false,
        }
    }
}
