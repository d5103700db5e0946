//! The 32-byte record of one training position (after marlinformat, the packed board
//! of Marlinflow and bullet), little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | occupancy: a bit per occupied square (a1 = bit 0, h8 = bit 63) |
//! | 8..24 | the pieces, 4 bits each, in occupancy order (lowest square first, low nibble first): bit 3 the colour (1 black), bits 0-2 the kind (0 pawn .. 5 king, 6 a rook its side may still castle with) |
//! | 24 | side to move (bit 7: 1 black), en passant square (bits 0-6; 64: none) |
//! | 25 | half-move clock (at most 255) |
//! | 26..28 | full-move number (`u16`, at most 65,535) |
//! | 28..30 | the search score, centipawns, white's point of view (`i16`) |
//! | 30 | the game's result: 0 black won, 1 draw, 2 white won |
//! | 31 | flags: bit 0 set on the last position of a game; the other bits 0 |
//!
//! Castling rights live in the piece codes, so a Chess960 right (a rook on any file) is
//! as exact as a standard one. Reading a record checks every field ([`Record::from_bytes`]);
//! turning one into a [`Position`] also checks that the position is legal.

use crate::board::{Bitboard, CastleSide, Color, FenError, Piece, PieceType, Position, Square};
use std::fmt;

/// The size of a record.
pub const RECORD_BYTES: usize = 32;

/// The piece code of a rook that may still castle.
const CASTLING_ROOK: u8 = 6;
/// The en passant field when there is no en passant square.
const NO_EP: u8 = 64;
/// The kind of each piece code (a castling rook is a rook; 7 is refused on reading).
const KINDS: [PieceType; 8] = [
    PieceType::Pawn,
    PieceType::Knight,
    PieceType::Bishop,
    PieceType::Rook,
    PieceType::Queen,
    PieceType::King,
    PieceType::Rook,
    PieceType::Rook,
];
/// The flag of a game's last position.
const GAME_END: u8 = 1;

/// A game's result.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum GameResult {
    /// Black won.
    BlackWin = 0,
    /// A draw.
    Draw = 1,
    /// White won.
    WhiteWin = 2,
}

impl GameResult {
    /// White's points: 0, 0.5 or 1.
    pub fn white_points(self) -> f32 {
        f32::from(self as u8) / 2.0
    }

    /// The result worth `points` to white (0, 0.5, 1); `None` for anything else.
    pub fn from_white_points(points: f32) -> Option<Self> {
        match points {
            0.0 => Some(Self::BlackWin),
            0.5 => Some(Self::Draw),
            1.0 => Some(Self::WhiteWin),
            _ => None,
        }
    }
}

/// Why 32 bytes are not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// More than 32 occupied squares.
    TooManyPieces(u32),
    /// Not one king of each colour (white's and black's counts): an all-zero record,
    /// what a file cut by a power failure can end with, is one.
    KingCount(u32, u32),
    /// A piece code that names no piece.
    BadPiece(u8),
    /// A castling rook off its side's back rank.
    BadCastlingRook(Square),
    /// An en passant field above 64.
    BadEnPassant(u8),
    /// A result byte other than 0, 1, 2.
    BadResult(u8),
    /// Flag bits this version does not know.
    UnknownFlags(u8),
    /// The fields are well formed but the position is not legal.
    Position(FenError),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooManyPieces(n) => write!(f, "{n} occupied squares (at most 32)"),
            Self::KingCount(w, b) => write!(f, "{w} white and {b} black kings (one each)"),
            Self::BadPiece(c) => write!(f, "piece code {c} (0 to 6, plus 8 for black)"),
            Self::BadCastlingRook(sq) => write!(f, "a castling rook on {sq}, off its back rank"),
            Self::BadEnPassant(e) => write!(f, "en passant field {e} (0 to 64)"),
            Self::BadResult(r) => write!(f, "result {r} (0, 1 or 2)"),
            Self::UnknownFlags(b) => write!(f, "unknown flag bits {b:#04x}"),
            Self::Position(e) => write!(f, "not a legal position: {e}"),
        }
    }
}

impl std::error::Error for RecordError {}

/// One training position: the board, its search score and its game's result, packed in
/// [`RECORD_BYTES`] bytes (layout in the module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Record([u8; RECORD_BYTES]);

impl fmt::Debug for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Record({:02x?})", self.0)
    }
}

