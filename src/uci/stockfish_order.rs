//! Root moves in the order Stockfish 15.1 prints them, so that `go perft` output can be
//! compared with Stockfish's line for line, not only as a set.
//!
//! Stockfish lists pseudo-legal moves (evasions when in check) in a fixed order: pawn
//! pushes, double pushes, promotions (captures right, captures left, pushes; queen, rook,
//! bishop, knight), pawn captures right then left, en passant, then knights, bishops,
//! rooks, queens (each piece from a1 upwards, targets from a1 upwards), king moves and
//! castling (king side first). It then drops the illegal ones by moving the last move of
//! the list into their place. This file rebuilds that list and applies the same removal,
//! with legality taken from Rookling's own generator; it only orders, it never decides
//! which moves are legal.

use crate::attacks;
use crate::board::{Bitboard, CastleSide, Color, Move, PieceType, Position, Square};

/// `legal` (every legal move of `pos`) in Stockfish 15.1's order.
pub fn stockfish_order(pos: &Position, legal: &[Move]) -> Vec<Move> {
    let mut list = pseudo_legal(pos);
    let mut i = 0;
    while i < list.len() {
        if legal.contains(&list[i]) {
            i += 1;
        } else {
            list.swap_remove(i);
        }
    }
    // Never reached while both generators are right; keeps every legal move printed.
    for mv in legal {
        if !list.contains(mv) {
            list.push(*mv);
        }
    }
    list
}

/// Pawns of `bb` shifted one step forward and to the h-file side (for white), or to
/// the a-file side (for black): Stockfish's `UpRight`.
fn up_right(us: Color, bb: Bitboard) -> (Bitboard, i8) {
    match us {
        Color::White => ((bb & !Bitboard::FILE_H).shift(9), 9),
        Color::Black => ((bb & !Bitboard::FILE_A).shift(-9), -9),
    }
}

/// Stockfish's `UpLeft`.
fn up_left(us: Color, bb: Bitboard) -> (Bitboard, i8) {
    match us {
        Color::White => ((bb & !Bitboard::FILE_A).shift(7), 7),
        Color::Black => ((bb & !Bitboard::FILE_H).shift(-7), -7),
    }
}

/// The four promotions of a pawn going from `from` to `to`, queen first.
fn promotions(list: &mut Vec<Move>, from: Square, to: Square) {
    list.extend(Move::promotions(from, to));
}

/// Stockfish's `generate<EVASIONS>` or `generate<NON_EVASIONS>`, in its order.
fn pseudo_legal(pos: &Position) -> Vec<Move> {
    let us = pos.side_to_move();
    let ours = pos.color(us);
    let occ = pos.occupied();
    let ksq = pos.king(us);
    let checkers = pos.checkers();
    let evasions = checkers.any();
    let mut list = Vec::with_capacity(64);
    if !checkers.more_than_one() {
        let target = if evasions {
            let checker = checkers.lsb();
            attacks::between(ksq, checker) | Bitboard::from(checker)
        } else {
            !ours
        };
        pawn_moves(pos, target, evasions, &mut list);
        for kind in [
            PieceType::Knight,
            PieceType::Bishop,
            PieceType::Rook,
            PieceType::Queen,
        ] {
            for from in pos.colored(us, kind) {
                let reach = match kind {
                    PieceType::Knight => attacks::knight(from),
                    PieceType::Bishop => attacks::bishop(from, occ),
                    PieceType::Rook => attacks::rook(from, occ),
                    _ => attacks::queen(from, occ),
                };
                for to in reach & target {
                    list.push(Move::normal(from, to));
                }
            }
        }
    }
    for to in attacks::king(ksq) & !ours {
        list.push(Move::normal(ksq, to));
    }
    if !evasions {
        for side in CastleSide::ALL {
            let castling = pos.castling();
            if castling.has(us, side) {
                let rook = castling.rook(us, side);
                if !impeded(occ, ksq, rook) {
                    list.push(Move::castling(ksq, rook));
                }
            }
        }
    }
    list
}

