//! Perft suites in EPD: one position a line, `FEN ;D1 20 ;D2 400 ...`, where `Dk n`
//! is perft(k) of the position. Blank lines and lines starting with `#` are skipped.
//!
//! Parsing only: reading the file belongs to the caller.

use crate::board::Position;
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
    /// `(depth, perft count)` pairs, in the order written.
    pub counts: Vec<(u32, u64)>,
}

/// A line that is not `FEN ;Dk n ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdError {
    /// The line number (from 1).
    pub line: usize,
    /// What is wrong with it.
    pub problem: String,
}

impl fmt::Display for EpdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for EpdError {}

/// The entries of a suite's text.
pub fn parse_epd(text: &str) -> Result<Vec<EpdEntry>, EpdError> {
    let mut entries = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let error = |problem: String| EpdError { line, problem };
        let mut fields = trimmed.split(';');
        let fen = fields.next().unwrap_or_default().trim().to_string();
        let position = Position::from_fen(&fen).map_err(|e| error(format!("bad FEN: {e}")))?;
        let mut counts = Vec::new();
        for field in fields {
            let field = field.trim();
            if field.is_empty() {
                continue;
            }
            counts.push(parse_count(field).ok_or_else(|| {
                error(format!("'{field}' is not a perft count such as 'D3 8902'"))
            })?);
        }
        entries.push(EpdEntry {
            line,
            fen,
            position,
            counts,
        });
    }
    Ok(entries)
}

/// `D3 8902` as `(3, 8902)`; the depth is at least 1.
fn parse_count(field: &str) -> Option<(u32, u64)> {
    let mut words = field.split_whitespace();
    let depth = words.next()?.strip_prefix(['D', 'd'])?.parse().ok()?;
    let count = words.next()?.parse().ok()?;
    (depth >= 1 && words.next().is_none()).then_some((depth, count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_suite() {
        let text = "# a comment\n\
                    rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n\
                    \n\
                    bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ; D1 21 ;\n";
        let suite = parse_epd(text).expect("valid suite");
        assert_eq!(suite.len(), 2);
        assert_eq!(suite[0].line, 2);
        assert_eq!(suite[0].counts, [(1, 20), (2, 400)]);
        assert_eq!(suite[1].line, 4);
        assert_eq!(suite[1].counts, [(1, 21)]);
        assert!(suite[1].position.is_chess960());
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
        ] {
            let e = parse_epd(&text).expect_err("refused");
            assert!(e.to_string().contains(problem), "{e}");
        }
        let e = parse_epd(&format!("{start} ;D1 20\nnot a fen\n")).expect_err("refused");
        assert_eq!(e.line, 2);
    }
}
