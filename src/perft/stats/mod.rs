//! Perft statistics: the last-ply moves broken down by kind, as perft reference tables
//! give them (captures, en passant, castles, promotions, checks, discovered checks,
//! double checks, checkmates).
//!
//! Definitions (those of the chessprogramming wiki's perft results table):
//! - a **capture** takes a piece (en passant included);
//! - a **promotion** counts once per promotion piece;
//! - a **check** leaves the opponent in check; a **double check** has two checkers;
//! - a **discovered check** has one checker, which is not a piece that moved (the moving
//!   piece on its destination; for castling, the king and the rook both moved);
//! - a **checkmate** is a check after which the opponent has no legal move.
//!
//! Two implementations of these definitions:
//! - [`reference`](mod@reference): makes every last-ply move and looks at the position it
//!   leads to; slow, and obviously right;
//! - perft's own tree walk (`crate::perft::tree`) with a breakdown as its count
//!   (`count.rs`): the last ply counted from target sets (`leaf.rs`), only the moves that
//!   give check made (to look for mate); shared out between threads as perft is, with a
//!   hash table of whole breakdowns (`table.rs`). Tests check it against the reference.

mod count;
mod leaf;
pub mod reference;
mod table;

use super::PerftOptions;
use super::parallel;
use crate::attacks::Sliders;
use crate::board::{Move, Position};
use crate::movegen::{Counter, Side, generate_with};
use std::fmt;
use std::ops::{Add, AddAssign};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The last-ply moves of a perft counted by kind, in counts of type `N`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Breakdown<N> {
    /// Leaf nodes (the perft count).
    pub nodes: N,
    /// Captures, en passant included.
    pub captures: N,
    /// En passant captures.
    pub en_passant: N,
    /// Castling moves.
    pub castles: N,
    /// Promotions (each promotion piece counts).
    pub promotions: N,
    /// Moves that give check.
    pub checks: N,
    /// Checks by a single piece that did not move.
    pub discovered_checks: N,
    /// Checks by two pieces.
    pub double_checks: N,
    /// Checks that leave the opponent without a legal move.
    pub checkmates: N,
}

/// The statistics of a perft: exact at any depth, like perft's `u128` counts.
pub type Stats = Breakdown<u128>;

/// The statistics of a subtree of at most [`NARROW_DEPTH`](super::tree::NARROW_DEPTH)
/// plies, whose counts always fit in a `u64` (the walk's inner counts, and the hash
/// table's entries).
pub(crate) type Tally = Breakdown<u64>;

/// The labels of the rows, in the order of perft references.
pub const LABELS: [&str; 9] = [
    "nodes",
    "captures",
    "en passant",
    "castles",
    "promotions",
    "checks",
    "discovered checks",
    "double checks",
    "checkmates",
];

impl<N: Copy> Breakdown<N> {
    /// The counts, in the order of [`LABELS`].
    pub fn counts(&self) -> [N; 9] {
        [
            self.nodes,
            self.captures,
            self.en_passant,
            self.castles,
            self.promotions,
            self.checks,
            self.discovered_checks,
            self.double_checks,
            self.checkmates,
        ]
    }

    /// The breakdown of `counts`, in the order of [`LABELS`].
    pub fn from_counts(c: [N; 9]) -> Self {
        let [
            nodes,
            captures,
            en_passant,
            castles,
            promotions,
            checks,
            discovered_checks,
            double_checks,
            checkmates,
        ] = c;
        Self {
            nodes,
            captures,
            en_passant,
            castles,
            promotions,
            checks,
            discovered_checks,
            double_checks,
            checkmates,
        }
    }

