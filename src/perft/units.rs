//! Perft split into work units, for counting across processes and machines.
//!
//! - [`split`] cuts the tree `ply` plies below the root: each distinct position there
//!   becomes one [`Unit`] (FEN, depth left, multiplicity). Positions reached by several
//!   move orders (transpositions) become one unit whose multiplicity is their number;
//!   positions are compared by their whole placement, side, castling and en passant
//!   fields (never by a hash), the move counters being irrelevant to perft.
//! - A unit is one text line, `FEN;DEPTH;MULTIPLICITY`; its result is one line,
//!   `NODES;FEN;DEPTH;MULTIPLICITY`, where NODES is the unit's perft times its
//!   multiplicity ([`UnitResult`]).
//! - [`Merger`] sums result lines exactly (u128, overflow checked) and refuses malformed,
//!   duplicate or mixed-depth lines, each error naming its source and line number.
//!
//! Pure: reading files and printing belong to the CLI.

use crate::board::Position;
use crate::movegen::legal_moves;
use std::collections::HashMap;
use std::fmt;

/// A subtree to count: `multiplicity` times the perft of `depth` below `fen`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The position.
    pub fen: String,
    /// Plies left to count below it.
    pub depth: u32,
    /// How many move orders from the root reach it.
    pub multiplicity: u64,
}

/// What is wrong with a unit or result line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitError {
    /// Not the right number of `;`-separated fields: (expected, found).
    Fields(usize, usize),
    /// A field that should be a number is not one (or is out of range).
    Number(&'static str, String),
    /// The FEN is refused.
    Fen(String),
    /// The node count is not a multiple of the multiplicity.
    NotMultiple,
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fields(4, n) => write!(
                f,
                "expected NODES;FEN;DEPTH;MULTIPLICITY, found {n} field(s)"
            ),
            Self::Fields(_, n) => write!(f, "expected FEN;DEPTH;MULTIPLICITY, found {n} field(s)"),
            Self::Number(what, s) => write!(f, "bad {what} '{s}'"),
            Self::Fen(e) => write!(f, "invalid FEN: {e}"),
            Self::NotMultiple => f.write_str("node count is not a multiple of the multiplicity"),
        }
    }
}

impl std::error::Error for UnitError {}

impl Unit {
    /// The unit's line: `FEN;DEPTH;MULTIPLICITY`.
    pub fn line(&self) -> String {
        format!("{};{};{}", self.fen, self.depth, self.multiplicity)
    }

    /// Parses a unit line (surrounding whitespace ignored) and checks its FEN.
    pub fn parse(line: &str) -> Result<(Self, Position), UnitError> {
        let fields: Vec<&str> = line.trim().split(';').collect();
        let [fen, depth, multiplicity] = fields[..] else {
            return Err(UnitError::Fields(3, fields.len()));
        };
        let pos = Position::from_fen(fen.trim()).map_err(|e| UnitError::Fen(e.to_string()))?;
        let depth = number(depth, "depth")?;
        let multiplicity = number(multiplicity, "multiplicity")?;
        if multiplicity == 0 {
            return Err(UnitError::Number("multiplicity", "0".into()));
        }
        let unit = Self {
            fen: fen.trim().to_string(),
            depth,
            multiplicity,
        };
        Ok((unit, pos))
    }
}

fn number<T: std::str::FromStr>(s: &str, what: &'static str) -> Result<T, UnitError> {
    s.trim()
        .parse()
        .map_err(|_| UnitError::Number(what, s.trim().to_string()))
}

/// A counted unit: its nodes (perft times multiplicity) and the unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitResult {
    /// The unit's perft times its multiplicity.
    pub nodes: u128,
    /// The unit counted.
    pub unit: Unit,
}

impl UnitResult {
    /// The result for `unit` whose position has `perft` leaf nodes at its depth; `None`
    /// if perft times the multiplicity passes `u128::MAX`.
    pub fn new(unit: Unit, perft: u128) -> Option<Self> {
        Some(Self {
            nodes: perft.checked_mul(u128::from(unit.multiplicity))?,
            unit,
        })
    }

    /// The result's line: `NODES;FEN;DEPTH;MULTIPLICITY`.
    pub fn line(&self) -> String {
        format!("{};{}", self.nodes, self.unit.line())
    }

    /// Parses a result line and checks it.
    pub fn parse(line: &str) -> Result<Self, UnitError> {
        let line = line.trim();
        let Some((nodes, unit)) = line.split_once(';') else {
            return Err(UnitError::Fields(4, 1));
        };
        let nodes: u128 = number(nodes, "node count")?;
        let (unit, _) = Unit::parse(unit).map_err(|e| match e {
            UnitError::Fields(_, n) => UnitError::Fields(4, n + 1),
            e => e,
        })?;
        if !nodes.is_multiple_of(u128::from(unit.multiplicity)) {
            return Err(UnitError::NotMultiple);
        }
        Ok(Self { nodes, unit })
    }
}

/// The units `ply` plies below `pos` (which must be at most `depth`), each with `depth -
/// ply` plies left, transpositions merged, in the order first reached.
pub fn split(pos: &Position, depth: u32, ply: u32) -> Vec<Unit> {
    debug_assert!(ply <= depth);
    let mut units: Vec<Unit> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut visit = |pos: &Position| {
        let fen = pos.to_fen();
        // Placement, side, castling, en passant: everything but the move counters.
        let identity: String = fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
        match index.get(&identity) {
            Some(&i) => units[i].multiplicity += 1,
            None => {
                index.insert(identity, units.len());
                units.push(Unit {
                    fen,
                    depth: depth - ply,
                    multiplicity: 1,
                });
            }
        }
    };
    walk(&mut pos.clone(), ply, &mut visit);
    units
}

