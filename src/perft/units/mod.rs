//! Perft split into work units, for counting across processes and machines.
//!
//! - [`split`] cuts the tree `ply` plies below the root: each distinct position there
//!   becomes one [`Unit`] (FEN, depth left, multiplicity). Positions reached by several
//!   move orders (transpositions) become one unit whose multiplicity is their number;
//!   positions are compared by their whole placement, side, castling and en passant
//!   fields (never by a hash), the move counters being irrelevant to perft.
//! - Every unit names its [`Split`] (a digest of the root position, the root depth and
//!   the ply, with the depth, the ply and the number of units written out) and its place
//!   in it (1 to that number), and ends with a check digest over all of that and its own
//!   position, depth and multiplicity, so a unit line altered by hand or by a bad copy
//!   is refused.
//! - A unit is one text line,
//!   `FEN;DEPTH;MULTIPLICITY;split DIGEST depth D ply P;unit I of N;check DIGEST`; its
//!   result is the same line after `NODES;`, where NODES is the unit's perft times its
//!   multiplicity ([`UnitResult`]); a result with statistics (`perft --unit LINE
//!   --stats`) starts `stats N1 N2 ... N9;` instead: the nine counts of the breakdown
//!   ([`LABELS`](crate::perft::stats::LABELS) order, nodes first: the classic
//!   columns), each times the multiplicity.
//! - [`Merger`] sums result lines exactly (u128, overflow checked), breakdowns too. It
//!   refuses malformed lines, results of another split, a unit counted twice (however
//!   its line is spelt), results with and without statistics in one merge, and, at the
//!   end, missing units and an empty merge; each error names where it is.
//!
//! The digests are 64-bit FNV-1a hashes (with MurmurHash3's finaliser) of the
//! normalised fields: they catch mistakes, not forgery. Pure: files belong to the CLI.

use crate::board::Position;
use crate::movegen::legal_moves;
use crate::perft::stats::{Classic, Stats};
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;

mod merge;

pub use merge::{MergeError, Merged, Merger, Origin};

/// Which split a unit belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Split {
    /// Digest of the root position (without move counters), the depth and the ply.
    pub digest: u64,
    /// The root depth.
    pub depth: u32,
    /// How many plies below the root the tree is cut.
    pub ply: u32,
    /// How many units the split has.
    pub units: u64,
}

impl fmt::Display for Split {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "split {:016x} depth {} ply {}",
            self.digest, self.depth, self.ply
        )
    }
}

/// A subtree to count: `multiplicity` times the perft of `depth` below `fen`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The position, as FEN (normalised: as Rookling writes it).
    pub fen: String,
    /// Plies left to count below it.
    pub depth: u32,
    /// How many move orders from the root reach it.
    pub multiplicity: u64,
    /// The split it belongs to.
    pub split: Split,
    /// Its place in the split, from 1 (its line number in the split's output).
    pub index: u64,
}

/// What is wrong with a unit or result line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitError {
    /// Not the right number of `;`-separated fields: (expected, found).
    Fields(usize, usize),
    /// A field that should be a number is not one (or is out of range).
    Number(&'static str, String),
    /// A field that is not `split ...`, `unit ...` or `check ...` as it should be.
    Field(&'static str, String),
    /// The FEN is refused.
    Fen(String),
    /// The unit's depth is not the split's depth minus its ply.
    Depth,
    /// The place is not within 1 to the split's number of units.
    Index,
    /// The check digest does not match the line: it was altered.
    Check,
    /// The node count is not a multiple of the multiplicity.
    NotMultiple,
    /// Multiplicity times perft does not fit in 128 bits.
    Overflow,
    /// The split's ply is deeper than its depth.
    PlyTooDeep,
    /// Statistics no perft can have (more captures than nodes, ...): why.
    Impossible(String),
}

impl fmt::Display for UnitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fields(n, found) => {
                let (shape, or) = if *n == RESULT_FIELDS {
                    ("NODES;", " (or 'stats N1 ... N9' for NODES)")
                } else {
                    ("", "")
                };
                write!(
                    f,
                    "expected {shape}FEN;DEPTH;MULTIPLICITY;split ...;unit ...;check ...{or}, \
                     found {found} field(s)"
                )
            }
            Self::Number(what, s) => write!(f, "bad {what} '{s}'"),
            Self::Field(what, s) => write!(f, "expected '{what}', found '{s}'"),
            Self::Fen(e) => write!(f, "invalid FEN: {e}"),
            Self::Depth => f.write_str("the unit's depth is not the split's depth minus its ply"),
            Self::Index => f.write_str("the unit's place is outside its split"),
            Self::Check => f.write_str("check digest mismatch: the line was altered"),
            Self::NotMultiple => f.write_str("a count is not a multiple of the multiplicity"),
            Self::Overflow => f.write_str("the node count overflows 128 bits"),
            Self::PlyTooDeep => f.write_str("the split ply is deeper than the depth"),
            Self::Impossible(why) => write!(f, "impossible statistics: {why}"),
        }
    }
}

