//! Endings the network misjudges, scored by rule instead of by the network:
//! - king, bishop and knight against a lone king: won, but only by driving the king to
//!   a corner of the bishop's colour, which the network does not know (it scores every
//!   such position alike, so the search finds no way to make progress and the fifty-move
//!   rule ends the game);
//! - king, bishop and pawns all on one rook file against a lone king, with the bishop
//!   unable to cover the promotion square: drawn once the lone king stands on that square
//!   or next to it, where the network sees a piece and pawns up;
//! - queen against rook: won, by driving the lone rook's king to an edge and the kings
//!   together, which the network does not see (with tables, a win kept only by the
//!   fifty-move counter; without them, a draw by the fifty-move rule).
//!
//! The search still searches these positions: a rule only replaces the static
//! evaluation at the leaves, so a mate or a lost piece is found as anywhere else.

use crate::board::{Bitboard, Color, PieceType, Position, Square};
use crate::movegen::count_legal;

/// The score of king, bishop and knight against king before the lone king is driven:
/// a won ending, below any mate score and above what the network gives a minor piece
/// and pawns.
const KBNK_BASE: i32 = 1000;
/// Per step (files plus ranks) the lone king stands closer to a corner the bishop covers.
const KBNK_CORNER: i32 = 50;
/// Per step (files plus ranks) the lone king stands nearer an edge: the first stage of
/// the mate, where every square is as far from both corners the bishop covers.
const KBNK_EDGE: i32 = 10;
/// Per step (king moves) the winning king stands closer to the lone king.
const KBNK_CLOSE: i32 = 10;

/// The score of queen against rook before the king is driven: a won ending, below
/// king, bishop and knight against king (a simpler win) and above any network score.
const KQKR_BASE: i32 = 800;
/// Per step (files plus ranks) the rook's king stands nearer an edge.
const KQKR_EDGE: i32 = 20;
/// Per step (king moves) the queen's king stands closer to the rook's.
const KQKR_CLOSE: i32 = 10;

/// The score of a lone king against mating material before the material is counted
/// and the king driven: won, like king, bishop and knight against king.
const LONE_BASE: i32 = 1000;
/// The winning side's material, per piece, counted so that the search keeps it and
/// promotes pawns to queens: pawn, knight, bishop, rook, queen.
const LONE_MATERIAL: [i32; 5] = [100, 300, 300, 500, 900];
/// Per unit of nearness to an edge: 18 less the squares of the lone king's distances to
/// the nearest file edge and rank edge (0 in the centre, 18 in a corner).
const LONE_EDGE: i32 = 4;
/// Per step (king moves) the winning king stands closer to the lone king.
const LONE_CLOSE: i32 = 20;

/// An ending scored by rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// King, bishop and knight against a lone king.
    Kbnk,
    /// King, bishop of the wrong colour and rook pawns against a lone king.
    WrongBishop,
    /// King and queen against king and rook.
    Kqkr,
    /// A lone king against mating material.
    LoneKing,
}

impl Rule {
    /// A short name for the rule (printed by UCI `eval`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Kbnk => "KBNvK",
            Self::WrongBishop => "wrong bishop and rook pawns vK",
            Self::Kqkr => "KQvKR",
            Self::LoneKing => "lone king",
        }
    }
}

/// The static evaluation of `pos` (side to move's view) when it is one of the endings
/// above; `None` otherwise (the network's evaluation applies).
#[inline]
pub fn known_ending(pos: &Position) -> Option<i32> {
    known_rule(pos).map(|(_, score)| score)
}

/// Which rule scores `pos`, and its score (side to move's view); `None` when the
/// network's evaluation applies.
#[inline]
pub fn known_rule(pos: &Position) -> Option<(Rule, i32)> {
    // Every rule has at most two pieces besides pawns on the weaker side; most positions
    // have far more pieces.
    let occupied = pos.occupied().count();
    if occupied > 12 {
        return None;
    }
    let (rule, strong, score) = if occupied == 4 {
        Color::ALL.into_iter().find_map(|strong| {
            let weak = strong.flip();
            kbnk(pos, strong, weak)
                .map(|s| (Rule::Kbnk, s))
                .or_else(|| kqkr(pos, strong, weak).map(|s| (Rule::Kqkr, s)))
                .map(|(rule, s)| (rule, strong, s))
        })
    } else {
        None
    }
    .or_else(|| {
        let weak = Color::ALL
            .into_iter()
            .find(|&c| pos.color(c).count() == 1)?;
        let strong = weak.flip();
        wrong_bishop(pos, strong, weak)
            .map(|s| (Rule::WrongBishop, strong, s))
            .or_else(|| lone_king(pos, strong, weak).map(|s| (Rule::LoneKing, strong, s)))
    })?;
    Some((
        rule,
        if pos.side_to_move() == strong {
            score
        } else {
            -score
        },
    ))
}

