//! FEN parsing (with validation) and printing. Castling rights may be written as `KQkq`,
//! X-FEN (`KQkq` meaning the outermost rook) or Shredder-FEN (`HAha`, rook files).

use super::{Bitboard, CastleSide, Castling, Color, FenError, Piece, PieceType, Position, Square};
use crate::attacks;
use std::fmt::Write as _;

impl Position {
    /// Parses and validates a FEN. The move counters may be left out (they default to
    /// `0 1`). Shredder-FEN letters, or rights whose king or rook stands off its standard
    /// square, switch Chess960 spelling on.
    ///
    /// ```
    /// use rookling::board::Position;
    ///
    /// let pos = Position::from_fen("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -").unwrap();
    /// assert_eq!(pos.to_fen(), "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1");
    /// // Every way a FEN can be wrong is a typed error with a one-line message.
    /// let error = Position::from_fen("8/8/8/8/8/8/8/K7 w - - 0 1").unwrap_err();
    /// assert!(!error.to_string().is_empty());
    /// ```
    pub fn from_fen(fen: &str) -> Result<Self, FenError> {
        attacks::init();
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let mut pos = Position::empty();
        pos.parse_placement(fields[0])?;
        pos.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::BadSide(other.to_string())),
        };
        pos.check_material()?;
        pos.parse_castling(fields[2])?;
        pos.parse_en_passant(fields[3])?;
        if let Some(s) = fields.get(4) {
            pos.halfmove = s
                .parse()
                .ok()
                .filter(|&n| n <= super::MAX_FEN_COUNTER)
                .ok_or_else(|| FenError::BadHalfmove(s.to_string()))?;
        }
        if let Some(s) = fields.get(5) {
            let n: u32 = s
                .parse()
                .ok()
                .filter(|&n| n <= super::MAX_FEN_COUNTER)
                .ok_or_else(|| FenError::BadFullmove(s.to_string()))?;
            pos.fullmove = n.max(1);
        }
        let them = pos.side.flip();
        if (pos.attackers_to(pos.king(them), pos.occupied()) & pos.color(pos.side)).any() {
            return Err(FenError::OpponentInCheck);
        }
        pos.key = pos.compute_key();
        Ok(pos)
    }

    fn parse_placement(&mut self, field: &str) -> Result<(), FenError> {
        let ranks: Vec<&str> = field.split('/').collect();
        if ranks.len() != 8 {
            return Err(FenError::BadPlacement(format!(
                "{} ranks instead of 8",
                ranks.len()
            )));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += d as u8;
                } else {
                    let piece = Piece::from_char(c).ok_or(FenError::BadPieceChar(c))?;
                    if file >= 8 {
                        return Err(FenError::BadPlacement(format!(
                            "rank {} is too long",
                            rank + 1
                        )));
                    }
                    self.put(Square::from_coords(file, rank), piece);
                    file += 1;
                }
                if file > 8 {
                    return Err(FenError::BadPlacement(format!(
                        "rank {} is too long",
                        rank + 1
                    )));
                }
            }
            if file != 8 {
                return Err(FenError::BadPlacement(format!(
                    "rank {} is too short",
                    rank + 1
                )));
            }
        }
        Ok(())
    }

    fn check_material(&self) -> Result<(), FenError> {
        for color in Color::ALL {
            let kings = self.colored(color, PieceType::King).count();
            if kings != 1 {
                return Err(FenError::KingCount(color, kings));
            }
            let pieces = self.color(color).count();
            if pieces > 16 {
                return Err(FenError::TooManyPieces(color, pieces));
            }
            let pawns = self.colored(color, PieceType::Pawn).count();
            if pawns > 8 {
                return Err(FenError::TooManyPawns(color, pawns));
            }
        }
        if (self.pieces(PieceType::Pawn) & Bitboard::BACK_RANKS).any() {
            return Err(FenError::PawnOnBackRank);
        }
        Ok(())
    }

    fn parse_castling(&mut self, field: &str) -> Result<(), FenError> {
        let bad = || FenError::BadCastling(field.to_string());
        if field == "-" {
            return Ok(());
        }
        let mut castling = Castling::default();
        let mut chess960 = false;
        for c in field.chars() {
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            let back = if color == Color::White { 0 } else { 7 };
            let king = self.king(color);
            let rooks = self.colored(color, PieceType::Rook) & Bitboard::rank(back);
            let missing = FenError::CastlingWithoutPieces(c);
            if king.rank() != back {
                return Err(missing);
            }
            let rook = match c.to_ascii_lowercase() {
                'k' => rooks
                    .filter(|r| r.file() > king.file())
                    .last()
                    .ok_or(missing)?,
                'q' => rooks
                    .into_iter()
                    .find(|r| r.file() < king.file())
                    .ok_or(missing)?,
                f @ 'a'..='h' => {
                    chess960 = true;
                    let sq = Square::from_coords(f as u8 - b'a', back);
                    if !rooks.has(sq) || sq.file() == king.file() {
                        return Err(missing);
                    }
                    sq
                }
                _ => return Err(bad()),
            };
            let side = if rook.file() > king.file() {
                CastleSide::King
            } else {
                CastleSide::Queen
            };
            if castling.has(color, side) {
                return Err(bad());
            }
            let standard_rook = if side == CastleSide::King { 7 } else { 0 };
            chess960 |= king.file() != 4 || rook.file() != standard_rook;
            castling.add(color, side, king, rook);
        }
        self.castling = castling;
        self.chess960 = chess960;
        Ok(())
    }

    fn parse_en_passant(&mut self, field: &str) -> Result<(), FenError> {
        if field == "-" {
            return Ok(());
        }
        let ep = Square::parse(field).ok_or_else(|| FenError::BadEnPassantSquare(field.into()))?;
        let us = self.side;
        let them = us.flip();
        let impossible = || FenError::ImpossibleEnPassant(field.to_string());
        // The rank first: the squares beside `ep` below are on the board only then.
        let ep_rank = if us == Color::White { 5 } else { 2 };
        if ep.rank() != ep_rank {
            return Err(impossible());
        }
        // The pawn that pushed stands one square past `ep`; it came from one square before.
        let (pushed, origin) = match us {
            Color::White => (ep.offset(-8), ep.offset(8)),
            Color::Black => (ep.offset(8), ep.offset(-8)),
        };
        if self.piece_on(pushed) != Piece::new(them, PieceType::Pawn)
            || !self.piece_on(ep).is_none()
            || !self.piece_on(origin).is_none()
        {
            return Err(impossible());
        }
        // Kept only when a pawn can capture, as Stockfish does: the key then ignores
        // en passant squares that change nothing.
        if (attacks::pawn(them, ep) & self.colored(us, PieceType::Pawn)).any() {
            self.ep = Some(ep);
        }
        Ok(())
    }

    /// The FEN; castling rights as rook files (Shredder-FEN) in Chess960, else `KQkq`.
    pub fn to_fen(&self) -> String {
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                let piece = self.piece_on(Square::from_coords(file, rank));
                if piece.is_none() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    let _ = write!(fen, "{empty}");
                    empty = 0;
                }
                fen.push(piece.char());
            }
            if empty > 0 {
                let _ = write!(fen, "{empty}");
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let _ = write!(fen, " {} {} ", self.side.fen_char(), self.castling_field());
        match self.ep {
            Some(ep) => fen += &ep.to_string(),
            None => fen.push('-'),
        }
        let _ = write!(fen, " {} {}", self.halfmove, self.fullmove);
        fen
    }

    fn castling_field(&self) -> String {
        let mut field = String::new();
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if !self.castling.has(color, side) {
                    continue;
                }
                let c = if self.chess960 {
                    (b'a' + self.castling.rook(color, side).file()) as char
                } else if side == CastleSide::King {
                    'k'
                } else {
                    'q'
                };
                field.push(if color == Color::White {
                    c.to_ascii_uppercase()
                } else {
                    c
                });
            }
        }
        if field.is_empty() {
            "-".to_string()
        } else {
            field
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(fen: &str) -> Result<Position, FenError> {
        Position::from_fen(fen)
    }

    #[test]
    fn round_trips() {
        for fen in [
            super::super::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/8/3p4/1Pp4r/1K5k/5p2/4P1P1/1R6 w - c6 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
            "4k3/8/8/8/8/8/8/4K2R b K - 99 120",
        ] {
            assert_eq!(parse(fen).map(|p| p.to_fen()), Ok(fen.to_string()));
        }
    }

    #[test]
    fn counters_are_optional() {
        let pos = parse("4k3/8/8/8/8/8/8/4K2R w K -").expect("valid");
        assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        let pos = parse("4k3/8/8/8/8/8/8/4K2R w K - 5").expect("valid");
        assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/4K2R w K - 5 1");
    }

    #[test]
    fn castling_notations() {
        let shredder = parse("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1").expect("valid");
        let standard = parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("valid");
        assert_eq!(shredder.castling(), standard.castling());
        assert!(shredder.is_chess960() && !standard.is_chess960());
        // X-FEN: K means the outermost rook, here on g1 with the king on b1.
        let xfen = parse("1r4kr/8/8/8/8/8/8/1K4RR w KQk - 0 1");
        assert!(xfen.is_err(), "no white rook left of the king for Q");
        let xfen = parse("rk4rr/8/8/8/8/8/8/RK4RR w KQk - 0 1").expect("valid");
        assert_eq!(
            xfen.castling().rook(Color::White, CastleSide::King),
            Square::parse("h1").expect("sq")
        );
        assert!(xfen.is_chess960());
        assert_eq!(xfen.to_fen(), "rk4rr/8/8/8/8/8/8/RK4RR w HAh - 0 1");
    }

    #[test]
    fn uncapturable_en_passant_is_dropped() {
        let pos = parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").expect("ok");
        assert_eq!(pos.en_passant(), None);
    }

    #[test]
    fn each_error() {
        use FenError::*;
        type Expect = fn(&FenError) -> bool;
        let cases: &[(&str, Expect)] = &[
            ("8/8/8/8/8/8/8/8 w", |e| matches!(e, FieldCount(2))),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", |e| {
                matches!(e, FieldCount(7))
            }),
            ("4k3/8/8/8/8/8/8 w - - 0 1", |e| {
                matches!(e, BadPlacement(_))
            }),
            ("4k4/8/8/8/8/8/8/4K3 w - - 0 1", |e| {
                matches!(e, BadPlacement(_))
            }),
            ("4k2/8/8/8/8/8/8/4K3 w - - 0 1", |e| {
                matches!(e, BadPlacement(_))
            }),
            ("4k3/8/8/8/8/8/8/4K2X w - - 0 1", |e| {
                matches!(e, BadPieceChar('X'))
            }),
            ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", |e| matches!(e, BadSide(_))),
            ("4k3/8/8/8/8/8/8/4K3 w KZ - 0 1", |e| {
                matches!(e, BadCastling(_) | CastlingWithoutPieces(_))
            }),
            ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", |e| {
                matches!(e, BadEnPassantSquare(_))
            }),
            ("4k3/8/8/8/8/8/8/4K3 w - - x 1", |e| {
                matches!(e, BadHalfmove(_))
            }),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 2147483648", |e| {
                matches!(e, BadFullmove(_))
            }),
            ("4k3/8/8/8/8/8/8/4K3 w - - 2147483648 1", |e| {
                matches!(e, BadHalfmove(_))
            }),
            ("8/8/8/8/8/8/8/4K3 w - - 0 1", |e| {
                matches!(e, KingCount(Color::Black, 0))
            }),
            ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", |e| {
                matches!(e, KingCount(Color::White, 2))
            }),
            ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", |e| {
                matches!(e, PawnOnBackRank)
            }),
            ("4k3/8/8/8/8/QQQQQQQQ/QQQQQQQQ/QQQQK3 w - - 0 1", |e| {
                matches!(e, TooManyPieces(Color::White, _))
            }),
            ("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", |e| {
                matches!(e, TooManyPawns(Color::White, 9))
            }),
            ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", |e| {
                matches!(e, OpponentInCheck)
            }),
            ("4k3/8/8/8/8/8/8/4K2r b - - 0 1", |e| {
                matches!(e, OpponentInCheck)
            }),
            ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", |e| {
                matches!(e, OpponentInCheck)
            }),
            ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", |e| {
                matches!(e, CastlingWithoutPieces('K'))
            }),
            ("4k3/8/8/8/8/8/8/5K1R w Q - 0 1", |e| {
                matches!(e, CastlingWithoutPieces('Q'))
            }),
            ("4k3/8/8/8/8/8/8/R3K3 w B - 0 1", |e| {
                matches!(e, CastlingWithoutPieces('B'))
            }),
            ("4k3/8/8/8/8/8/4K3/R7 w Q - 0 1", |e| {
                matches!(e, CastlingWithoutPieces('Q'))
            }),
            ("4k3/8/8/8/8/8/8/R3K3 w QQ - 0 1", |e| {
                matches!(e, BadCastling(_))
            }),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - e6 0 1", |e| {
                matches!(e, ImpossibleEnPassant(_))
            }),
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1", |e| {
                matches!(e, ImpossibleEnPassant(_))
            }),
            ("4k3/3p4/8/3pP3/8/8/8/4K3 w - d6 0 1", |e| {
                matches!(e, ImpossibleEnPassant(_))
            }),
            // Found by fuzzing: squares on the edge ranks, whose neighbours one rank
            // further are off the board (a debug assertion fired before the fix).
            ("8/8/8/KPp4r/8/8/8/6k1 w - e8 0 1", |e| {
                matches!(e, ImpossibleEnPassant(_))
            }),
            ("8/8/8/KPp4r/8/8/8/6k1 b - c1 0 1", |e| {
                matches!(e, ImpossibleEnPassant(_))
            }),
        ];
        for (fen, ok) in cases {
            match parse(fen) {
                Err(e) => assert!(ok(&e), "{fen}: unexpected error {e:?}"),
                Ok(_) => panic!("{fen} was accepted"),
            }
        }
    }
}
