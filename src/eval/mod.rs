//! Static evaluation: a tapered sum of material, piece-square tables, mobility, pawn
//! structure and king safety, from the side to move's point of view (centipawns).
//!
//! Layout: [`weights`] holds every number, [`pawns`] the pawn structure terms,
//! [`pieces`] mobility, rooks, threats and king attack/shelter.

mod pawns;
mod pieces;
mod score;
pub mod weights;

pub use score::S;
pub use weights::{WEIGHTS, Weights};

use crate::board::{Bitboard, Color, PieceType, Position};

/// Game phase of the full starting material (knight/bishop 1, rook 2, queen 4).
pub const MAX_PHASE: i32 = 24;

/// The evaluation of `pos` for the side to move, with the engine's weights.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

/// The evaluation of `pos` for the side to move, with the given weights.
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let white = side_terms(pos, Color::White, w);
    let black = side_terms(pos, Color::Black, w);
    let mut total = white - black;
    let us = pos.side_to_move();
    total += if us == Color::White {
        w.tempo
    } else {
        -w.tempo
    };
    let phase = phase(pos);
    let mut score = total.taper(phase);
    score = score * scale(pos, score) / 16;
    if us == Color::White { score } else { -score }
}

/// 24 with all pieces on the board, 0 with only kings and pawns.
pub fn phase(pos: &Position) -> i32 {
    let p = pos.pieces(PieceType::Knight).count()
        + pos.pieces(PieceType::Bishop).count()
        + 2 * pos.pieces(PieceType::Rook).count()
        + 4 * pos.pieces(PieceType::Queen).count();
    (p as i32).min(MAX_PHASE)
}

/// Everything counted for `us` (white's sign is applied by the caller).
fn side_terms(pos: &Position, us: Color, w: &Weights) -> S {
    let mut s = S(0, 0);
    for kind in PieceType::ALL {
        for sq in pos.colored(us, kind) {
            s += w.material[kind.index()] + w.pst[kind.index()][sq.relative(us).index()];
        }
    }
    if pos.colored(us, PieceType::Bishop).more_than_one() {
        s += w.bishop_pair;
    }
    s += pawns::structure(pos, us, w);
    s += pieces::activity(pos, us, w);
    s
}

/// Sixteenths kept of the score: a side without pawns that is not a rook or more
/// ahead in pieces rarely wins, so such endings are pulled towards a draw.
fn scale(pos: &Position, score: i32) -> i32 {
    let strong = if score > 0 {
        Color::White
    } else {
        Color::Black
    };
    if pos.colored(strong, PieceType::Pawn).any() {
        return 16;
    }
    let pieces = |c: Color| {
        3 * (pos.colored(c, PieceType::Knight) | pos.colored(c, PieceType::Bishop)).count() as i32
            + 5 * pos.colored(c, PieceType::Rook).count() as i32
            + 9 * pos.colored(c, PieceType::Queen).count() as i32
    };
    if pieces(strong) - pieces(strong.flip()) <= 3 {
        2
    } else {
        16
    }
}

/// The squares attacked by the pawns of `color`.
#[inline]
pub(crate) fn pawn_attacks(pos: &Position, color: Color) -> Bitboard {
    let pawns = pos.colored(color, PieceType::Pawn);
    let (west, east) = (pawns & !Bitboard::FILE_A, pawns & !Bitboard::FILE_H);
    match color {
        Color::White => west.shift(7) | east.shift(9),
        Color::Black => west.shift(-9) | east.shift(-7),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mirror(fen: &str) -> String {
        let parts: Vec<&str> = fen.split(' ').collect();
        let board: Vec<String> = parts[0]
            .split('/')
            .rev()
            .map(|row| {
                row.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if parts[1] == "w" { "b" } else { "w" };
        let castling: String = if parts[2] == "-" {
            "-".into()
        } else {
            let mut c: Vec<char> = parts[2]
                .chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect();
            c.sort();
            c.into_iter().collect()
        };
        format!("{} {side} {castling} - 0 1", board.join("/"))
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        for fen in [
            crate::board::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
        ] {
            let a = Position::from_fen(fen).expect("valid FEN");
            let b = Position::from_fen(&mirror(fen)).expect("valid mirrored FEN");
            assert_eq!(evaluate(&a), evaluate(&b), "{fen}");
        }
    }

    #[test]
    fn extra_material_is_good_and_start_is_balanced() {
        let start = evaluate(&Position::startpos());
        assert!(start.abs() < 40, "start {start}");
        let up_a_knight =
            Position::from_fen("rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
                .expect("valid FEN");
        assert!(evaluate(&up_a_knight) > 200);
    }
}