impl std::error::Error for UnitError {}

const UNIT_FIELDS: usize = 6;
const RESULT_FIELDS: usize = 7;

impl Unit {
    /// The unit's line: `FEN;DEPTH;MULTIPLICITY;split ...;unit I of N;check DIGEST`.
    pub fn line(&self) -> String {
        format!(
            "{};{};{};{};unit {} of {};check {:016x}",
            self.fen,
            self.depth,
            self.multiplicity,
            self.split,
            self.index,
            self.split.units,
            self.check()
        )
    }

    /// The digest over everything the unit says but the move counters.
    pub fn check(&self) -> u64 {
        let s = &self.split;
        digest(&format!(
            "{:016x}\n{}\n{}\n{}\n{}\n{}\n{}\n{}",
            s.digest,
            s.depth,
            s.ply,
            s.units,
            self.index,
            identity(&self.fen),
            self.depth,
            self.multiplicity
        ))
    }

    /// Parses a unit line (whitespace around fields ignored), checks it and normalises
    /// its FEN.
    pub fn parse(line: &str) -> Result<(Self, Position), UnitError> {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let [fen, depth, multiplicity, split, place, check] = fields[..] else {
            return Err(UnitError::Fields(UNIT_FIELDS, fields.len()));
        };
        let pos = Position::from_fen(fen).map_err(|e| UnitError::Fen(e.to_string()))?;
        let depth = number(depth, "depth")?;
        let multiplicity = number(multiplicity, "multiplicity")?;
        if multiplicity == 0 {
            return Err(UnitError::Number("multiplicity", "0".into()));
        }
        let split = parse_split(split)?;
        let [index, units] = words(place, ["unit", "", "of", ""], "unit I of N")?;
        let index = number(index, "unit number")?;
        let units = number(units, "number of units")?;
        let [check] = words(check, ["check", ""], "check DIGEST")?;
        let check = hex(check, "check digest")?;
        let unit = Self {
            fen: pos.to_fen(),
            depth,
            multiplicity,
            split: Split { units, ..split },
            index,
        };
        if split.depth.checked_sub(split.ply) != Some(depth) {
            return Err(UnitError::Depth);
        }
        if !(1..=units).contains(&index) {
            return Err(UnitError::Index);
        }
        if unit.check() != check {
            return Err(UnitError::Check);
        }
        Ok((unit, pos))
    }
}

/// `split DIGEST depth D ply P` (the number of units comes from the next field).
fn parse_split(field: &str) -> Result<Split, UnitError> {
    let shape = "split DIGEST depth D ply P";
    let [digest, depth, ply] = words(field, ["split", "", "depth", "", "ply", ""], shape)?;
    Ok(Split {
        digest: hex(digest, "split digest")?,
        depth: number(depth, "split depth")?,
        ply: number(ply, "split ply")?,
        units: 0,
    })
}

/// The words of `field` where `shape` has an empty string; the others must match.
fn words<'a, const N: usize, const K: usize>(
    field: &'a str,
    shape: [&str; N],
    what: &'static str,
) -> Result<[&'a str; K], UnitError> {
    let bad = || UnitError::Field(what, field.to_string());
    let found: Vec<&str> = field.split_whitespace().collect();
    if found.len() != N {
        return Err(bad());
    }
    let mut values = Vec::with_capacity(K);
    for (word, expected) in found.into_iter().zip(shape) {
        if expected.is_empty() {
            values.push(word);
        } else if word != expected {
            return Err(bad());
        }
    }
    values.try_into().map_err(|_| bad())
}