    /// The rows of the table, in the order of perft references: label and count.
    pub fn rows(&self) -> [(&'static str, N); 9] {
        let counts = self.counts();
        std::array::from_fn(|i| (LABELS[i], counts[i]))
    }
}

impl From<Tally> for Stats {
    #[inline(always)]
    fn from(tally: Tally) -> Stats {
        Stats::from_counts(tally.counts().map(u128::from))
    }
}

impl Stats {
    /// The same counts as a [`Tally`], if every one fits.
    pub(crate) fn narrow(self) -> Option<Tally> {
        let c = self.counts();
        let mut out = [0u64; 9];
        for (o, n) in out.iter_mut().zip(c) {
            *o = u64::try_from(n).ok()?;
        }
        Some(Tally::from_counts(out))
    }
}

impl Stats {
    /// Why these counts cannot be the breakdown of any perft, if they cannot: each
    /// kind of move is at most every leaf; en passant captures are captures;
    /// discovered and double checks (two kinds that exclude each other) and checkmates
    /// are checks; en passant, castling and promotion exclude each other. `None` for
    /// counts that may be right (only a count can tell).
    pub fn impossibility(&self) -> Option<String> {
        let counts = self.counts();
        for (label, &n) in LABELS.iter().zip(&counts).skip(1) {
            if n > self.nodes {
                return Some(format!("{label} {n} exceed the {} nodes", self.nodes));
            }
        }
        let at_most = |what: &str, n: u128, whole: &str, of: u128| {
            (n > of).then(|| format!("{what} {n} exceed the {of} {whole}"))
        };
        at_most("en passant", self.en_passant, "captures", self.captures)
            .or_else(|| at_most("checkmates", self.checkmates, "checks", self.checks))
            .or_else(|| {
                let n = self.discovered_checks.checked_add(self.double_checks)?;
                at_most("discovered and double checks", n, "checks", self.checks)
            })
            .or_else(|| {
                let n =
                    (self.en_passant.checked_add(self.castles)?).checked_add(self.promotions)?;
                at_most("en passant, castles and promotions", n, "nodes", self.nodes)
            })
    }

    /// The sum, or `None` if a count overflows.
    pub fn checked_add(&self, other: &Stats) -> Option<Stats> {
        let (a, b) = (self.counts(), other.counts());
        let mut out = [0u128; 9];
        for (o, (a, b)) in out.iter_mut().zip(a.into_iter().zip(b)) {
            *o = a.checked_add(b)?;
        }
        Some(Stats::from_counts(out))
    }

    /// Every count times `factor`, or `None` if one overflows.
    pub fn checked_mul(&self, factor: u128) -> Option<Stats> {
        let mut out = self.counts();
        for o in &mut out {
            *o = o.checked_mul(factor)?;
        }
        Some(Stats::from_counts(out))
    }
}

impl<N: Copy + AddAssign> Add for Breakdown<N> {
    type Output = Self;

