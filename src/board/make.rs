//! Make and unmake: apply a legal move and take it back exactly.

use super::{Bitboard, Color, Move, MoveKind, Piece, PieceType, Position, Square, zobrist};
use crate::attacks;

/// What [`Position::unmake`] needs that the move does not say: a small `Copy` record kept
/// by the caller (on its stack) between `make` and `unmake`.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: Piece,
    castling: u8,
    ep: Option<Square>,
    halfmove: u32,
    key: u64,
}

impl Undo {
    /// The piece the move captured, or `Piece::NONE`.
    pub fn captured(&self) -> Piece {
        self.captured
    }
}

/// What [`Position::unmake_lite`] restores besides the bitboards (which it toggles back):
/// the en passant square and the castling rights.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LiteUndo {
    ep: Option<Square>,
    castling: u8,
}

impl Position {
    /// Plays the legal move `mv` for good; [`make`](Self::make) when it is to be taken
    /// back. The move is trusted, not checked: it must come from this position's legal
    /// moves (`movegen::legal_moves`); `try_play` checks a move given in UCI notation.
    #[inline]
    pub fn play(&mut self, mv: Move) {
        let _ = self.make(mv);
    }

    /// Plays the legal move `mv`; returns what [`unmake`](Self::unmake) needs.
    #[inline(always)]
    #[must_use = "unmake needs the Undo; use play() to keep the move"]
    pub fn make(&mut self, mv: Move) -> Undo {
        let us = self.side;
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());
        let piece = self.piece_on(from);
        let mut undo = Undo {
            captured: Piece::NONE,
            castling: self.castling.bits(),
            ep: self.ep,
            halfmove: self.halfmove,
            key: self.key,
        };
        let mut key = self.key ^ zobrist::side();
        if let Some(ep) = self.ep.take() {
            key ^= zobrist::en_passant(ep);
        }
        // Saturating: a game of 65,535 reversible moves is possible input (unmake restores
        // the clock from `undo`, so this stays exact).
        self.halfmove = self.halfmove.saturating_add(1);

        match mv.kind() {
            MoveKind::Normal => {
                let captured = self.piece_on(to);
                if !captured.is_none() {
                    self.remove(to, captured);
                    key ^= zobrist::piece(captured, to);
                    undo.captured = captured;
                    self.halfmove = 0;
                }
                self.shift(from, to, piece);
                key ^= zobrist::piece(piece, from) ^ zobrist::piece(piece, to);
                if piece.kind() == PieceType::Pawn {
                    self.halfmove = 0;
                    if from.index() ^ to.index() == 16 {
                        let ep = Square::new(((from.index() + to.index()) / 2) as u8);
                        if (attacks::pawn(us, ep) & self.colored(them, PieceType::Pawn)).any() {
                            self.ep = Some(ep);
                            key ^= zobrist::en_passant(ep);
                        }
                    }
                }
            }
            MoveKind::Promotion => {
                let captured = self.piece_on(to);
                if !captured.is_none() {
                    self.remove(to, captured);
                    key ^= zobrist::piece(captured, to);
                    undo.captured = captured;
                }
                let promoted = Piece::new(us, mv.promotion_piece().unwrap_or(PieceType::Queen));
                self.remove(from, piece);
                self.put(to, promoted);
                key ^= zobrist::piece(piece, from) ^ zobrist::piece(promoted, to);
                self.halfmove = 0;
            }
            MoveKind::EnPassant => {
                let cap_sq = Square::from_coords(to.file(), from.rank());
                let captured = Piece::new(them, PieceType::Pawn);
                self.remove(cap_sq, captured);
                self.shift(from, to, piece);
                key ^= zobrist::piece(captured, cap_sq)
                    ^ zobrist::piece(piece, from)
                    ^ zobrist::piece(piece, to);
                undo.captured = captured;
                self.halfmove = 0;
            }
            MoveKind::Castling => {
                let rook = Piece::new(us, PieceType::Rook);
                let (king_to, rook_to) = (
                    Move::castling_king_to(from, to),
                    Move::castling_rook_to(from, to),
                );
                self.remove(from, piece);
                self.remove(to, rook);
                self.put(king_to, piece);
                self.put(rook_to, rook);
                key ^= zobrist::piece(piece, from)
                    ^ zobrist::piece(piece, king_to)
                    ^ zobrist::piece(rook, to)
                    ^ zobrist::piece(rook, rook_to);
            }
        }

