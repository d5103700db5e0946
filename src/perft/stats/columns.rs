//! The columns a [`Breakdown`] is printed in, both sums of its finest split:
//!
//! - [`Columns::Classic`], the chessprogramming wiki's perft results table: nodes,
//!   captures, en passant, castles, promotions, checks (mates included), discovered
//!   checks (one checker, not the moved piece), double checks (two checkers),
//!   checkmates;
//! - [`Columns::Gct`], The Grand Chess Tree's published results
//!   (`results/perft_p0_results.json` of github `Timmoth/grandchesstree`): nodes,
//!   captures, en passant, castles, promotions, then direct, single discovered, direct
//!   discovered and double discovered checks *that do not mate*, their total, the same
//!   four kinds of mate and their total. Its client decides the kind from the checkers
//!   of the position after the move and the square the last move went to (for castling
//!   the rook's square): one checker on it is direct, one elsewhere single discovered,
//!   two with one on it direct discovered, two with none on it double discovered.
//!
//! [`Classic`] holds the nine classic counts on their own, as work-unit results carry
//! them (`crate::perft::units`), with the checks that tell a forged result.

use super::Breakdown;
use std::fmt;
use std::ops::Add;
use std::str::FromStr;

/// Which columns a breakdown is printed in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Columns {
    /// The chessprogramming wiki's nine columns (the default).
    #[default]
    Classic,
    /// The Grand Chess Tree's fifteen columns.
    Gct,
}

/// The labels of the classic columns, in the order of perft references.
pub const CLASSIC_LABELS: [&str; 9] = [
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

/// The labels of the classic columns (the default table).
pub const LABELS: [&str; 9] = CLASSIC_LABELS;

/// The labels of The Grand Chess Tree's columns, in its order. Its JSON keys are the
/// same words joined by `_` (`enpassants` for en passant, and a few misspelt
/// `discoverd`).
pub const GCT_LABELS: [&str; 15] = [
    "nodes",
    "captures",
    "en passant",
    "castles",
    "promotions",
    "direct checks",
    "single discovered checks",
    "direct discovered checks",
    "double discovered checks",
    "total checks",
    "direct mates",
    "single discovered mates",
    "direct discovered mates",
    "double discovered mates",
    "total mates",
];

impl Columns {
    /// Every set of columns, the default first.
    pub const ALL: [Columns; 2] = [Columns::Classic, Columns::Gct];

    /// The name that selects these columns (`--stats-columns NAME`, `go perft N stats
    /// NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Columns::Classic => "classic",
            Columns::Gct => "gct",
        }
    }

    /// The labels of the rows, in order.
    pub fn labels(self) -> &'static [&'static str] {
        match self {
            Columns::Classic => &CLASSIC_LABELS,
            Columns::Gct => &GCT_LABELS,
        }
    }
}

impl fmt::Display for Columns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no set of columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownColumns(pub String);

impl fmt::Display for UnknownColumns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown statistics columns '{}': expected 'classic' or 'gct'",
            self.0
        )
    }
}

impl std::error::Error for UnknownColumns {}

impl FromStr for Columns {
    type Err = UnknownColumns;

    /// `classic` or `gct`, in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Columns::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownColumns(s.to_string()))
    }
}

impl<N: Copy + Add<Output = N>> Breakdown<N> {
    /// The classic counts, in the order of [`CLASSIC_LABELS`].
    pub fn classic_counts(&self) -> [N; 9] {
        let (c, m) = (&self.checks, &self.mates);
        [
            self.nodes,
            self.captures,
            self.en_passant,
            self.castles,
            self.promotions,
            c.total() + m.total(),
            c.discovered + m.discovered,
            c.direct_discovered + c.double_discovered + m.direct_discovered + m.double_discovered,
            m.total(),
        ]
    }

    /// The Grand Chess Tree's counts, in the order of [`GCT_LABELS`].
    pub fn gct_counts(&self) -> [N; 15] {
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
            c.total(),
            m.direct,
            m.discovered,
            m.direct_discovered,
            m.double_discovered,
            m.total(),
        ]
    }

    /// The rows in `columns`: label and count.
    pub fn rows(&self, columns: Columns) -> Vec<(&'static str, N)> {
        let counts = match columns {
            Columns::Classic => self.classic_counts().to_vec(),
            Columns::Gct => self.gct_counts().to_vec(),
        };
        columns.labels().iter().copied().zip(counts).collect()
    }

    /// The table in `columns`, for printing.
    pub fn table(&self, columns: Columns) -> Table<N> {
        Table(self.rows(columns))
    }
}

/// Rows of a breakdown; displayed one `label  count` row per line, labels padded to one
/// space past the longest, counts right-aligned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table<N>(pub Vec<(&'static str, N)>);

impl<N: fmt::Display> fmt::Display for Table<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One space past the longest label (18 for the classic table, as it always was).
        let label_width = 1 + self.0.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
        let width = self
            .0
            .iter()
            .map(|(_, n)| n.to_string().len())
            .max()
            .unwrap_or(1);
        for (label, count) in &self.0 {
            writeln!(f, "{label:<label_width$} {count:>width$}")?;
        }
        Ok(())
    }
}

