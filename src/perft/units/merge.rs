//! Merging unit results: the exact total of one complete split, or the reason there is
//! none (see the [parent module](super) for the line formats).

use super::{Split, UnitError, UnitResult, identity};
use crate::perft::stats::Classic;
use std::collections::HashMap;
use std::fmt;

/// Where a line came from, for error messages: a source name and a 1-based line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The file (or other source) name.
    pub source: String,
    /// The line number, from 1.
    pub line: usize,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.source, self.line)
    }
}

/// Why a merge failed, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// A malformed result line.
    Malformed(Origin, UnitError),
    /// A result of another split than the first line's (given with its origin).
    OtherSplit(Origin, Split, Origin),
    /// The same unit counted twice: where again, where first.
    Duplicate(Origin, Origin),
    /// The sum does not fit in 128 bits.
    Overflow(Origin),
    /// A result with statistics among results without, or the reverse: where, and the
    /// first line (whose kind the merge follows).
    MixedStats(Origin, Origin),
    /// No result line at all.
    Nothing,
    /// Units of the split with no result: how many, and the first few places.
    Missing(Split, u64, Vec<u64>),
}

/// How many missing places an error lists.
const MISSING_SHOWN: usize = 10;

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed(at, e) => write!(f, "{at}: {e}"),
            Self::OtherSplit(at, first, first_at) => write!(
                f,
                "{at}: not a result of the split of {first_at} ({first}, {} units): \
                 results of different splits",
                first.units
            ),
            Self::Duplicate(at, first) => write!(f, "{at}: unit already counted at {first}"),
            Self::Overflow(at) => write!(f, "{at}: the total overflows 128 bits"),
            Self::MixedStats(at, first) => write!(
                f,
                "{at}: results with and without statistics (--stats) mixed; {first} decides \
                 the kind: count every unit the same way"
            ),
            Self::Nothing => f.write_str("nothing to merge: no result line"),
            Self::Missing(split, count, first) => {
                let places: Vec<String> = first.iter().map(u64::to_string).collect();
                let more = if *count > first.len() as u64 {
                    ", ..."
                } else {
                    ""
                };
                write!(
                    f,
                    "missing {count} of the {} units of {split}: units {}{more} (their line \
                     numbers in the --split output)",
                    split.units,
                    places.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for MergeError {}

/// The outcome of a complete merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The exact total.
    pub total: u128,
    /// The exact sum of the breakdowns, if the results carry statistics.
    pub stats: Option<Classic>,
    /// The split merged.
    pub split: Split,
}

/// Sums result lines exactly, refusing malformed, foreign and duplicate ones.
#[derive(Default)]
pub struct Merger {
    total: u128,
    stats: Option<Classic>,
    first: Option<(Split, Origin)>,
    places: HashMap<u64, Origin>,
    positions: HashMap<String, Origin>,
}

impl Merger {
    /// An empty merge.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one line from `origin`; blank lines are skipped.
    pub fn add(&mut self, line: &str, origin: Origin) -> Result<(), MergeError> {
        if line.trim().is_empty() {
            return Ok(());
        }
        let result =
            UnitResult::parse(line).map_err(|e| MergeError::Malformed(origin.clone(), e))?;
        let unit = &result.unit;
        match &self.first {
            Some((split, first)) if *split != unit.split => {
                return Err(MergeError::OtherSplit(origin, *split, first.clone()));
            }
            Some(_) => {}
            None => {
                self.first = Some((unit.split, origin.clone()));
                self.stats = result.stats.map(|_| Classic::default());
            }
        }
        if self.stats.is_some() != result.stats.is_some()
            && let Some((_, first)) = &self.first
        {
            return Err(MergeError::MixedStats(origin, first.clone()));
        }
        if let Some(first) = self.places.get(&unit.index) {
            return Err(MergeError::Duplicate(origin, first.clone()));
        }
        // Distinct places hold distinct positions in a real split: a clash is a forgery.
        let position = identity(&unit.fen);
        if let Some(first) = self.positions.get(&position) {
            return Err(MergeError::Duplicate(origin, first.clone()));
        }
        let overflow = || MergeError::Overflow(origin.clone());
        let total = self.total.checked_add(result.nodes).ok_or_else(overflow)?;
        if let (Some(sum), Some(stats)) = (&mut self.stats, &result.stats) {
            *sum = sum.checked_add(stats).ok_or_else(overflow)?;
        }
        self.total = total;
        self.places.insert(unit.index, origin.clone());
        self.positions.insert(position, origin);
        Ok(())
    }

    /// The number of units summed so far.
    pub fn units(&self) -> usize {
        self.places.len()
    }

    /// The total, once every unit of the split has been added.
    pub fn finish(&self) -> Result<Merged, MergeError> {
        let Some((split, _)) = &self.first else {
            return Err(MergeError::Nothing);
        };
        let count = split.units - self.places.len() as u64;
        if count > 0 {
            // At most `places.len() + MISSING_SHOWN` steps, however many units there are.
            let first = (1..=split.units)
                .filter(|i| !self.places.contains_key(i))
                .take(MISSING_SHOWN)
                .collect();
            return Err(MergeError::Missing(*split, count, first));
        }
        Ok(Merged {
            total: self.total,
            stats: self.stats,
            split: *split,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::Unit;
    use super::*;

    const SPLIT: Split = Split {
        digest: 0x0123_4567_89ab_cdef,
        depth: 3,
        ply: 1,
        units: 3,
    };
    const FENS: [&str; 3] = [
        "4k3/8/8/8/8/8/4P3/3K4 b - - 1 1",
        "4k3/8/8/8/8/8/4P3/5K2 b - - 1 1",
        "4k3/8/8/8/8/4P3/8/4K3 b - - 0 1",
    ];

    fn result(index: u64, fen: &str, multiplicity: u64, perft: u128, split: Split) -> String {
        let unit = Unit {
            fen: fen.into(),
            depth: split.depth - split.ply,
            multiplicity,
            split,
            index,
        };
        UnitResult::new(unit, perft).expect("fits").line()
    }

    fn at(line: usize) -> Origin {
        Origin {
            source: "r.txt".into(),
            line,
        }
    }

    fn merger_with_first() -> Merger {
        let mut merger = Merger::new();
        merger
            .add(&result(1, FENS[0], 1, 10, SPLIT), at(1))
            .expect("valid");
        merger
    }

    #[test]
    fn complete_merge_in_any_order() {
        let mut merger = Merger::new();
        for (line, i) in [3, 1, 2].into_iter().enumerate() {
            let text = result(i, FENS[i as usize - 1], i, u128::from(i) * 7, SPLIT);
            merger.add(&text, at(line + 1)).expect("valid");
            merger
                .add(" \r", at(line + 10))
                .expect("blank lines skipped");
        }
        let merged = merger.finish().expect("complete");
        assert_eq!((merged.total, merged.split), (7 * (1 + 4 + 9), SPLIT));
    }

    #[test]
    fn duplicates_are_refused() {
        let mut merger = merger_with_first();
        let again = merger.add(&result(1, FENS[0], 1, 10, SPLIT), at(2));
        assert_eq!(
            again.map_err(|e| e.to_string()),
            Err("r.txt:2: unit already counted at r.txt:1".into())
        );
        // Another place for the same position: only a forged line can say that.
        let forged = merger.add(&result(2, FENS[0], 1, 10, SPLIT), at(3));
        assert_eq!(forged, Err(MergeError::Duplicate(at(3), at(1))));
        assert_eq!(merger.units(), 1);
    }

    #[test]
    fn other_splits_are_refused() {
        let mut merger = merger_with_first();
        for other in [
            Split { digest: 1, ..SPLIT },
            Split { units: 4, ..SPLIT },
            Split {
                depth: 4,
                ply: 2,
                ..SPLIT
            },
        ] {
            let e = merger.add(&result(2, FENS[1], 1, 10, other), at(5));
            assert_eq!(e, Err(MergeError::OtherSplit(at(5), SPLIT, at(1))));
        }
        let text = MergeError::OtherSplit(at(5), SPLIT, at(1)).to_string();
        assert!(
            text.starts_with("r.txt:5: not a result of the split of r.txt:1"),
            "{text}"
        );
    }

    #[test]
    fn nothing_and_missing_units_are_refused() {
        assert_eq!(Merger::new().finish(), Err(MergeError::Nothing));
        let mut blank = Merger::new();
        blank.add("   ", at(1)).expect("skipped");
        assert_eq!(blank.finish(), Err(MergeError::Nothing));
        let mut merger = merger_with_first();
        merger
            .add(&result(3, FENS[2], 1, 10, SPLIT), at(2))
            .expect("valid");
        assert_eq!(merger.finish(), Err(MergeError::Missing(SPLIT, 1, vec![2])));

        // A split of 2^64 - 1 units: counted and listed without walking them all.
        let huge = Split {
            units: u64::MAX,
            ..SPLIT
        };
        let mut merger = Merger::new();
        merger
            .add(&result(2, FENS[0], 1, 10, huge), at(1))
            .expect("valid");
        let e = merger.finish().expect_err("incomplete");
        let expected: Vec<u64> = [1].into_iter().chain(3..12).collect();
        assert_eq!(e, MergeError::Missing(huge, u64::MAX - 1, expected));
        assert!(
            e.to_string()
                .contains(": units 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, ..."),
            "{e}"
        );
    }

    #[test]
    fn overflow_and_malformed_lines_are_refused() {
        let mut merger = Merger::new();
        let half = u128::MAX / 2 + 1;
        merger
            .add(&result(1, FENS[0], 1, half, SPLIT), at(1))
            .expect("fits");
        let e = merger.add(&result(2, FENS[1], 1, half, SPLIT), at(2));
        assert_eq!(e, Err(MergeError::Overflow(at(2))));
        let e = merger.add("not a result", at(3)).expect_err("malformed");
        assert!(
            e.to_string().starts_with("r.txt:3: expected NODES;FEN;"),
            "{e}"
        );
        assert_eq!(merger.units(), 1);
    }
}
