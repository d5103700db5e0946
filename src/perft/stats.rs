//! Perft statistics: the last-ply moves broken down by kind, as perft reference tables
//! give them (captures, en passant, castles, promotions, checks, discovered checks,
//! double checks, checkmates).
//!
//! Unlike [`perft`](super::perft), which counts the last ply by popcount, this makes every
//! last-ply move to look at the position it leads to, so it is several times slower.
//!
//! Definitions (those of the chessprogramming wiki's perft results table):
//! - a **capture** takes a piece (en passant included);
//! - a **promotion** counts once per promotion piece;
//! - a **check** leaves the opponent in check; a **double check** has two checkers;
//! - a **discovered check** has one checker, which is not a piece that moved (the moving
//!   piece on its destination; for castling, the king and the rook both moved);
//! - a **checkmate** is a check after which the opponent has no legal move.

use crate::board::{Move, MoveKind, Position};
use crate::movegen::{count_legal, legal_moves};
use std::fmt;
use std::ops::{Add, AddAssign};

/// The last-ply moves of a perft, counted by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Leaf nodes (the perft count).
    pub nodes: u64,
    /// Captures, en passant included.
    pub captures: u64,
    /// En passant captures.
    pub en_passant: u64,
    /// Castling moves.
    pub castles: u64,
    /// Promotions (each promotion piece counts).
    pub promotions: u64,
    /// Moves that give check.
    pub checks: u64,
    /// Checks by a single piece that did not move.
    pub discovered_checks: u64,
    /// Checks by two pieces.
    pub double_checks: u64,
    /// Checks that leave the opponent without a legal move.
    pub checkmates: u64,
}

impl Stats {
    /// The rows of the table, in the order of perft references: label and count.
    pub fn rows(&self) -> [(&'static str, u64); 9] {
        [
            ("nodes", self.nodes),
            ("captures", self.captures),
            ("en passant", self.en_passant),
            ("castles", self.castles),
            ("promotions", self.promotions),
            ("checks", self.checks),
            ("discovered checks", self.discovered_checks),
            ("double checks", self.double_checks),
            ("checkmates", self.checkmates),
        ]
    }

    /// Adds the move `mv`, legal in `pos`, as one leaf.
    fn record(&mut self, pos: &mut Position, mv: Move) {
        self.nodes += 1;
        match mv.kind() {
            MoveKind::EnPassant => {
                self.captures += 1;
                self.en_passant += 1;
            }
            MoveKind::Castling => self.castles += 1,
            MoveKind::Promotion => self.promotions += 1,
            MoveKind::Normal => {}
        }
        if mv.kind() != MoveKind::EnPassant && pos.is_capture(mv) {
            self.captures += 1;
        }
        let undo = pos.make(mv);
        let checkers = pos.checkers();
        if checkers.any() {
            self.checks += 1;
            if checkers.more_than_one() {
                self.double_checks += 1;
            } else {
                let mover = match mv.kind() {
                    MoveKind::Castling => Move::castling_rook_to(mv.from(), mv.to()),
                    _ => mv.to(),
                };
                if checkers.lsb() != mover {
                    self.discovered_checks += 1;
                }
            }
            if count_legal(pos) == 0 {
                self.checkmates += 1;
            }
        }
        pos.unmake(mv, &undo);
    }
}

impl Add for Stats {
    type Output = Stats;

    fn add(mut self, other: Stats) -> Stats {
        self += other;
        self
    }
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.nodes += o.nodes;
        self.captures += o.captures;
        self.en_passant += o.en_passant;
        self.castles += o.castles;
        self.promotions += o.promotions;
        self.checks += o.checks;
        self.discovered_checks += o.discovered_checks;
        self.double_checks += o.double_checks;
        self.checkmates += o.checkmates;
    }
}

/// The table, one `label  count` row per line, counts right-aligned.
impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.rows();
        let width = rows
            .iter()
            .map(|(_, n)| n.to_string().len())
            .max()
            .unwrap_or(1);
        for (label, count) in rows {
            writeln!(f, "{label:<18} {count:>width$}")?;
        }
        Ok(())
    }
}

/// The statistics of the perft of `depth` below `pos`. Depth 0 is the position itself:
/// one node and no last-ply move.
pub fn stats(pos: &Position, depth: u32) -> Stats {
    let mut pos = pos.clone();
    let mut total = Stats::default();
    walk(&mut pos, depth, &mut total);
    total
}