/// King, bishop and knight (of `strong`) against a lone king: won, more so the nearer
/// the lone king is to a corner of the bishop's colour and to the winning king.
fn kbnk(pos: &Position, strong: Color, weak: Color) -> Option<i32> {
    if pos.color(weak).count() != 1 {
        return None;
    }
    let bishops = pos.colored(strong, PieceType::Bishop);
    if bishops.count() != 1 || pos.colored(strong, PieceType::Knight).count() != 1 {
        return None;
    }
    let lone = pos.king(weak);
    let (file, rank) = (i32::from(lone.file()), i32::from(lone.rank()));
    // Steps to a1 or h8 for a dark-squared bishop, to a8 or h1 for a light-squared one.
    let to_corner = if (bishops & Bitboard::DARK_SQUARES).any() {
        (file + rank).min(14 - file - rank)
    } else {
        (file + 7 - rank).min(7 - file + rank)
    };
    // 0 on the four centre squares, 6 in the corners.
    let from_centre = ((2 * file - 7).abs() + (2 * rank - 7).abs()) / 2 - 1;
    let apart = king_distance(pos.king(strong), lone);
    Some(
        KBNK_BASE
            + KBNK_CORNER * (7 - to_corner)
            + KBNK_EDGE * from_centre
            + KBNK_CLOSE * (7 - apart),
    )
}

/// King and queen (of `strong`) against king and rook: won, more so the nearer the
/// rook's king is to an edge and to the queen's king (Stockfish's `KQKR`). Four pieces
/// in all is the caller's check.
fn kqkr(pos: &Position, strong: Color, weak: Color) -> Option<i32> {
    if pos.colored(strong, PieceType::Queen).count() != 1
        || pos.colored(weak, PieceType::Rook).count() != 1
    {
        return None;
    }
    let lone = pos.king(weak);
    let (file, rank) = (i32::from(lone.file()), i32::from(lone.rank()));
    // 0 on the four centre squares, 6 in the corners.
    let from_centre = ((2 * file - 7).abs() + (2 * rank - 7).abs()) / 2 - 1;
    let apart = king_distance(pos.king(strong), lone);
    Some(KQKR_BASE + KQKR_EDGE * from_centre + KQKR_CLOSE * (7 - apart))
}

/// King, one bishop and pawns all on the a-file or all on the h-file (of `strong`)
/// against a lone king: a draw (0) when the bishop cannot cover the promotion square
/// and the lone king stands on it or next to it.
fn wrong_bishop(pos: &Position, strong: Color, weak: Color) -> Option<i32> {
    let pawns = pos.colored(strong, PieceType::Pawn);
    let bishops = pos.colored(strong, PieceType::Bishop);
    let rest = pos.color(strong) & !pawns & !bishops;
    if bishops.count() != 1 || pawns.is_empty() || rest.count() != 1 {
        return None;
    }
    let file = if (pawns & !Bitboard::FILE_A).is_empty() {
        0
    } else if (pawns & !Bitboard::FILE_H).is_empty() {
        7
    } else {
        return None;
    };
    let promotion = Square::from_coords(file, 7).relative(strong);
    let promotion_dark = Bitboard::DARK_SQUARES.has(promotion);
    let bishop_dark = (bishops & Bitboard::DARK_SQUARES).any();
    (promotion_dark != bishop_dark && king_distance(pos.king(weak), promotion) <= 1).then_some(0)
}

/// A lone king (of `weak`, the caller's check) against a queen, a rook, bishops on both
/// colours or bishop and knight, with anything more: won, more so with more material,
/// the lone king nearer an edge and the kings closer; a draw (0) when the lone king is
/// to move and stalemated. Pawns alone, knights alone or bishops of one colour are left
/// to the network (they may not win).
fn lone_king(pos: &Position, strong: Color, weak: Color) -> Option<i32> {
    let count = |kind| pos.colored(strong, kind).count() as i32;
    let bishops = pos.colored(strong, PieceType::Bishop);
    let both_colours =
        (bishops & Bitboard::DARK_SQUARES).any() && (bishops & !Bitboard::DARK_SQUARES).any();
    let mating = count(PieceType::Queen) > 0
        || count(PieceType::Rook) > 0
        || both_colours
        || (bishops.any() && count(PieceType::Knight) > 0);
    if !mating {
        return None;
    }
    if pos.side_to_move() == weak && !pos.in_check() && count_legal(pos) == 0 {
        return Some(0);
    }
    let material: i32 = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
    ]
    .into_iter()
    .zip(LONE_MATERIAL)
    .map(|(kind, value)| count(kind) * value)
    .sum();
    let lone = pos.king(weak);
    let edge_distance = |x: i32| x.min(7 - x);
    let (file, rank) = (
        edge_distance(i32::from(lone.file())),
        edge_distance(i32::from(lone.rank())),
    );
    let apart = king_distance(pos.king(strong), lone);
    Some(
        LONE_BASE
            + material
            + LONE_EDGE * (18 - file * file - rank * rank)
            + LONE_CLOSE * (7 - apart),
    )
}

