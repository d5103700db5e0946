//! The plain-text training format `FEN | SCORE | RESULT` (the one `rookling datagen`
//! wrote before the binary [`Record`]; many NNUE trainers read it): the search score
//! in centipawns and the result as white's points (`1.0`, `0.5`, `0.0`), both from
//! white's point of view.

use super::record::{GameResult, Record};
use crate::board::{FenError, Position};
use std::fmt;

/// Why a text line is not a training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextError {
    /// Not three `|`-separated fields.
    Fields(usize),
    /// The FEN was refused.
    Fen(FenError),
    /// The score is not a whole number.
    Score(String),
    /// The result is not 0, 0.5 or 1.
    Result(String),
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fields(n) => write!(f, "{n} fields, not 3 (FEN | SCORE | RESULT)"),
            Self::Fen(e) => write!(f, "invalid FEN: {e}"),
            Self::Score(s) => write!(f, "score '{s}' is not a whole number"),
            Self::Result(s) => write!(f, "result '{s}' is not 1.0, 0.5 or 0.0"),
        }
    }
}

impl std::error::Error for TextError {}

/// One parsed line.
#[derive(Clone, Debug)]
pub struct TextPosition {
    /// The position.
    pub pos: Position,
    /// The search score, white's point of view.
    pub white_score: i32,
    /// The game's result.
    pub result: GameResult,
}

impl TextPosition {
    /// Parses `FEN | SCORE | RESULT`.
    pub fn parse(line: &str) -> Result<Self, TextError> {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let &[fen, score, result] = fields.as_slice() else {
            return Err(TextError::Fields(fields.len()));
        };
        let pos = Position::from_fen(fen).map_err(TextError::Fen)?;
        let white_score = score
            .parse()
            .map_err(|_| TextError::Score(score.to_string()))?;
        let result = result
            .parse::<f32>()
            .ok()
            .and_then(GameResult::from_white_points)
            .ok_or_else(|| TextError::Result(result.to_string()))?;
        Ok(Self {
            pos,
            white_score,
            result,
        })
    }

    /// Whether `next`, the line after this one, starts another game: it is not later in
    /// the game (by ply) or has another result. Exact for `datagen`'s text, whose games
    /// are written whole and start after random plies, except for two games in a row
    /// that share a result and where the second's first recorded position is later
    /// than the first's last (a few in a million).
    pub fn starts_another_game(&self, next: &TextPosition) -> bool {
        let ply = |p: &Position| 2 * p.fullmove_number() + p.side_to_move() as u32;
        next.result != self.result || ply(&next.pos) <= ply(&self.pos)
    }

    /// The record, marked as its game's last or not.
    pub fn record(&self, game_end: bool) -> Record {
        Record::new(&self.pos, self.white_score, self.result, game_end)
    }

    /// The line for `record` (the inverse of [`parse`](Self::parse), up to the FEN's
    /// castling spelling).
    pub fn line(record: &Record) -> String {
        format!(
            "{} | {} | {:.1}",
            record.fen(),
            record.white_score(),
            record.result().white_points()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_and_print_back() {
        let line = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 | 35 | 0.5";
        let parsed = TextPosition::parse(line).expect("a valid line");
        assert_eq!(parsed.white_score, 35);
        assert_eq!(parsed.result, GameResult::Draw);
        assert_eq!(TextPosition::line(&parsed.record(false)), line);
    }

    #[test]
    fn bad_lines_say_why() {
        let fen = crate::board::START_FEN;
        assert_eq!(
            TextPosition::parse(&format!("{fen} | 12")).err(),
            Some(TextError::Fields(2))
        );
        assert_eq!(
            TextPosition::parse(&format!("{fen} | x | 1.0")).err(),
            Some(TextError::Score("x".into()))
        );
        assert_eq!(
            TextPosition::parse(&format!("{fen} | 3 | 0.7")).err(),
            Some(TextError::Result("0.7".into()))
        );
        assert!(matches!(
            TextPosition::parse("8/8/8/8/8/8/8/8 w - - | 0 | 0.5"),
            Err(TextError::Fen(_))
        ));
    }

    #[test]
    fn games_are_told_apart_by_ply_and_result() {
        let at = |fen: &str, result: &str| {
            TextPosition::parse(&format!("{fen} | 0 | {result}")).expect("valid")
        };
        let a = at("4k3/8/8/8/8/8/8/4K3 w - - 0 10", "0.5");
        let b = at("4k3/8/8/8/8/8/8/4K3 b - - 0 10", "0.5");
        let c = at("4k3/8/8/8/8/8/8/4K3 w - - 0 6", "0.5");
        assert!(!a.starts_another_game(&b));
        assert!(b.starts_another_game(&c));
        assert!(a.starts_another_game(&at("4k3/8/8/8/8/8/8/4K3 w - - 0 12", "1.0")));
    }
}
