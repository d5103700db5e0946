//! Perft statistics: the last-ply moves broken down by kind, as perft reference tables
//! give them, in two sets of columns ([`Columns`]): the chessprogramming wiki's
//! (captures, en passant, castles, promotions, checks, discovered checks, double checks,
//! checkmates) and The Grand Chess Tree's (checks and mates each split four ways).
//!
//! Definitions (the wiki's, which The Grand Chess Tree's code refines; see
//! [`columns`](mod@columns)):
//! - a **capture** takes a piece (en passant included);
//! - a **promotion** counts once per promotion piece;
//! - a **check** leaves the opponent in check, a **checkmate** without a legal move;
//! - the **moved piece** is the piece on the move's destination (for castling, the rook
//!   on its destination: the king never gives check); a checker that is not the moved
//!   piece was **discovered**. So a check is *direct* (one checker, the moved piece),
//!   *discovered* (one checker, another piece), *direct discovered* (two checkers, one
//!   the moved piece) or *double discovered* (two checkers, neither the moved piece:
//!   only en passant, which empties two squares, or Chess960 castling can do that).
//!
//! The walk counts that finest split, checks apart from mates ([`Breakdown`]); both sets
//! of columns are sums of it. Two implementations:
//! - [`reference`](mod@reference): makes every last-ply move and looks at the position it
//!   leads to; slow, and obviously right;
//! - perft's own tree walk (`crate::perft::tree`) with a breakdown as its count
//!   (`count.rs`): the last ply counted from target sets (`leaf.rs`), only the moves that
//!   give check made (to look for mate); shared out between threads as perft is, with a
//!   hash table of whole breakdowns (`table.rs`). Tests check it against the reference.

pub mod columns;
mod count;
mod leaf;
pub mod reference;
mod table;

pub use columns::{CLASSIC_LABELS, Classic, Columns, GCT_LABELS, LABELS, Table};

use super::PerftOptions;
use super::parallel;
use crate::attacks::Sliders;
use crate::board::{Move, Position};
use crate::movegen::{Counter, Side, generate_with};
use std::ops::{Add, AddAssign};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Checks (or mates) of one count split by who gives them: the moved piece, another
/// piece, or two pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checks<N> {
    /// One checker, the moved piece.
    pub direct: N,
    /// One checker, not the moved piece (a single discovered check).
    pub discovered: N,
    /// Two checkers, one of them the moved piece.
    pub direct_discovered: N,
    /// Two checkers, neither of them the moved piece.
    pub double_discovered: N,
}

/// The kinds of check, as the fields of [`Checks`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CheckKind {
    Direct,
    Discovered,
    DirectDiscovered,
    DoubleDiscovered,
}

impl CheckKind {
    /// The kind of a check by two pieces or one, one of which is the moved piece or not.
    #[inline(always)]
    pub(crate) fn of(two_checkers: bool, by_mover: bool) -> Self {
        match (two_checkers, by_mover) {
            (false, true) => Self::Direct,
            (false, false) => Self::Discovered,
            (true, true) => Self::DirectDiscovered,
            (true, false) => Self::DoubleDiscovered,
        }
    }
}

impl<N> Checks<N> {
    /// The count of checks of `kind`.
    #[inline(always)]
    pub(crate) fn of_kind(&mut self, kind: CheckKind) -> &mut N {
        match kind {
            CheckKind::Direct => &mut self.direct,
            CheckKind::Discovered => &mut self.discovered,
            CheckKind::DirectDiscovered => &mut self.direct_discovered,
            CheckKind::DoubleDiscovered => &mut self.double_discovered,
        }
    }
}

impl<N: Copy + Add<Output = N>> Checks<N> {
    /// All four kinds together.
    pub fn total(&self) -> N {
        self.direct + self.discovered + self.direct_discovered + self.double_discovered
    }

    /// The kind-by-kind sum with `other`.
    pub fn plus(&self, other: &Self) -> Self {
        Self {
            direct: self.direct + other.direct,
            discovered: self.discovered + other.discovered,
            direct_discovered: self.direct_discovered + other.direct_discovered,
            double_discovered: self.double_discovered + other.double_discovered,
        }
    }
}

/// The last-ply moves of a perft counted by kind, in counts of type `N`: the finest
/// split, of which both sets of [`Columns`] are sums.
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
    /// Moves that give check and do not mate, by kind of check.
    pub checks: Checks<N>,
    /// Moves that mate, by kind of check.
    pub mates: Checks<N>,
}

/// The statistics of a perft: exact at any depth, like perft's `u128` counts.
pub type Stats = Breakdown<u128>;

/// The statistics of a subtree of at most [`NARROW_DEPTH`](super::tree::NARROW_DEPTH)
/// plies, whose counts always fit in a `u64` (the walk's inner counts, and the hash
/// table's entries).
pub(crate) type Tally = Breakdown<u64>;

/// How many counts a [`Breakdown`] holds.
pub const COUNTS: usize = 13;

impl<N: Copy> Breakdown<N> {
    /// The counts, in the order of the fields (nodes, captures, en passant, castles,
    /// promotions, the four kinds of check, the four kinds of mate).
    pub fn counts(&self) -> [N; COUNTS] {
        let (c, m) = (&self.checks, &self.mates);
        [
            self.nodes,
            self.captures,
            self.en_passant,
            self.castles,
            self.promotions,
            c.direct,
            c.discovered,
            c.direct_discovered,
            c.double_discovered,
            m.direct,
            m.discovered,
            m.direct_discovered,
            m.double_discovered,
        ]
    }