    fn add(mut self, other: Self) -> Self {
        self += other;
        self
    }
}

impl<N: Copy + AddAssign> AddAssign for Breakdown<N> {
    #[inline(always)]
    fn add_assign(&mut self, o: Self) {
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
impl<N: Copy + fmt::Display> fmt::Display for Breakdown<N> {
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

/// The statistics of the perft of `depth` below `pos` on this thread, without a hash
/// table. Depth 0 is the position itself: one node and no last-ply move; 0 for a depth
/// above [`MAX_DEPTH`](super::MAX_DEPTH).
#[must_use]
pub fn stats(pos: &Position, depth: u32) -> Stats {
    let never = AtomicBool::new(false);
    stats_with(pos, depth, &PerftOptions::default(), &never).unwrap_or_default()
}

/// Each legal move of `pos` with the statistics of `depth - 1` below it (empty for
/// depth 0); the statistics of a depth-1 subtree are those of the move itself.
#[must_use]
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, Stats)> {
    let never = AtomicBool::new(false);
    divide_with(pos, depth, &PerftOptions::default(), &never).unwrap_or_default()
}

/// [`stats`] with threads and a hash table, ending early with `None` once `stop` is set
/// (and `None` for a depth above [`MAX_DEPTH`](super::MAX_DEPTH)).
#[must_use]
pub fn stats_with(
    pos: &Position,
    depth: u32,
    options: &PerftOptions,
    stop: &AtomicBool,
) -> Option<Stats> {
    if depth == 0 {
        return (depth <= super::MAX_DEPTH).then(|| Stats {
            nodes: 1,
            ..Stats::default()
        });
    }
    let divide = divide_with(pos, depth, options, stop)?;
    Some(divide.iter().fold(Stats::default(), |acc, (_, s)| acc + *s))
}

/// [`divide`] with threads and a hash table (a table of whole breakdowns, separate from
/// perft's, allocated for this run), ending early with `None` once `stop` is set (and
/// `None` for a depth above [`MAX_DEPTH`](super::MAX_DEPTH)).
#[must_use]
pub fn divide_with(
    pos: &Position,
    depth: u32,
    options: &PerftOptions,
    stop: &AtomicBool,
) -> Option<Vec<(Move, Stats)>> {
    if depth > super::MAX_DEPTH {
        return None;
    }
    if depth == 0 {
        return Some(Vec::new());
    }
    if depth == 1 {
        // Each move is its own subtree: made and looked at.
        let mut pos = pos.clone();
        let moves = crate::movegen::legal_moves(&pos);
        let one = |mv| {
            let mut tally = Tally::default();
            reference::record(&mut tally, &mut pos, mv);
            (mv, tally.into())
        };
        return Some(moves.iter().copied().map(one).collect());
    }
    let table = match options.hash_mb {
        0 => None,
        mb => table::Table::new(mb).ok().map(Arc::new),
    };
    let divide = parallel::divide::<Tally>(pos, depth, options.threads, table, stop);
    (!stop.load(Ordering::Relaxed)).then_some(divide)
}

/// The whole breakdown of `parts`, the [`divide`] of a position at `depth` (at depth 0,
/// the position itself: one node).
#[must_use]
pub fn sum(parts: &[(Move, Stats)], depth: u32) -> Stats {
    let start = Stats {
        nodes: u128::from(depth == 0),
        ..Stats::default()
    };
    parts.iter().fold(start, |acc, (_, s)| acc + *s)
}

/// Whether `mv`, a legal move of `S` in `pos` that gives check, mates: the opponent has
/// no legal reply. The move is made on the bitboards only, for the replies' generator.
#[inline(always)]
fn mates<S: Side, L: Sliders>(pos: &mut Position, mv: Move) -> bool {
    let undo = pos.make_lite(mv);
    let mut replies = Counter(0);
    generate_with::<S::Them, L, _>(pos, &mut replies);
    pos.unmake_lite(mv, &undo);
    replies.0 == 0
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
        Stats::from_counts(c.map(u128::from))
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

    #[test]
    fn real_breakdowns_are_possible_and_broken_ones_are_not() {
        for fen in [START_FEN, KIWIPETE, POSITION_3, POSITION_4] {
            for depth in 0..=3 {
                assert_eq!(stats_of(fen, depth).impossibility(), None, "{fen} {depth}");
            }
        }
        let real = [197_281, 1_576, 0, 0, 0, 469, 0, 0, 8];
        let broken = |i: usize, n: u64, why: &str| {
            let mut c = real;
            c[i] = n;
            let said = row(c).impossibility().unwrap_or_default();
            assert!(said.contains(why), "{c:?}: '{said}'");
        };
        broken(1, 197_282, "captures 197282 exceed the 197281 nodes");
        broken(5, 300_000, "checks 300000 exceed");
        broken(3, 197_282, "castles");
        broken(2, 1_577, "en passant 1577 exceed the 1576 captures");
        broken(8, 470, "checkmates 470 exceed the 469 checks");
        broken(6, 470, "discovered and double checks");
        let mut c = real;
        (c[2], c[3], c[4]) = (0, 100_000, 100_000);
        assert!(
            row(c)
                .impossibility()
                .is_some_and(|w| w.contains("promotions"))
        );
    }

    /// The divide's subtrees add up to the whole, and agree with plain perft.
    #[test]
    fn divide_adds_up() {
        let pos = Position::from_fen(KIWIPETE).expect("valid FEN");
        let parts = divide(&pos, 2);
        let sum = parts.iter().fold(Stats::default(), |acc, (_, s)| acc + *s);
        assert_eq!(sum, stats(&pos, 2));
        assert_eq!(sum.nodes, crate::perft::perft(&pos, 2));
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