/// Each legal move of `pos` with the statistics of `depth - 1` below it (empty for
/// depth 0); the statistics of a depth-1 subtree are those of the move itself.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, Stats)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for &mv in legal_moves(&pos).iter() {
        let mut sub = Stats::default();
        if depth == 1 {
            sub.record(&mut pos, mv);
        } else {
            let undo = pos.make(mv);
            walk(&mut pos, depth - 1, &mut sub);
            pos.unmake(mv, &undo);
        }
        out.push((mv, sub));
    }
    out
}

/// Adds the leaves `depth` plies below `pos` to `total`.
fn walk(pos: &mut Position, depth: u32, total: &mut Stats) {
    match depth {
        0 => total.nodes += 1,
        1 => {
            for &mv in legal_moves(pos).iter() {
                total.record(pos, mv);
            }
        }
        _ => {
            for &mv in legal_moves(pos).iter() {
                let undo = pos.make(mv);
                walk(pos, depth - 1, total);
                pos.unmake(mv, &undo);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::START_FEN;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";

    /// Stats from the columns of `stats.md`: nodes, captures, e.p., castles, promotions,
    /// checks, discovered, double, mates.
    fn row(c: [u64; 9]) -> Stats {
        Stats {
            nodes: c[0],
            captures: c[1],
            en_passant: c[2],
            castles: c[3],
            promotions: c[4],
            checks: c[5],
            discovered_checks: c[6],
            double_checks: c[7],
            checkmates: c[8],
        }
    }

    fn stats_of(fen: &str, depth: u32) -> Stats {
        stats(&Position::from_fen(fen).expect("valid FEN"), depth)
    }

    #[test]
    fn start_position_rows() {
        let s = stats_of(START_FEN, 4);
        assert_eq!(s, row([197_281, 1_576, 0, 0, 0, 469, 0, 0, 8]));
        assert_eq!(stats_of(START_FEN, 1), row([20, 0, 0, 0, 0, 0, 0, 0, 0]));
        assert_eq!(stats_of(START_FEN, 0), row([1, 0, 0, 0, 0, 0, 0, 0, 0]));
    }

    #[test]
    fn kiwipete_depth_3() {
        let s = stats_of(KIWIPETE, 3);
        assert_eq!(s, row([97_862, 17_102, 45, 3_162, 0, 993, 0, 0, 1]));
    }

    #[test]
    fn position_3_depth_5() {
        let s = stats_of(POSITION_3, 5);
        assert_eq!(s, row([674_624, 52_051, 1_165, 0, 0, 52_950, 1_292, 3, 0]));
    }

    #[test]
    fn position_4_depth_4() {
        let s = stats_of(POSITION_4, 4);
        assert_eq!(
            s,
            row([422_333, 131_393, 0, 7_795, 60_032, 15_492, 19, 0, 5])
        );
    }

    /// Positions outside stats.md, with figures from python-chess: promotions giving
    /// discovered and double checks; en passant; a 4-rook castling position.
    #[test]
    fn figures_from_python_chess() {
        let cases = [
            (
                "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                4,
                [182_838, 50_647, 0, 0, 65_620, 20_154, 64, 16, 0],
            ),
            (
                "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
                5,
                [185_429, 5_489, 0, 0, 0, 12_881, 170, 0, 10],
            ),
            (
                "r3k2r/8/8/8/3pPp2/8/8/R3K1RR b KQkq e3 0 1",
                3,
                [20_501, 1_362, 0, 340, 0, 977, 0, 0, 10],
            ),
            (
                "rnbqkb1r/ppppp1pp/7n/4Pp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                3,
                [17_546, 411, 27, 0, 0, 598, 0, 0, 0],
            ),
        ];
        for (fen, depth, counts) in cases {
            assert_eq!(stats_of(fen, depth), row(counts), "{fen}");
        }
    }

    /// The divide's subtrees add up to the whole, and agree with plain perft.
    #[test]
    fn divide_adds_up() {
        let pos = Position::from_fen(KIWIPETE).expect("valid FEN");
        let parts = divide(&pos, 2);
        let sum = parts.iter().fold(Stats::default(), |acc, (_, s)| acc + *s);
        assert_eq!(sum, stats(&pos, 2));
        assert_eq!(
            u128::from(sum.nodes),
            crate::perft::perft(&mut pos.clone(), 2)
        );
        assert_eq!(divide(&pos, 0), Vec::new());
    }

    #[test]
    fn table_lists_every_column() {
        let text = row([
            4_085_603, 757_163, 1_929, 128_013, 15_172, 25_523, 42, 6, 43,
        ])
        .to_string();
        assert!(text.contains("nodes              4085603"), "{text}");
        assert!(text.contains("double checks            6"), "{text}");
        assert_eq!(text.lines().count(), 9);
    }
}