    /// The breakdown of `counts`, in the order of [`counts`](Self::counts).
    pub fn from_counts(c: [N; COUNTS]) -> Self {
        let [n, x, ep, oo, q, c1, c2, c3, c4, m1, m2, m3, m4] = c;
        Self {
            nodes: n,
            captures: x,
            en_passant: ep,
            castles: oo,
            promotions: q,
            checks: Checks {
                direct: c1,
                discovered: c2,
                direct_discovered: c3,
                double_discovered: c4,
            },
            mates: Checks {
                direct: m1,
                discovered: m2,
                direct_discovered: m3,
                double_discovered: m4,
            },
        }
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
        let mut out = [0u64; COUNTS];
        for (o, n) in out.iter_mut().zip(self.counts()) {
            *o = u64::try_from(n).ok()?;
        }
        Some(Tally::from_counts(out))
    }
}

impl<N: Copy + AddAssign> Add for Breakdown<N> {
    type Output = Self;

    fn add(mut self, other: Self) -> Self {
        self += other;
        self
    }
}

impl<N: Copy + AddAssign> AddAssign for Checks<N> {
    #[inline(always)]
    fn add_assign(&mut self, o: Self) {
        self.direct += o.direct;
        self.discovered += o.discovered;
        self.direct_discovered += o.direct_discovered;
        self.double_discovered += o.double_discovered;
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
        self.mates += o.mates;
    }
}

/// The classic table ([`Columns::Classic`]), one `label  count` row per line.
impl<N: Copy + Add<Output = N> + std::fmt::Display> std::fmt::Display for Breakdown<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.table(Columns::Classic).fmt(f)
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

/// Whether `mv`, a legal move of `S` in `pos` that gives check, mates (the opponent has
/// no legal reply), and if so by which kind of check; the moved piece is the one on
/// `mv`'s destination (not for castling). The move is made on the bitboards only, for
/// the replies' generator.
#[inline(always)]
fn mates<S: Side, L: Sliders>(pos: &mut Position, mv: Move) -> Option<CheckKind> {
    let undo = pos.make_lite(mv);
    let mut replies = Counter(0);
    generate_with::<S::Them, L, _>(pos, &mut replies);
    let kind = (replies.0 == 0).then(|| {
        let checkers = pos.attackers_to(pos.king(S::THEM), pos.occupied()) & pos.color(S::US);
        CheckKind::of(checkers.more_than_one(), checkers.has(mv.to()))
    });
    pos.unmake_lite(mv, &undo);
    kind
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::START_FEN;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    const POSITION_3: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    const POSITION_4: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";

    /// Classic counts as in the columns of `stats.md`: nodes, captures, e.p., castles,
    /// promotions, checks, discovered, double, mates.
    fn row(c: [u64; 9]) -> [u128; 9] {
        c.map(u128::from)
    }

    /// The classic counts of the perft of `depth` below `fen`.
    fn stats_of(fen: &str, depth: u32) -> [u128; 9] {
        stats(&Position::from_fen(fen).expect("valid FEN"), depth).classic_counts()
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

    /// The Grand Chess Tree's split (checks apart from mates, each by kind) on positions
    /// built for each kind, against figures from python-chess (every last-ply move made;
    /// the checkers after it; the moved piece on the destination, the rook's for
    /// castling) and against the reference: en passant uncovering two sliders (double
    /// discovered check, and mate), a knight uncovering a rook (single and direct
    /// discovered mates), promotions giving discovered and double checks, castling whose
    /// rook checks, en passant discovered checks, Chess960 castling.
    #[test]
    fn every_kind_of_check_and_mate() {
        let cases: [(&str, u32, [u128; 13]); 10] = [
            (
                "B3R3/8/8/3pP3/4k3/8/8/7K w - d6 0 1",
                1,
                [16, 2, 1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0],
            ),
            (
                "B3R3/8/8/3pP3/4k3/8/2N5/5Q1K w - d6 0 1",
                1,
                [42, 2, 1, 0, 0, 9, 0, 0, 0, 0, 0, 0, 1],
            ),
            (
                "R2N3k/6pp/8/8/8/8/8/K7 w - - 0 1",
                1,
                [15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 1, 0],
            ),
            (
                "R2N3k/6pp/8/8/8/8/8/K7 w - - 0 1",
                3,
                [1025, 9, 0, 0, 0, 30, 70, 20, 0, 0, 10, 0, 0],
            ),
            (
                "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                4,
                [182_838, 50_647, 0, 0, 65_620, 20_074, 64, 16, 0, 0, 0, 0, 0],
            ),
            (
                "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
                1,
                [15, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0, 0, 0],
            ),
            (
                "r3k2r/8/8/8/3pPp2/8/8/R3K1RR b KQkq e3 0 1",
                3,
                [20_501, 1_362, 0, 340, 0, 967, 0, 0, 0, 10, 0, 0, 0],
            ),
            (
                POSITION_3,
                5,
                [
                    674_624, 52_051, 1_165, 0, 0, 51_655, 1_292, 3, 0, 0, 0, 0, 0,
                ],
            ),
            (
                POSITION_4,
                3,
                [9_467, 1_021, 4, 0, 120, 14, 2, 0, 0, 22, 0, 0, 0],
            ),
            (
                "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
                3,
                [10_471, 235, 1, 455, 0, 22, 0, 0, 0, 0, 0, 0, 0],
            ),
        ];
        for (fen, depth, counts) in cases {
            let pos = Position::from_fen(fen).expect("valid FEN");
            let fast = stats(&pos, depth);
            assert_eq!(fast.counts(), counts, "{fen} {depth}");
            if depth <= 3 {
                assert_eq!(reference::stats(&pos, depth), fast, "{fen} {depth}");
            }
        }
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
}
