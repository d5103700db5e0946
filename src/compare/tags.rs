//! What kind of move a difference is about ([`Tag`]): en passant, castling, a promotion
//! to each piece, a king move onto an attacked square, a move of a pinned piece, a move
//! out of check. `suite` groups its failures by it and `hunt` reports it.
//!
//! A move is read from its text on the board of the position where the engines
//! differ, so an illegal move an engine listed (an extra move) gets a tag as well as a
//! legal one it missed.

use crate::attacks;
use crate::board::{Bitboard, PieceType, Position, Square};
use std::fmt;

/// The kind of a move, most specific first: a move that is several things (an en
/// passant capture out of check) takes the first that fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tag {
    /// Castling in a Chess960 position.
    Chess960Castling,
    /// Castling.
    Castling,
    /// An en passant capture.
    EnPassant,
    /// A promotion to a knight.
    PromotionKnight,
    /// A promotion to a bishop.
    PromotionBishop,
    /// A promotion to a rook.
    PromotionRook,
    /// A promotion to a queen.
    PromotionQueen,
    /// A king move to a square the enemy attacks once the king has left its own.
    KingOntoAttackedSquare,
    /// A move of a piece pinned to its king.
    PinnedPiece,
    /// A move made in check.
    OutOfCheck,
    /// None of the above.
    Other,
}

impl Tag {
    /// Every tag, in order.
    pub const ALL: [Tag; 11] = [
        Tag::Chess960Castling,
        Tag::Castling,
        Tag::EnPassant,
        Tag::PromotionKnight,
        Tag::PromotionBishop,
        Tag::PromotionRook,
        Tag::PromotionQueen,
        Tag::KingOntoAttackedSquare,
        Tag::PinnedPiece,
        Tag::OutOfCheck,
        Tag::Other,
    ];

    /// The name JSON reports use.
    pub fn name(self) -> &'static str {
        match self {
            Self::Chess960Castling => "chess960_castling",
            Self::Castling => "castling",
            Self::EnPassant => "en_passant",
            Self::PromotionKnight => "promotion_knight",
            Self::PromotionBishop => "promotion_bishop",
            Self::PromotionRook => "promotion_rook",
            Self::PromotionQueen => "promotion_queen",
            Self::KingOntoAttackedSquare => "king_onto_attacked_square",
            Self::PinnedPiece => "pinned_piece",
            Self::OutOfCheck => "out_of_check",
            Self::Other => "other",
        }
    }
}

/// The words text reports use.
impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Chess960Castling => "Chess960 castling",
            Self::Castling => "castling",
            Self::EnPassant => "en passant",
            Self::PromotionKnight => "promotion to a knight",
            Self::PromotionBishop => "promotion to a bishop",
            Self::PromotionRook => "promotion to a rook",
            Self::PromotionQueen => "promotion to a queen",
            Self::KingOntoAttackedSquare => "king move onto an attacked square",
            Self::PinnedPiece => "move of a pinned piece",
            Self::OutOfCheck => "move out of check",
            Self::Other => "other move",
        })
    }
}

/// The squares and promotion letter of a move in UCI notation.
pub fn squares(mv: &str) -> Option<(Square, Square, Option<char>)> {
    let from = Square::parse(mv.get(0..2)?)?;
    let to = Square::parse(mv.get(2..4)?)?;
    let promotion = mv.get(4..).and_then(|p| p.chars().next());
    (mv.len() <= 5).then_some((from, to, promotion))
}