/// The nine classic counts of a perft on their own (in the order of
/// [`CLASSIC_LABELS`]), as work-unit results carry them: summed exactly, and checked
/// for counts no perft can have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Classic(pub [u128; 9]);

impl From<&Breakdown<u128>> for Classic {
    fn from(stats: &Breakdown<u128>) -> Self {
        Classic(stats.classic_counts())
    }
}

impl Classic {
    /// Leaf nodes (the perft count).
    pub fn nodes(&self) -> u128 {
        self.0[0]
    }

    /// The rows: label and count.
    pub fn rows(&self) -> Vec<(&'static str, u128)> {
        CLASSIC_LABELS.iter().copied().zip(self.0).collect()
    }

    /// Why these counts cannot be the breakdown of any perft, if they cannot: each
    /// kind of move is at most every leaf; en passant captures are captures;
    /// discovered and double checks (two kinds that exclude each other) and checkmates
    /// are checks; en passant, castling and promotion exclude each other. `None` for
    /// counts that may be right (only a count can tell).
    pub fn impossibility(&self) -> Option<String> {
        let [
            nodes,
            captures,
            en_passant,
            castles,
            promotions,
            checks,
            discovered,
            double,
            mates,
        ] = self.0;
        for (label, &n) in CLASSIC_LABELS.iter().zip(&self.0).skip(1) {
            if n > nodes {
                return Some(format!("{label} {n} exceed the {nodes} nodes"));
            }
        }
        let at_most = |what: &str, n: u128, whole: &str, of: u128| {
            (n > of).then(|| format!("{what} {n} exceed the {of} {whole}"))
        };
        at_most("en passant", en_passant, "captures", captures)
            .or_else(|| at_most("checkmates", mates, "checks", checks))
            .or_else(|| {
                let n = discovered.checked_add(double)?;
                at_most("discovered and double checks", n, "checks", checks)
            })
            .or_else(|| {
                let n = (en_passant.checked_add(castles)?).checked_add(promotions)?;
                at_most("en passant, castles and promotions", n, "nodes", nodes)
            })
    }

    /// The sum, or `None` if a count overflows.
    pub fn checked_add(&self, other: &Classic) -> Option<Classic> {
        let mut out = [0u128; 9];
        for (o, (a, b)) in out.iter_mut().zip(self.0.into_iter().zip(other.0)) {
            *o = a.checked_add(b)?;
        }
        Some(Classic(out))
    }

    /// Every count times `factor`, or `None` if one overflows.
    pub fn checked_mul(&self, factor: u128) -> Option<Classic> {
        let mut out = self.0;
        for o in &mut out {
            *o = o.checked_mul(factor)?;
        }
        Some(Classic(out))
    }
}

/// The classic table.
impl fmt::Display for Classic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Table(self.rows()).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::stats::{COUNTS, Stats};

    #[test]
    fn names_round_trip() {
        for c in Columns::ALL {
            assert_eq!(c.name().parse::<Columns>(), Ok(c));
            assert_eq!(c.name().to_uppercase().parse::<Columns>(), Ok(c));
        }
        let err = "wiki".parse::<Columns>().unwrap_err().to_string();
        assert!(err.contains("'wiki'") && err.contains("'gct'"), "{err}");
    }

    /// Every fine count lands in the columns it belongs to, once.
    #[test]
    fn both_columns_are_sums_of_the_fine_split() {
        let fine: [u128; COUNTS] = std::array::from_fn(|i| 1 << (4 * i));
        let s = Stats::from_counts(fine);
        let gct = s.gct_counts();
        assert_eq!(&gct[..9], &fine[..9]);
        assert_eq!(gct[9], fine[5] + fine[6] + fine[7] + fine[8]);
        assert_eq!(&gct[10..14], &fine[9..13]);
        assert_eq!(gct[14], fine[9] + fine[10] + fine[11] + fine[12]);
        let classic = s.classic_counts();
        assert_eq!(&classic[..5], &fine[..5]);
        assert_eq!(classic[5], fine[5..].iter().sum::<u128>());
        assert_eq!(classic[6], fine[6] + fine[10]);
        assert_eq!(classic[7], fine[7] + fine[8] + fine[11] + fine[12]);
        assert_eq!(classic[8], fine[9..].iter().sum::<u128>());
    }

    #[test]
    fn real_breakdowns_are_possible_and_broken_ones_are_not() {
        let real = [197_281, 1_576, 0, 0, 0, 469, 0, 0, 8];
        assert_eq!(Classic(real).impossibility(), None);
        let broken = |i: usize, n: u128, why: &str| {
            let mut c = real;
            c[i] = n;
            let said = Classic(c).impossibility().unwrap_or_default();
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
            Classic(c)
                .impossibility()
                .is_some_and(|w| w.contains("promotions"))
        );
    }

    #[test]
    fn tables_list_every_column() {
        let c = Classic([
            4_085_603, 757_163, 1_929, 128_013, 15_172, 25_523, 42, 6, 43,
        ]);
        let text = c.to_string();
        assert!(text.contains("nodes              4085603"), "{text}");
        assert!(text.contains("double checks            6"), "{text}");
        assert_eq!(text.lines().count(), 9);
        let gct = Stats::default().table(Columns::Gct).to_string();
        assert_eq!(gct.lines().count(), 15);
        assert!(gct.contains("double discovered mates   0"), "{gct}");
    }
}