/// Stockfish's `castling_impeded`: a piece other than the king and the rook stands on a
/// square either of them crosses or lands on.
fn impeded(occ: Bitboard, king: Square, rook: Square) -> bool {
    let king_to = Move::castling_king_to(king, rook);
    let rook_to = Move::castling_rook_to(king, rook);
    let path = attacks::between(rook, rook_to)
        | Bitboard::from(rook_to)
        | attacks::between(king, king_to)
        | Bitboard::from(king_to);
    (path & !(Bitboard::from(king) | Bitboard::from(rook)) & occ).any()
}

/// Stockfish's `generate_pawn_moves`.
fn pawn_moves(pos: &Position, target: Bitboard, evasions: bool, list: &mut Vec<Move>) {
    let us = pos.side_to_move();
    let them = us.flip();
    let (up, rank7, rank3): (i8, u8, u8) = match us {
        Color::White => (8, 6, 2),
        Color::Black => (-8, 1, 5),
    };
    let empty = !pos.occupied();
    let enemies = if evasions {
        pos.checkers()
    } else {
        pos.color(them)
    };
    let pawns = pos.colored(us, PieceType::Pawn);
    let on7 = pawns & Bitboard::rank(rank7);
    let not7 = pawns & !Bitboard::rank(rank7);

    let mut single = not7.shift(up) & empty;
    let mut double = (single & Bitboard::rank(rank3)).shift(up) & empty;
    if evasions {
        single &= target;
        double &= target;
    }
    for to in single {
        list.push(Move::normal(to.offset(-up), to));
    }
    for to in double {
        list.push(Move::normal(to.offset(-2 * up), to));
    }

    if on7.any() {
        let (right, dr) = up_right(us, on7);
        let (left, dl) = up_left(us, on7);
        let mut push = on7.shift(up) & empty;
        if evasions {
            push &= target;
        }
        for to in right & enemies {
            promotions(list, to.offset(-dr), to);
        }
        for to in left & enemies {
            promotions(list, to.offset(-dl), to);
        }
        for to in push {
            promotions(list, to.offset(-up), to);
        }
    }

    let (right, dr) = up_right(us, not7);
    let (left, dl) = up_left(us, not7);
    for to in right & enemies {
        list.push(Move::normal(to.offset(-dr), to));
    }
    for to in left & enemies {
        list.push(Move::normal(to.offset(-dl), to));
    }
    if let Some(ep) = pos.en_passant() {
        // An en passant capture cannot resolve a discovered check.
        if evasions && target.has(ep.offset(up)) {
            return;
        }
        for from in not7 & attacks::pawn(them, ep) {
            list.push(Move::en_passant(from, ep));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;

    fn order(fen: &str) -> Vec<String> {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let legal: Vec<Move> = legal_moves(&pos).iter().copied().collect();
        let ordered = stockfish_order(&pos, &legal);
        assert_eq!(ordered.len(), legal.len());
        ordered
            .iter()
            .map(|m| m.to_uci(pos.is_chess960()))
            .collect()
    }

    /// Orders printed by Stockfish 15.1 (`go perft 1`).
    #[test]
    fn matches_stockfish_on_known_positions() {
        assert_eq!(
            order("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").join(" "),
            "a2a3 b2b3 c2c3 d2d3 e2e3 f2f3 g2g3 h2h3 a2a4 b2b4 c2c4 d2d4 e2e4 f2f4 g2g4 h2h4 \
             b1a3 b1c3 g1f3 g1h3"
        );
        assert_eq!(
            order("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1").join(" "),
            "b1a1 b1c1 b1d1 b1b2 b1b3 b1b4 b1b5 b1b6 b1b7 b1b8 g1f1 g1h1 g1g2 g1g3 g1g4 \
             g1g5 g1g6 g1g7 g1g8 e1d1 e1f1 e1d2 e1e2 e1f2 e1b1"
        );
    }
}