impl Record {
    /// Packs `pos` with its search score (white's view, saturated to `i16`), its game's
    /// result, and whether it is the game's last recorded position. The counters
    /// saturate at 255 and 65,535.
    pub fn new(pos: &Position, white_score: i32, result: GameResult, game_end: bool) -> Self {
        let mut b = [0u8; RECORD_BYTES];
        let occupied = pos.occupied();
        b[0..8].copy_from_slice(&occupied.0.to_le_bytes());
        let mut castling_rooks = Bitboard::EMPTY;
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if pos.castling().has(color, side) {
                    castling_rooks |= Bitboard::from(pos.castling().rook(color, side));
                }
            }
        }
        for (i, sq) in occupied.enumerate() {
            let piece = pos.piece_on(sq);
            let kind = if castling_rooks.has(sq) {
                CASTLING_ROOK
            } else {
                piece.kind() as u8
            };
            let code = kind | (piece.color() as u8) << 3;
            b[8 + i / 2] |= code << (4 * (i % 2));
        }
        let ep = pos.en_passant().map_or(NO_EP, |sq| sq.index() as u8);
        b[24] = ep | (pos.side_to_move() as u8) << 7;
        b[25] = pos.halfmove_clock().min(255) as u8;
        let fullmove = pos.fullmove_number().min(u32::from(u16::MAX)) as u16;
        b[26..28].copy_from_slice(&fullmove.to_le_bytes());
        let score = white_score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        b[28..30].copy_from_slice(&score.to_le_bytes());
        b[30] = result as u8;
        b[31] = if game_end { GAME_END } else { 0 };
        Self(b)
    }

    /// The record in `bytes`, its fields checked (but not whether the position is legal:
    /// see [`to_position`](Self::to_position)).
    pub fn from_bytes(bytes: [u8; RECORD_BYTES]) -> Result<Self, RecordError> {
        let record = Self(bytes);
        let occupied = record.occupancy();
        if occupied.count() > 32 {
            return Err(RecordError::TooManyPieces(occupied.count()));
        }
        let mut kings = [0, 0];
        for (i, sq) in occupied.enumerate() {
            let code = record.code(i);
            let (kind, color) = (code & 7, usize::from(code >> 3));
            if kind > CASTLING_ROOK {
                return Err(RecordError::BadPiece(code));
            }
            if kind == CASTLING_ROOK && sq.rank() != [0, 7][color] {
                return Err(RecordError::BadCastlingRook(sq));
            }
            kings[color] += u32::from(kind == PieceType::King as u8);
        }
        if kings != [1, 1] {
            return Err(RecordError::KingCount(kings[0], kings[1]));
        }
        let unused = occupied.count() as usize..32;
        if let Some(i) = unused.into_iter().find(|&i| record.code(i) != 0) {
            return Err(RecordError::BadPiece(record.code(i)));
        }
        if bytes[24] & 0x7F > NO_EP {
            return Err(RecordError::BadEnPassant(bytes[24] & 0x7F));
        }
        if bytes[30] > 2 {
            return Err(RecordError::BadResult(bytes[30]));
        }
        if bytes[31] & !GAME_END != 0 {
            return Err(RecordError::UnknownFlags(bytes[31] & !GAME_END));
        }
        Ok(record)
    }

    /// The 32 bytes.
    pub fn to_bytes(self) -> [u8; RECORD_BYTES] {
        self.0
    }

    /// The 4-bit code of the `i`-th occupied square.
    #[inline(always)]
    fn code(&self, i: usize) -> u8 {
        (self.0[8 + i / 2] >> (4 * (i % 2))) & 15
    }

    /// The occupied squares.
    #[inline(always)]
    pub fn occupancy(&self) -> Bitboard {
        let mut word = [0u8; 8];
        word.copy_from_slice(&self.0[0..8]);
        Bitboard(u64::from_le_bytes(word))
    }

    /// Every piece and its square, lowest square first (castling rooks as rooks).
    #[inline(always)]
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupancy().enumerate().map(|(i, sq)| {
            let code = self.code(i);
            let color = if code & 8 == 0 {
                Color::White
            } else {
                Color::Black
            };
            (sq, Piece::new(color, KINDS[usize::from(code & 7)]))
        })
    }

    /// Whether either side may still castle (a castling rook stands on the board): the
    /// one right that a mirror image of the position, files a to h swapped, would not keep.
    pub fn may_castle(&self) -> bool {
        (0..self.occupancy().count() as usize).any(|i| self.code(i) & 7 == CASTLING_ROOK)
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        if self.0[24] & 0x80 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The search score, centipawns, white's point of view.
    #[inline(always)]
    pub fn white_score(&self) -> i16 {
        i16::from_le_bytes([self.0[28], self.0[29]])
    }

    /// The game's result.
    #[inline(always)]
    pub fn result(&self) -> GameResult {
        match self.0[30] {
            0 => GameResult::BlackWin,
            1 => GameResult::Draw,
            _ => GameResult::WhiteWin,
        }
    }

    /// Whether this is its game's last recorded position.
    #[inline(always)]
    pub fn ends_game(&self) -> bool {
        self.0[31] & GAME_END != 0
    }

    /// The same record with the game-end flag set or cleared.
    pub fn with_game_end(mut self, end: bool) -> Self {
        self.0[31] = if end { GAME_END } else { 0 };
        self
    }

    /// The half-move clock.
    pub fn halfmove_clock(&self) -> u8 {
        self.0[25]
    }

    /// The full-move number.
    pub fn fullmove_number(&self) -> u16 {
        u16::from_le_bytes([self.0[26], self.0[27]])
    }

    /// The position's FEN (castling rights as `KQkq` for rooks on standard squares,
    /// else as rook files, Shredder-FEN).
    pub fn fen(&self) -> String {
        let mut board = [None; 64];
        let mut castling = Vec::new();
        for (i, (sq, piece)) in self.pieces().enumerate() {
            board[sq.index()] = Some(piece);
            if self.code(i) & 7 == CASTLING_ROOK {
                castling.push((piece.color(), sq));
            }
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.char());
                    }
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let side = self.side_to_move();
        fen.push_str(if side == Color::White { " w " } else { " b " });
        // White's rights first, each side's king-side right first, as FENs write them.
        castling.sort_by_key(|&(color, sq)| (color as u8, 7 - sq.file()));
        for &(color, sq) in &castling {
            let king_file = board
                .iter()
                .position(|&p| p == Some(Piece::new(color, PieceType::King)))
                .map(|i| i % 8);
            let letter = match (king_file, sq.file()) {
                (Some(4), 7) => 'k',
                (Some(4), 0) => 'q',
                (_, file) => char::from(b'a' + file),
            };
            fen.push(if color == Color::White {
                letter.to_ascii_uppercase()
            } else {
                letter
            });
        }
        if castling.is_empty() {
            fen.push('-');
        }
        match self.0[24] & 0x7F {
            NO_EP => fen.push_str(" -"),
            ep => fen.push_str(&format!(" {}", Square::new(ep))),
        }
        fen.push_str(&format!(
            " {} {}",
            self.halfmove_clock(),
            self.fullmove_number().max(1)
        ));
        fen
    }

    /// The position, checked to be legal as any FEN is.
    pub fn to_position(&self) -> Result<Position, RecordError> {
        Position::from_fen(&self.fen()).map_err(RecordError::Position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(fen: &str) {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let record = Record::new(&pos, -123, GameResult::Draw, true);
        let read = Record::from_bytes(record.to_bytes()).expect("a valid record");
        assert_eq!(read, record);
        let back = read.to_position().expect("a legal position");
        assert_eq!(back.to_fen(), pos.to_fen(), "{fen}");
        assert_eq!(back.castling(), pos.castling(), "{fen}");
        assert_eq!(back.is_chess960(), pos.is_chess960(), "{fen}");
        assert_eq!(back.key(), pos.key());
        assert_eq!(read.white_score(), -123);
        assert_eq!(read.result(), GameResult::Draw);
        assert!(read.ends_game());
    }

    #[test]
    fn positions_survive_packing() {
        for fen in [
            crate::board::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 3 17",
            "8/8/3p4/1Pp4r/1K5k/5p2/4P1P1/1R6 w - c6 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "1r2k1r1/8/8/8/8/8/8/R3K2R w HAgb - 0 1",
            "1rk3r1/8/8/8/8/8/8/1R1K2R1 b GBgb - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 99 300",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        ] {
            round_trip(fen);
        }
    }

    #[test]
    fn castling_rights_are_seen() {
        let record = |fen: &str| {
            let pos = Position::from_fen(fen).expect("valid FEN");
            Record::new(&pos, 0, GameResult::Draw, false)
        };
        assert!(record(crate::board::START_FEN).may_castle());
        assert!(record("4k3/8/8/8/8/8/8/4K2R w K - 0 1").may_castle());
        assert!(record("4k2r/8/8/8/8/8/8/4K3 b k - 0 1").may_castle());
        assert!(!record("4k2r/8/8/8/8/8/8/4K2R w - - 0 1").may_castle());
        assert!(!record("4k3/8/8/8/8/8/8/4K3 w - - 0 1").may_castle());
    }

    #[test]
    fn counters_and_scores_saturate() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 120 70000").expect("valid");
        let record = Record::new(&pos, 100_000, GameResult::WhiteWin, false);
        assert_eq!(record.white_score(), i16::MAX);
        assert_eq!(record.fullmove_number(), u16::MAX);
        assert_eq!(record.halfmove_clock(), 120);
        assert!(!record.ends_game());
        assert!(record.with_game_end(true).ends_game());
    }

    #[test]
    fn malformed_records_are_refused() {
        let pos = Position::startpos();
        let good = Record::new(&pos, 0, GameResult::Draw, false).to_bytes();
        let mut bad = good;
        bad[30] = 3;
        assert_eq!(Record::from_bytes(bad), Err(RecordError::BadResult(3)));
        bad = good;
        bad[31] = 2;
        assert_eq!(Record::from_bytes(bad), Err(RecordError::UnknownFlags(2)));
        bad = good;
        bad[8] = 0x07;
        assert_eq!(Record::from_bytes(bad), Err(RecordError::BadPiece(7)));
        bad = good;
        bad[24] = 65;
        assert_eq!(Record::from_bytes(bad), Err(RecordError::BadEnPassant(65)));
        bad = good;
        bad[0..8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(Record::from_bytes(bad), Err(RecordError::TooManyPieces(64)));
        // Three white kings (a1 and b1 as well as e1).
        bad = good;
        bad[8] = 0x55;
        assert_eq!(Record::from_bytes(bad), Err(RecordError::KingCount(3, 1)));
        // All zeros, as a power failure can leave at the end of a file.
        assert_eq!(
            Record::from_bytes([0; RECORD_BYTES]),
            Err(RecordError::KingCount(0, 0))
        );
        // A castling rook off its back rank: a1, e1, h1 moved to a2, e1, h1 shifts the
        // codes (castling rook, king, castling rook) one square along, the last to a2.
        let rooks = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("valid");
        bad = Record::new(&rooks, 0, GameResult::Draw, false).to_bytes();
        bad[0..8].copy_from_slice(&(rooks.occupied().0 & !1 | 1 << 8).to_le_bytes());
        assert_eq!(
            Record::from_bytes(bad),
            Err(RecordError::BadCastlingRook(Square::from_coords(0, 1)))
        );
        // Well-formed fields, no legal position: en passant on e4 with white to move.
        bad = good;
        bad[24] = 28;
        let record = Record::from_bytes(bad).expect("fields are well formed");
        assert!(matches!(
            record.to_position(),
            Err(RecordError::Position(_))
        ));
    }

    #[test]
    fn scores_and_results_keep_their_sign_and_value() {
        let pos = Position::startpos();
        for (score, kept) in [
            (0, 0),
            (-1, -1),
            (32_767, 32_767),
            (-32_768, -32_768),
            (-40_000, -32_768),
        ] {
            for result in [GameResult::BlackWin, GameResult::Draw, GameResult::WhiteWin] {
                let bytes = Record::new(&pos, score, result, false).to_bytes();
                let read = Record::from_bytes(bytes).expect("valid");
                assert_eq!((read.white_score(), read.result()), (kept, result));
                let points = read.result().white_points();
                assert_eq!(GameResult::from_white_points(points), Some(result));
            }
        }
        assert_eq!(GameResult::from_white_points(0.7), None);
    }

    /// Shredder letters on standard squares (`HAha`) are only another spelling of
    /// `KQkq`: the rights and the key come back; the spelling follows the rights.
    #[test]
    fn castling_rights_come_back_whatever_their_spelling() {
        let shredder = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1";
        let pos = Position::from_fen(shredder).expect("valid");
        let back = Record::new(&pos, 0, GameResult::Draw, true)
            .to_position()
            .expect("legal");
        assert_eq!(back.castling(), pos.castling());
        assert_eq!(back.key(), pos.key());
        assert_eq!(back.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        // Two rooks on one side: the inner one keeps the right, named by its file.
        let inner = "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1";
        round_trip(inner);
    }
}