        let old = self.castling.update(from, to);
        if old != self.castling.bits() {
            key ^= zobrist::castling(old) ^ zobrist::castling(self.castling.bits());
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.wrapping_add(1);
        }
        self.side = them;
        self.key = key;
        undo
    }

    /// Takes back `mv`, which must be the last move made, with the record `make` returned.
    #[inline(always)]
    pub fn unmake(&mut self, mv: Move, undo: &Undo) {
        let them = self.side;
        let us = them.flip();
        self.side = us;
        if us == Color::Black {
            self.fullmove = self.fullmove.wrapping_sub(1);
        }
        let (from, to) = (mv.from(), mv.to());
        match mv.kind() {
            MoveKind::Normal => {
                let piece = self.piece_on(to);
                self.shift(to, from, piece);
                if !undo.captured.is_none() {
                    self.put(to, undo.captured);
                }
            }
            MoveKind::Promotion => {
                let promoted = self.piece_on(to);
                self.remove(to, promoted);
                self.put(from, Piece::new(us, PieceType::Pawn));
                if !undo.captured.is_none() {
                    self.put(to, undo.captured);
                }
            }
            MoveKind::EnPassant => {
                let piece = self.piece_on(to);
                self.shift(to, from, piece);
                self.put(Square::from_coords(to.file(), from.rank()), undo.captured);
            }
            MoveKind::Castling => {
                let (king_to, rook_to) = (
                    Move::castling_king_to(from, to),
                    Move::castling_rook_to(from, to),
                );
                let king = Piece::new(us, PieceType::King);
                let rook = Piece::new(us, PieceType::Rook);
                self.remove(king_to, king);
                self.remove(rook_to, rook);
                self.put(from, king);
                self.put(to, rook);
            }
        }
        self.castling.restore(undo.castling);
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
    }

    /// Plays the legal move `mv` on the bitboards, the en passant square and the castling
    /// rights only: the one thing allowed on the result is generating (or counting) the
    /// replies with the side as a type (`generate::<Them, _>`), since the square array,
    /// side to move, counters and key still describe the position before `mv`. Perft
    /// uses it for the last move it makes, whose replies it only counts;
    /// [`unmake_lite`](Self::unmake_lite) takes it back.
    #[inline(always)]
    #[must_use = "unmake_lite needs the LiteUndo: the position is half-updated until then"]
    pub(crate) fn make_lite(&mut self, mv: Move) -> LiteUndo {
        let undo = LiteUndo {
            ep: self.ep,
            castling: self.castling.bits(),
        };
        self.toggle_lite(mv);
        self.ep = None;
        let (from, to) = (mv.from(), mv.to());
        if mv.kind() == MoveKind::Normal
            && from.index() ^ to.index() == 16
            && self.piece_on(from).kind() == PieceType::Pawn
        {
            let us = self.side;
            let ep = Square::new(((from.index() + to.index()) / 2) as u8);
            if (attacks::pawn(us, ep) & self.colored(us.flip(), PieceType::Pawn)).any() {
                self.ep = Some(ep);
            }
        }
        self.castling.update(from, to);
        undo
    }

    /// Takes back [`make_lite`](Self::make_lite) of `mv` with the record it returned.
    #[inline(always)]
    pub(crate) fn unmake_lite(&mut self, mv: Move, undo: &LiteUndo) {
        self.toggle_lite(mv);
        self.ep = undo.ep;
        self.castling.restore(undo.castling);
    }

    /// Toggles the squares `mv` changes in the bitboards, reading the pieces from the
    /// square array (which `make_lite` leaves as it was): done twice, it changes nothing.
    #[inline(always)]
    fn toggle_lite(&mut self, mv: Move) {
        let us = self.side;
        let them = us.flip();
        let (from, to) = (mv.from(), mv.to());
        let (from_bb, to_bb) = (Bitboard::from(from), Bitboard::from(to));
        match mv.kind() {
            MoveKind::Normal => {
                let captured = self.piece_on(to);
                if !captured.is_none() {
                    self.by_type[captured.kind().index()] ^= to_bb;
                    self.by_color[them.index()] ^= to_bb;
                }
                self.by_type[self.piece_on(from).kind().index()] ^= from_bb | to_bb;
                self.by_color[us.index()] ^= from_bb | to_bb;
            }
            MoveKind::Promotion => {
                let captured = self.piece_on(to);
                if !captured.is_none() {
                    self.by_type[captured.kind().index()] ^= to_bb;
                    self.by_color[them.index()] ^= to_bb;
                }
                let promoted = mv.promotion_piece().unwrap_or(PieceType::Queen);
                self.by_type[PieceType::Pawn.index()] ^= from_bb;
                self.by_type[promoted.index()] ^= to_bb;
                self.by_color[us.index()] ^= from_bb | to_bb;
            }
            MoveKind::EnPassant => {
                let captured = Bitboard::from(Square::from_coords(to.file(), from.rank()));
                self.by_type[PieceType::Pawn.index()] ^= from_bb | to_bb | captured;
                self.by_color[us.index()] ^= from_bb | to_bb;
                self.by_color[them.index()] ^= captured;
            }
            MoveKind::Castling => {
                // Chess960: king or rook may stay put or swap squares; XOR handles both.
                let king = from_bb ^ Bitboard::from(Move::castling_king_to(from, to));
                let rook = to_bb ^ Bitboard::from(Move::castling_rook_to(from, to));
                self.by_type[PieceType::King.index()] ^= king;
                self.by_type[PieceType::Rook.index()] ^= rook;
                self.by_color[us.index()] ^= king ^ rook;
            }
        }
    }

    /// Passes the turn (for null-move search); the side to move must not be in check.
    pub fn make_null(&mut self) -> Undo {
        let undo = Undo {
            captured: Piece::NONE,
            castling: self.castling.bits(),
            ep: self.ep,
            halfmove: self.halfmove,
            key: self.key,
        };
        if let Some(ep) = self.ep.take() {
            self.key ^= zobrist::en_passant(ep);
        }
        self.key ^= zobrist::side();
        self.halfmove = self.halfmove.saturating_add(1);
        self.side = self.side.flip();
        undo
    }

    /// Takes back [`make_null`](Self::make_null).
    pub fn unmake_null(&mut self, undo: &Undo) {
        self.side = self.side.flip();
        self.ep = undo.ep;
        self.halfmove = undo.halfmove;
        self.key = undo.key;
    }

    /// Whether the move captures something (en passant included).
    pub fn is_capture(&self, mv: Move) -> bool {
        match mv.kind() {
            MoveKind::EnPassant => true,
            MoveKind::Castling => false,
            _ => !self.piece_on(mv.to()).is_none(),
        }
    }

    /// The squares of the pieces of `color` that attack `sq` on the current board.
    pub fn attackers_of(&self, sq: Square, color: Color) -> Bitboard {
        self.attackers_to(sq, self.occupied()) & self.color(color)
    }
}