fn number<T: std::str::FromStr>(s: &str, what: &'static str) -> Result<T, UnitError> {
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits
        .then(|| s.parse().ok())
        .flatten()
        .ok_or_else(|| UnitError::Number(what, s.to_string()))
}

fn hex(s: &str, what: &'static str) -> Result<u64, UnitError> {
    let valid = s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit());
    valid
        .then(|| u64::from_str_radix(s, 16).ok())
        .flatten()
        .ok_or_else(|| UnitError::Number(what, s.to_string()))
}

/// A FEN's placement, side, castling and en passant fields: what perft depends on.
fn identity(fen: &str) -> String {
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// 64-bit FNV-1a of `text`, finished with MurmurHash3's `fmix64` so that every input bit
/// reaches every output bit. Fixed forever: files split by one version merge in another.
fn digest(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in text.as_bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// A counted unit: its nodes (perft times multiplicity), its breakdown if counted with
/// statistics (each count times multiplicity), and the unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitResult {
    /// The unit's perft times its multiplicity.
    pub nodes: u128,
    /// The unit's statistics times its multiplicity (`nodes` is their first count).
    pub stats: Option<Classic>,
    /// The unit counted.
    pub unit: Unit,
}

impl UnitResult {
    /// The result for `unit` whose position has `perft` leaf nodes at its depth.
    pub fn new(unit: Unit, perft: u128) -> Result<Self, UnitError> {
        let nodes = perft
            .checked_mul(u128::from(unit.multiplicity))
            .ok_or(UnitError::Overflow)?;
        Ok(Self {
            nodes,
            stats: None,
            unit,
        })
    }

    /// The result for `unit` whose position has the statistics `stats` at its depth.
    pub fn with_stats(unit: Unit, stats: &Stats) -> Result<Self, UnitError> {
        let stats = Classic::from(stats)
            .checked_mul(u128::from(unit.multiplicity))
            .ok_or(UnitError::Overflow)?;
        Ok(Self {
            nodes: stats.nodes(),
            stats: Some(stats),
            unit,
        })
    }

    /// The result's line: `NODES;` (or `stats N1 ... N9;`) then the unit's line.
    pub fn line(&self) -> String {
        match &self.stats {
            None => format!("{};{}", self.nodes, self.unit.line()),
            Some(stats) => {
                let counts: Vec<String> = stats.0.iter().map(u128::to_string).collect();
                format!("stats {};{}", counts.join(" "), self.unit.line())
            }
        }
    }

    /// Parses a result line and checks it.
    pub fn parse(line: &str) -> Result<Self, UnitError> {
        let Some((counts, unit)) = line.split_once(';') else {
            return Err(UnitError::Fields(RESULT_FIELDS, 1));
        };
        let stats = match counts.trim().strip_prefix("stats ") {
            Some(list) => Some(parse_stats(list)?),
            None => None,
        };
        let nodes: u128 = match stats {
            Some(stats) => stats.nodes(),
            None => number(counts.trim(), "node count")?,
        };
        let (unit, _) = Unit::parse(unit).map_err(|e| match e {
            UnitError::Fields(_, n) => UnitError::Fields(RESULT_FIELDS, n + 1),
            e => e,
        })?;
        if let Some(why) = stats.as_ref().and_then(Classic::impossibility) {
            return Err(UnitError::Impossible(why));
        }
        let multiple = |n: u128| n.is_multiple_of(u128::from(unit.multiplicity));
        let all = stats.map_or(multiple(nodes), |s| s.0.into_iter().all(multiple));
        if !all {
            return Err(UnitError::NotMultiple);
        }
        Ok(Self { nodes, stats, unit })
    }
}

/// The nine counts of `stats N1 ... N9` (after `stats `).
fn parse_stats(list: &str) -> Result<Classic, UnitError> {
    let words: Vec<&str> = list.split_whitespace().collect();
    let counts: [&str; 9] = words
        .try_into()
        .map_err(|_| UnitError::Field("stats and nine counts", list.trim().to_string()))?;
    let mut out = [0u128; 9];
    for (o, word) in out.iter_mut().zip(counts) {
        *o = number(word, "count")?;
    }
    Ok(Classic(out))
}

/// The units `ply` plies below `pos`, each with `depth - ply` plies left, transpositions
/// merged, in the order first reached.
pub fn split(pos: &Position, depth: u32, ply: u32) -> Result<Vec<Unit>, UnitError> {
    if ply > depth {
        return Err(UnitError::PlyTooDeep);
    }
    let mut found: Vec<(String, u64)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut visit = |pos: &Position| {
        let fen = pos.to_fen();
        match index.entry(identity(&fen)) {
            Entry::Occupied(i) => found[*i.get()].1 += 1,
            Entry::Vacant(v) => {
                v.insert(found.len());
                found.push((fen, 1));
            }
        }
    };
    walk(&mut pos.clone(), ply, &mut visit);
    let split = Split {
        digest: digest(&format!("{}\n{depth}\n{ply}", identity(&pos.to_fen()))),
        depth,
        ply,
        units: found.len() as u64,
    };
    Ok(found
        .into_iter()
        .zip(1..)
        .map(|((fen, multiplicity), index)| Unit {
            fen,
            depth: depth - ply,
            multiplicity,
            split,
            index,
        })
        .collect())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::START_FEN;
    use crate::perft::perft;

    fn start_split(depth: u32, ply: u32) -> Vec<Unit> {
        split(&Position::startpos(), depth, ply).expect("ply within depth")
    }

    #[test]
    fn split_units_sum_to_the_perft() {
        let units = start_split(5, 3);
        assert!(units.len() < 8902, "transpositions merged: {}", units.len());
        assert_eq!(units.iter().map(|u| u.multiplicity).sum::<u64>(), 8902);
        let mut merger = Merger::new();
        for (i, unit) in units.iter().enumerate() {
            let (parsed, pos) = Unit::parse(&unit.line()).expect("own line parses");
            assert_eq!(&parsed, unit);
            assert_eq!(parsed.index, i as u64 + 1);
            let nodes = perft(&pos, unit.depth);
            let result = UnitResult::new(parsed, nodes).expect("fits");
            let origin = Origin {
                source: "r".into(),
                line: i + 1,
            };
            merger.add(&result.line(), origin).expect("valid");
        }
        assert_eq!(merger.finish().expect("complete").total, 4_865_609);
    }

    #[test]
    fn split_at_zero_and_at_full_depth() {
        let root = start_split(3, 0);
        assert_eq!(root.len(), 1);
        assert_eq!((root[0].depth, root[0].multiplicity), (3, 1));
        let leaves = start_split(2, 2);
        assert_eq!(leaves.iter().map(|u| u.multiplicity).sum::<u64>(), 400);
        assert!(leaves.iter().all(|u| u.depth == 0 && u.split.units == 400));
        let pos = Position::startpos();
        assert_eq!(split(&pos, 2, 3), Err(UnitError::PlyTooDeep));
    }

    /// The digests are part of the file format: a change would refuse older splits.
    #[test]
    fn digests_are_pinned() {
        let unit = &start_split(3, 1)[0];
        assert_eq!(unit.split.digest, 0x150a_1a65_3f91_fdee);
        assert_eq!(
            unit.line(),
            "rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/R1BQKBNR b KQkq - 1 1;2;1;\
             split 150a1a653f91fdee depth 3 ply 1;unit 1 of 20;check dc8d089c16ae0cc8"
        );
        // The move counters of the root do not change the split; anything else does.
        let counters = Position::from_fen(&START_FEN.replace(" 0 1", " 9 30")).expect("FEN");
        let digest = |pos: &Position, depth, ply| split(pos, depth, ply).expect("ok")[0].split;
        let start = Position::startpos();
        assert_eq!(digest(&counters, 3, 1).digest, unit.split.digest);
        assert_ne!(digest(&start, 4, 1).digest, unit.split.digest);
        assert_ne!(digest(&start, 3, 2).digest, unit.split.digest);
        let e4 = Position::from_fen(&START_FEN.replace(" w ", " b ")).expect("FEN");
        assert_ne!(digest(&e4, 3, 1).digest, unit.split.digest);
    }

    #[test]
    fn other_spellings_parse_to_the_same_unit() {
        let unit = &start_split(4, 2)[7];
        let line = unit.line();
        let fen_no_counters = line.replacen(" 0 2;", ";", 1);
        assert_ne!(fen_no_counters, line);
        let upper_hex = {
            let (head, check) = line.rsplit_once(' ').expect("check digest");
            format!("{head} {}", check.to_uppercase())
        };
        for spelling in [
            format!("  {line}\r"),
            line.replace(';', " ; "),
            line.replace(' ', "  "),
            upper_hex,
            fen_no_counters,
            line.replacen(" 0 2;", " 37 90;", 1),
        ] {
            let (parsed, _) = Unit::parse(&spelling).unwrap_or_else(|e| panic!("{spelling}: {e}"));
            assert_eq!(parsed.check(), unit.check(), "{spelling}");
            assert_eq!((parsed.index, parsed.split), (unit.index, unit.split));
        }
    }

    #[test]
    fn altered_lines_are_refused() {
        let unit = &start_split(4, 2)[7];
        let line = unit.line();
        let field = |i: usize, value: &str| {
            let mut fields: Vec<&str> = line.split(';').collect();
            fields[i] = value;
            fields.join(";")
        };
        let s = &unit.split;
        let split_field =
            |d: u64, depth: u32, ply: u32| format!("split {d:016x} depth {depth} ply {ply}");
        for (altered, error) in [
            (field(2, "2"), UnitError::Check),
            (field(4, "unit 9 of 400"), UnitError::Check),
            (
                field(4, &format!("unit 8 of {}", s.units + 1)),
                UnitError::Check,
            ),
            (field(3, &split_field(s.digest ^ 1, 4, 2)), UnitError::Check),
            (field(0, START_FEN), UnitError::Check),
            (field(4, "unit 0 of 400"), UnitError::Index),
            (field(4, "unit 401 of 400"), UnitError::Index),
            (field(1, "3"), UnitError::Depth),
            (field(3, &split_field(s.digest, 2, 4)), UnitError::Depth),
            (field(2, "0"), UnitError::Number("multiplicity", "0".into())),
            (
                field(2, "+1"),
                UnitError::Number("multiplicity", "+1".into()),
            ),
            (
                field(2, "18446744073709551616"),
                UnitError::Number("multiplicity", "18446744073709551616".into()),
            ),
            (field(1, "-2"), UnitError::Number("depth", "-2".into())),
            (
                field(5, "check 12"),
                UnitError::Number("check digest", "12".into()),
            ),
            (
                field(5, "sum 0123456789abcdef"),
                UnitError::Field("check DIGEST", "sum 0123456789abcdef".into()),
            ),
            (
                field(4, "unit 8/400"),
                UnitError::Field("unit I of N", "unit 8/400".into()),
            ),
            (format!("{line};"), UnitError::Fields(UNIT_FIELDS, 7)),
            (
                line.split(';').take(3).collect::<Vec<_>>().join(";"),
                UnitError::Fields(UNIT_FIELDS, 3),
            ),
        ] {
            assert_eq!(Unit::parse(&altered).map(|u| u.0), Err(error), "{altered}");
        }
        assert!(matches!(
            Unit::parse(&field(0, "8/8/8/8/8/8/8/8 w - -")),
            Err(UnitError::Fen(_))
        ));
    }

    #[test]
    fn result_lines_are_checked() {
        let unit = start_split(4, 2)[7].clone();
        let good = UnitResult::new(unit.clone(), 20).expect("fits");
        assert_eq!(UnitResult::parse(&good.line()), Ok(good.clone()));
        let doubled = Unit {
            multiplicity: 2,
            ..unit.clone()
        };
        let odd = format!("41;{}", doubled.line());
        assert_eq!(UnitResult::parse(&odd), Err(UnitError::NotMultiple));
        let huge = format!("{}0;{}", u128::MAX, unit.line());
        assert!(matches!(
            UnitResult::parse(&huge),
            Err(UnitError::Number("node count", _))
        ));
        assert_eq!(
            UnitResult::parse("12"),
            Err(UnitError::Fields(RESULT_FIELDS, 1))
        );
        assert_eq!(
            UnitResult::new(doubled, u128::MAX),
            Err(UnitError::Overflow)
        );
        let max = Unit {
            multiplicity: u64::MAX,
            ..unit
        };
        let most = u128::from(u64::MAX) * u128::from(u64::MAX);
        assert_eq!(
            UnitResult::new(max, u128::from(u64::MAX)).map(|r| r.nodes),
            Ok(most)
        );
    }
}