/// King moves from `a` to `b`.
fn king_distance(a: Square, b: Square) -> i32 {
    let files = (i32::from(a.file()) - i32::from(b.file())).abs();
    let ranks = (i32::from(a.rank()) - i32::from(b.rank())).abs();
    files.max(ranks)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> Option<i32> {
        known_ending(&Position::from_fen(fen).expect("valid FEN"))
    }

    /// Ranks 8 to 2 of a board with a black king on the a-file, rank `rank` (2 to 8).
    fn edge_fen(rank: usize) -> String {
        let rows: Vec<&str> = (2..=8)
            .rev()
            .map(|r| if r == rank { "k7" } else { "8" })
            .collect();
        rows.join("/")
    }

    #[test]
    fn kbnk_is_won_and_better_nearer_the_bishops_corner() {
        // Dark-squared bishop (c1): a1 and h8 are the corners that mate.
        let centre = eval("8/8/8/3k4/8/8/8/2B1KN2 w - - 0 1").expect("KBNK");
        let wrong_corner = eval("k7/8/8/8/8/8/8/2B1KN2 w - - 0 1").expect("KBNK");
        let right_corner = eval("8/8/8/8/8/8/8/k1B1KN2 w - - 0 1").expect("KBNK");
        assert!(centre >= KBNK_BASE, "{centre}");
        assert!(right_corner > wrong_corner, "{right_corner} {wrong_corner}");
        assert!(right_corner > centre, "{right_corner} {centre}");
        // The same from the lone king's side, and with a light-squared bishop (d1).
        assert_eq!(eval("8/8/8/3k4/8/8/8/2B1KN2 b - - 0 1"), Some(-centre));
        let light_right = eval("k7/8/8/8/8/8/8/3BKN2 w - - 0 1").expect("KBNK");
        let light_wrong = eval("8/8/8/8/8/8/8/k2BKN2 w - - 0 1").expect("KBNK");
        assert!(light_right > light_wrong, "{light_right} {light_wrong}");
        // Black can have the pieces too (the mirror image: c8 is light, a8 and h1 mate).
        assert_eq!(eval("2b1kn2/8/8/8/3K4/8/8/8 b - - 0 1"), Some(centre));
        // The lone king walking along the edge from the wrong corner to the right one.
        let edge: Vec<i32> = (2..=8)
            .rev()
            .map(|rank| eval(&format!("{}/B3KN2 w - - 0 1", edge_fen(rank))).expect("KBNK"))
            .collect();
        assert!(edge.windows(2).all(|w| w[0] < w[1]), "{edge:?}");
    }

    #[test]
    fn the_wrong_bishop_and_rook_pawns_draw_when_the_king_holds_the_corner() {
        // a8 is light; a dark-squared bishop (c1) never covers it.
        assert_eq!(eval("k7/8/8/P7/8/8/8/2B1K3 w - - 0 1"), Some(0));
        assert_eq!(eval("1k6/8/P7/P7/8/8/8/2B1K3 b - - 0 1"), Some(0));
        // h1 is light for black's h-pawn; a dark-squared bishop (f8) never covers it.
        assert_eq!(eval("5b2/8/8/8/4k3/7p/8/6K1 w - - 0 1"), Some(0));
        // The right bishop, a king too far, another pawn: the network decides.
        assert_eq!(eval("k7/8/8/P7/8/8/8/3BK3 w - - 0 1"), None);
        assert_eq!(eval("8/8/3k4/P7/8/8/8/2B1K3 w - - 0 1"), None);
        assert_eq!(eval("k7/8/8/P7/8/8/1P6/2B1K3 w - - 0 1"), None);
        assert_eq!(eval("k7/7p/8/P7/8/8/8/2B1K3 w - - 0 1"), None);
        // With a knight as well, the lone king rule scores it (won).
        assert!(eval("k7/8/8/P7/8/8/8/2BNK3 w - - 0 1") > Some(LONE_BASE));
    }

    #[test]
    fn kqkr_is_won_and_better_nearer_the_edge_and_the_kings_closer() {
        let centre = eval("8/8/8/3k4/8/2r5/8/4K1Q1 w - - 0 1").expect("KQKR");
        let edge = eval("3k4/8/8/8/8/2r5/8/4K1Q1 w - - 0 1").expect("KQKR");
        let corner = eval("k7/8/8/8/8/2r5/8/4K1Q1 w - - 0 1").expect("KQKR");
        let closer = eval("k7/8/2K5/8/8/2r5/8/6Q1 w - - 0 1").expect("KQKR");
        assert!((KQKR_BASE..KBNK_BASE).contains(&centre), "{centre}");
        assert!(
            centre < edge && edge < corner && corner < closer,
            "{centre} {edge} {corner} {closer}"
        );
        // The rook's side to move sees the same score negated; black can be the stronger.
        assert_eq!(eval("8/8/8/3k4/8/2r5/8/4K1Q1 b - - 0 1"), Some(-centre));
        assert_eq!(eval("4k1q1/8/2R5/8/3K4/8/8/8 b - - 0 1"), Some(centre));
    }

    #[test]
    fn a_lone_king_loses_more_the_nearer_the_edge_and_the_kings() {
        // Kings four steps apart: the lone king in the centre, at an edge, in a corner.
        let centre = eval("8/8/8/3k4/8/8/8/R3K3 w - - 0 1").expect("KRK");
        let edge = eval("8/8/8/7k/8/8/8/R3K3 w - - 0 1").expect("KRK");
        let other_edge = eval("8/8/8/k3K3/8/8/8/1R6 w - - 0 1").expect("KRK");
        let corner = eval("k7/8/8/4K3/8/8/8/1R6 w - - 0 1").expect("KRK");
        // Two steps apart.
        let closer = eval("k7/8/2K5/8/8/8/8/1R6 w - - 0 1").expect("KRK");
        assert!(centre > LONE_BASE, "{centre}");
        assert_eq!(edge, other_edge);
        assert!(
            centre < edge && edge < corner && corner < closer,
            "{centre} {edge} {corner} {closer}"
        );
        // The position the network's unit test checked before: won, whatever the
        // network makes of it.
        assert!(eval("4k3/8/8/8/8/8/8/R3K3 w - - 0 1") > Some(LONE_BASE));
        // More material scores more: a queen over a rook, a pawn more, a promotion.
        let queen = eval("8/8/8/3k4/8/8/8/Q3K3 w - - 0 1").expect("KQK");
        let pawn = eval("8/8/8/3k4/8/8/P7/R3K3 w - - 0 1").expect("KRPK");
        assert!(queen > centre && pawn > centre, "{queen} {pawn} {centre}");
        // Bishops of both colours, bishop and knight with a pawn; black the stronger.
        assert!(eval("8/8/8/3k4/8/8/8/2B1KB2 w - - 0 1") > Some(LONE_BASE));
        assert!(eval("8/8/8/3k4/8/8/P7/2B1KN2 w - - 0 1") > Some(LONE_BASE));
        assert_eq!(eval("8/8/8/3k4/8/8/8/R3K3 b - - 0 1"), Some(-centre));
        assert_eq!(eval("r3k3/8/8/8/3K4/8/8/8 b - - 0 1"), Some(centre));
        // Stalemate is a draw; the same king in check (mate) is left to the search.
        assert_eq!(eval("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"), Some(0));
        let mated = eval("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1").expect("KQK");
        assert!(mated < -LONE_BASE, "{mated}");
    }

    #[test]
    fn other_positions_are_left_to_the_network() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/8/8/3k4/8/8/8/2B1K1B1 w - - 0 1",
            "8/8/8/3k4/8/8/8/2N1KN2 w - - 0 1",
            "8/8/8/3k4/8/8/PPP5/2N1K3 w - - 0 1",
            "8/8/8/3k4/8/8/8/2B1K1n1 w - - 0 1",
            "8/8/8/3k4/8/2r5/8/4KRQ1 w - - 0 1",
            "8/8/8/3k4/8/2q5/8/4K1Q1 w - - 0 1",
            "8/8/8/3k4/8/2r5/8/4K1R1 w - - 0 1",
        ] {
            assert_eq!(eval(fen), None, "{fen}");
        }
    }
}