/// The tag of the move `mv` (UCI notation, legal or not) in `pos`.
pub fn tag(pos: &Position, mv: &str) -> Tag {
    let Some((from, to, promotion)) = squares(mv) else {
        return Tag::Other;
    };
    let us = pos.side_to_move();
    let piece = pos.piece_on(from);
    if piece.is_none() || piece.color() != us {
        return Tag::Other;
    }
    let kind = piece.kind();
    let own_rook = pos.piece_on(to) == crate::board::Piece::new(us, PieceType::Rook);
    let two_files = from.rank() == to.rank() && from.file().abs_diff(to.file()) == 2;
    if kind == PieceType::King && (own_rook || two_files) {
        return match pos.is_chess960() {
            true => Tag::Chess960Castling,
            false => Tag::Castling,
        };
    }
    if kind == PieceType::Pawn && pos.en_passant() == Some(to) && from.file() != to.file() {
        return Tag::EnPassant;
    }
    match promotion.map(|c| c.to_ascii_lowercase()) {
        Some('n') => return Tag::PromotionKnight,
        Some('b') => return Tag::PromotionBishop,
        Some('r') => return Tag::PromotionRook,
        Some('q') => return Tag::PromotionQueen,
        _ => {}
    }
    if kind == PieceType::King {
        let occ = pos.occupied() & !Bitboard::from(from);
        if (pos.attackers_to(to, occ) & pos.color(us.flip())).any() {
            return Tag::KingOntoAttackedSquare;
        }
    } else if pinned(pos).has(from) {
        return Tag::PinnedPiece;
    }
    match pos.in_check() {
        true => Tag::OutOfCheck,
        false => Tag::Other,
    }
}

/// The most specific tag among `moves` of `pos` (`None` for no move).
pub fn first_tag<'a>(pos: &Position, moves: impl IntoIterator<Item = &'a String>) -> Option<Tag> {
    moves.into_iter().map(|m| tag(pos, m)).min()
}

/// The pieces of the side to move pinned to its king.
fn pinned(pos: &Position) -> Bitboard {
    let us = pos.side_to_move();
    let ksq = pos.king(us);
    let them = pos.color(us.flip());
    let queens = pos.pieces(PieceType::Queen);
    let snipers = (attacks::rook_rays(ksq) & them & (pos.pieces(PieceType::Rook) | queens))
        | (attacks::bishop_rays(ksq) & them & (pos.pieces(PieceType::Bishop) | queens));
    let mut out = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = attacks::between(ksq, sniper) & pos.occupied();
        if !blockers.more_than_one() {
            out |= blockers & pos.color(us);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag_of(fen: &str, mv: &str) -> Tag {
        tag(&Position::from_fen(fen).expect("valid FEN"), mv)
    }

    #[test]
    fn tags_legal_and_illegal_moves() {
        // Seed 000's en passant capture, out of check: en passant first.
        let ep = "8/8/3p4/1Pp3kr/1K3R2/8/4P1P1/8 w - c6 0 3";
        assert_eq!(tag_of(ep, "b5c6"), Tag::EnPassant);
        assert_eq!(tag_of(ep, "b4a4"), Tag::OutOfCheck);
        let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        assert_eq!(tag_of(castle, "e1g1"), Tag::Castling);
        assert_eq!(tag_of(castle, "e1h1"), Tag::Castling);
        let fischer = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        assert_eq!(tag_of(fischer, "g1h1"), Tag::Chess960Castling);
        let promote = "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1";
        assert_eq!(tag_of(promote, "b7a8n"), Tag::PromotionKnight);
        assert_eq!(tag_of(promote, "b7b8R"), Tag::PromotionRook);
        // The king stepping back along a rook's check: attacked once it has left e4.
        let ray = "8/8/8/8/r3K3/8/8/7k w - - 0 1";
        assert_eq!(tag_of(ray, "e4f4"), Tag::KingOntoAttackedSquare);
        assert_eq!(tag_of(ray, "e4e5"), Tag::OutOfCheck);
        // A knight pinned by a bishop.
        let pin = "7k/8/8/8/8/2b5/3N4/4K3 w - - 0 1";
        assert_eq!(tag_of(pin, "d2f3"), Tag::PinnedPiece);
        assert_eq!(tag_of(pin, "e1f1"), Tag::Other);
        assert_eq!(tag_of(pin, "a1a2"), Tag::Other, "no piece there");
        assert_eq!(tag_of(pin, "zz"), Tag::Other);
        let moves = ["b7b8q".to_string(), "b7a8n".to_string()];
        let pos = Position::from_fen(promote).expect("valid");
        assert_eq!(first_tag(&pos, &moves), Some(Tag::PromotionKnight));
        assert_eq!(Tag::PromotionKnight.name(), "promotion_knight");
        assert_eq!(Tag::PromotionKnight.to_string(), "promotion to a knight");
    }
}
