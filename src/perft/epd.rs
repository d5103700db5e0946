//! Perft suites in EPD: one position a line, `FEN ;D1 20 ;D2 400 ...`, where `Dk n`
//! is perft(k) of the position. Blank lines and lines starting with `#` are skipped.
//! A suite with no position, a line giving one depth twice, and a depth perft cannot
//! run, are errors: a suite must check something, and say one thing about each count.
//!
//! Parsing only: reading the file belongs to the caller.

use super::MAX_DEPTH;
use crate::board::{FenError, Position};
use std::fmt;

/// One position of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdEntry {
    /// The line number in the file (from 1).
    pub line: usize,
    /// The FEN as written.
    pub fen: String,
    /// The position (Chess960 when the castling field says so).
    pub position: Position,
    /// `(depth, perft count)` pairs, in the order written, each depth once.
    pub counts: Vec<(u32, u128)>,
}

/// Why a suite's text is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EpdError {
    /// The FEN of a line is refused: (line, why).
    Fen(usize, FenError),
    /// A field that is not a count such as `D3 8902`: (line, field).
    Count(usize, String),
    /// One depth given twice on a line: (line, depth, first count, second count).
    TwoCounts(usize, u32, u128, u128),
    /// A depth deeper than perft runs ([`MAX_DEPTH`]): (line, depth).
    TooDeep(usize, u32),
    /// No position at all (empty, blank or only comments).
    NoPositions,
}

impl EpdError {
    /// The line at fault (from 1), if the error has one.
    pub fn line(&self) -> Option<usize> {
        match *self {
            Self::Fen(line, _)
            | Self::Count(line, _)
            | Self::TwoCounts(line, ..)
            | Self::TooDeep(line, _) => Some(line),
            Self::NoPositions => None,
        }
    }

    /// The error as `SOURCE:LINE: problem` (or `SOURCE: problem`), for messages.
    pub fn at(&self, source: &str) -> String {
        match self.line() {
            Some(line) => format!("{source}:{line}: {self}"),
            None => format!("{source}: {self}"),
        }
    }
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fen(_, e) => write!(f, "bad FEN: {e}"),
            Self::Count(_, field) => {
                write!(f, "'{field}' is not a perft count such as 'D3 8902'")
            }
            Self::TwoCounts(_, depth, first, second) => {
                write!(f, "depth {depth} given twice ({first} and {second})")
            }
            Self::TooDeep(_, depth) => write!(
                f,
                "depth {depth} is deeper than perft runs (at most {MAX_DEPTH})"
            ),
            Self::NoPositions => {
                f.write_str("no positions (the file is empty or holds only comments)")
            }
        }
    }
}

impl std::error::Error for EpdError {}

/// The entries of a suite's text (at least one).
pub fn parse_epd(text: &str) -> Result<Vec<EpdEntry>, EpdError> {
    let mut entries = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut fields = trimmed.split(';');
        let fen = fields.next().unwrap_or_default().trim().to_string();
        let position = Position::from_fen(&fen).map_err(|e| EpdError::Fen(line, e))?;
        let mut counts: Vec<(u32, u128)> = Vec::new();
        for field in fields.map(str::trim).filter(|f| !f.is_empty()) {
            let (depth, count) =
                parse_count(field).ok_or_else(|| EpdError::Count(line, field.to_string()))?;
            if depth > MAX_DEPTH {
                return Err(EpdError::TooDeep(line, depth));
            }
            if let Some(&(_, first)) = counts.iter().find(|c| c.0 == depth) {
                return Err(EpdError::TwoCounts(line, depth, first, count));
            }
            counts.push((depth, count));
        }
        entries.push(EpdEntry {
            line,
            fen,
            position,
            counts,
        });
    }
    if entries.is_empty() {
        return Err(EpdError::NoPositions);
    }
    Ok(entries)
}

/// `D3 8902` as `(3, 8902)`; the depth is at least 1.
fn parse_count(field: &str) -> Option<(u32, u128)> {
    let mut words = field.split_whitespace();
    let depth = digits(words.next()?.strip_prefix(['D', 'd'])?)?;
    let count = digits(words.next()?)?;
    (depth >= 1 && words.next().is_none()).then_some((depth, count))
}