/// Calls `visit` on every position `ply` plies below `pos` (once per move order).
fn walk(pos: &mut Position, ply: u32, visit: &mut impl FnMut(&Position)) {
    if ply == 0 {
        visit(pos);
        return;
    }
    for &mv in legal_moves(pos).iter() {
        let undo = pos.make(mv);
        walk(pos, ply - 1, visit);
        pos.unmake(mv, &undo);
    }
}

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
    /// The same unit counted twice.
    Duplicate(Origin, Origin),
    /// Units of different depths: results of different splits.
    MixedDepths(Origin, Origin),
    /// The sum does not fit in 128 bits.
    Overflow(Origin),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed(at, e) => write!(f, "{at}: {e}"),
            Self::Duplicate(at, first) => write!(f, "{at}: unit already counted at {first}"),
            Self::MixedDepths(at, first) => {
                write!(
                    f,
                    "{at}: depth differs from the unit at {first} (another split?)"
                )
            }
            Self::Overflow(at) => write!(f, "{at}: the total overflows 128 bits"),
        }
    }
}

impl std::error::Error for MergeError {}

/// Sums result lines exactly, refusing malformed, duplicate and mixed-depth ones.
#[derive(Default)]
pub struct Merger {
    total: u128,
    units: usize,
    seen: HashMap<String, Origin>,
    first: Option<(u32, Origin)>,
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
        match &self.first {
            Some((depth, first)) if *depth != result.unit.depth => {
                return Err(MergeError::MixedDepths(origin, first.clone()));
            }
            Some(_) => {}
            None => self.first = Some((result.unit.depth, origin.clone())),
        }
        let key = result.unit.line();
        if let Some(first) = self.seen.get(&key) {
            return Err(MergeError::Duplicate(origin, first.clone()));
        }
        self.total = self
            .total
            .checked_add(result.nodes)
            .ok_or_else(|| MergeError::Overflow(origin.clone()))?;
        self.seen.insert(key, origin);
        self.units += 1;
        Ok(())
    }

    /// The sum so far.
    pub fn total(&self) -> u128 {
        self.total
    }

    /// The number of units summed so far.
    pub fn units(&self) -> usize {
        self.units
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perft::perft;

    fn origin(line: usize) -> Origin {
        Origin {
            source: "r.txt".into(),
            line,
        }
    }

    #[test]
    fn split_units_sum_to_the_perft() {
        let pos = Position::startpos();
        let units = split(&pos, 5, 3);
        assert!(units.len() < 8902, "transpositions merged: {}", units.len());
        assert_eq!(units.iter().map(|u| u.multiplicity).sum::<u64>(), 8902);
        let mut merger = Merger::new();
        for (i, unit) in units.into_iter().enumerate() {
            let line = Unit::parse(&unit.line()).expect("own line parses");
            let mut upos = line.1;
            let result = UnitResult::new(line.0, perft(&mut upos, unit.depth)).expect("fits");
            merger.add(&result.line(), origin(i + 1)).expect("valid");
        }
        assert_eq!(merger.total(), 4_865_609);
    }

    #[test]
    fn split_at_zero_and_at_full_depth() {
        let pos = Position::startpos();
        let root = split(&pos, 3, 0);
        assert_eq!(root.len(), 1);
        assert_eq!((root[0].depth, root[0].multiplicity), (3, 1));
        let leaves = split(&pos, 2, 2);
        assert_eq!(leaves.iter().map(|u| u.multiplicity).sum::<u64>(), 400);
        assert!(leaves.iter().all(|u| u.depth == 0));
    }

    #[test]
    fn bad_lines_are_refused_with_their_place() {
        let mut merger = Merger::new();
        let good = format!("40;{START};2;2", START = crate::board::START_FEN);
        merger.add(&good, origin(1)).expect("valid");
        merger.add("", origin(2)).expect("blank lines skipped");
        let dup = merger.add(&good, origin(3)).expect_err("duplicate");
        assert_eq!(dup.to_string(), "r.txt:3: unit already counted at r.txt:1");
        for bad in [
            "12",
            "x;8/8/8/8/8/8/8/8 w - - 0 1;1;1",
            "1;not a fen;1;1",
            "3;rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;1;2",
            "4;rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;2;0",
            "4;rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;2;1;9",
        ] {
            let e = merger.add(bad, origin(7)).expect_err(bad);
            assert!(e.to_string().starts_with("r.txt:7: "), "{e}");
        }
        let mixed = "20;rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;1;1";
        assert!(matches!(
            merger.add(mixed, origin(9)),
            Err(MergeError::MixedDepths(..))
        ));
        assert_eq!((merger.total(), merger.units()), (40, 1));
    }

    #[test]
    fn overflow_is_an_error() {
        let mut merger = Merger::new();
        let fen = crate::board::START_FEN;
        merger
            .add(&format!("{};{fen};1;1", u128::MAX), origin(1))
            .expect("fits");
        let fen2 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        assert!(matches!(
            merger.add(&format!("1;{fen2};1;1"), origin(2)),
            Err(MergeError::Overflow(_))
        ));
    }
}