/// A number written in decimal digits only (no sign).
fn digits<T: std::str::FromStr>(s: &str) -> Option<T> {
    s.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| s.parse().ok())
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_suite() {
        let text = "# a comment\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\r\n\
                    \n\
                    bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ; D1 21 ;\n\
                    8/8/8/3k4/8/8/8/3K4 w - - 0 1 ;D24 98801146113350318118\n";
        let suite = parse_epd(text).expect("valid suite");
        assert_eq!(suite.len(), 3);
        assert_eq!(suite[0].line, 2);
        assert_eq!(suite[0].counts, [(1, 20), (2, 400)]);
        assert_eq!(suite[1].line, 4);
        assert_eq!(suite[1].counts, [(1, 21)]);
        assert!(suite[1].position.is_chess960());
        assert_eq!(suite[2].counts, [(24, 98_801_146_113_350_318_118)]);
    }

    #[test]
    fn names_the_bad_line() {
        let start = crate::board::START_FEN;
        for (text, problem) in [
            (format!("{start} ;D1 20\nnot a fen ;D1 3\n"), "bad FEN"),
            (format!("{start} ;D1 twenty\n"), "'D1 twenty'"),
            (format!("{start} ;X1 20\n"), "'X1 20'"),
            (format!("{start} ;D0 1\n"), "'D0 1'"),
            (format!("{start} ;D1 20 30\n"), "'D1 20 30'"),
            (format!("{start} ;D1 +20\n"), "'D1 +20'"),
            (format!("{start} ;D1 -20\n"), "'D1 -20'"),
            (
                format!("{start} ;D1 {}0\n", u128::MAX),
                "is not a perft count",
            ),
        ] {
            let e = parse_epd(&text).expect_err("refused");
            assert!(e.to_string().contains(problem), "{e}");
        }
        let e = parse_epd(&format!("{start} ;D1 20\nnot a fen\n")).expect_err("refused");
        assert_eq!(e.line(), Some(2));
        assert!(
            e.at("s.epd").starts_with("s.epd:2: bad FEN"),
            "{}",
            e.at("s.epd")
        );
    }

    #[test]
    fn one_depth_twice_is_refused_even_when_equal() {
        let start = crate::board::START_FEN;
        for (counts, second) in [(";D1 20 ;D1 21", 21), (";D1 20 ;D2 400 ;d01 20", 20)] {
            let e = parse_epd(&format!("{start} ;D3 8902\n{start} {counts}\n"));
            assert_eq!(e, Err(EpdError::TwoCounts(2, 1, 20, second)));
        }
        let e = EpdError::TwoCounts(2, 1, 20, 21).at("s.epd");
        assert_eq!(e, "s.epd:2: depth 1 given twice (20 and 21)");
    }

    /// A depth perft refuses is refused with its line, not left to fail (or be
    /// skipped) when the suite runs.
    #[test]
    fn a_depth_perft_cannot_run_is_refused() {
        let kings = "7k/5Q2/6K1/8/8/8/8/8 b - - ;D1 0";
        let e = parse_epd(&format!(
            "{kings} ;D256 0
"
        ));
        assert_eq!(e, Err(EpdError::TooDeep(1, 256)));
        assert_eq!(
            EpdError::TooDeep(1, 256).at("s.epd"),
            "s.epd:1: depth 256 is deeper than perft runs (at most 255)"
        );
        let suite = parse_epd(&format!(
            "{kings} ;D255 0
"
        ))
        .expect("the deepest depth");
        assert_eq!(suite[0].counts, [(1, 0), (255, 0)]);
    }

    #[test]
    fn a_suite_of_nothing_is_refused() {
        for text in ["", "\n\n", " \r\n\t\n", "# only\n  # comments\n"] {
            assert_eq!(parse_epd(text), Err(EpdError::NoPositions), "{text:?}");
        }
        assert_eq!(
            EpdError::NoPositions.at("s.epd"),
            "s.epd: no positions (the file is empty or holds only comments)"
        );
    }
}
