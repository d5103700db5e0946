//! Reading moves written in UCI notation (`e2e4`, `e7e8q`, `e1g1` or king-takes-rook `e1h1`).

use super::legal_moves;
use crate::board::{Move, MoveKind, Position};
use std::fmt;

/// Why a UCI move string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `e2e4` / `e7e8q`.
    Malformed(String),
    /// Well formed, but not a legal move in the position.
    Illegal {
        /// The move as written.
        mv: String,
        /// The position's FEN.
        fen: String,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed(s) => write!(f, "'{s}' is not a move in UCI notation"),
            Self::Illegal { mv, fen } => write!(f, "illegal move '{mv}' in position {fen}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Whether `text` has the shape of a UCI move: two squares and an optional promotion.
fn well_formed(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"nbrq".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3])
}

/// The legal move `text` names. Castling is accepted in the spelling of the position's
/// mode first (`e1g1`, or `e1h1` in Chess960) and then in the other one when that is
/// unambiguous, so a GUI that mixes them is still understood.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    if !well_formed(text) {
        return Err(MoveError::Malformed(text.to_string()));
    }
    let moves = legal_moves(pos);
    let chess960 = pos.is_chess960();
    let found = moves
        .iter()
        .find(|m| m.uci(chess960).to_string() == text)
        .or_else(|| {
            moves
                .iter()
                .find(|m| m.kind() == MoveKind::Castling && m.uci(!chess960).to_string() == text)
        });
    found.copied().ok_or_else(|| MoveError::Illegal {
        mv: text.to_string(),
        fen: pos.to_fen(),
    })
}

impl Position {
    /// Plays the move `uci` names (UCI notation, read as [`parse_move`] reads it) if it is
    /// legal here, and returns it; otherwise says why ([`MoveError`]) and leaves the
    /// position as it was. The checked twin of [`Position::play`], which trusts its move.
    ///
    /// ```
    /// use rookling::board::Position;
    ///
    /// let mut pos = Position::startpos();
    /// assert!(pos.try_play("e2e5").is_err());
    /// assert_eq!(pos, Position::startpos());
    /// let mv = pos.try_play("e2e4")?;
    /// assert_eq!(mv.to_uci(false), "e2e4");
    /// # Ok::<(), rookling::movegen::MoveError>(())
    /// ```
    pub fn try_play(&mut self, uci: &str) -> Result<Move, MoveError> {
        let mv = parse_move(self, uci)?;
        self.play(mv);
        Ok(mv)
    }
}

/// Plays `moves` from `pos`, all of them or none: on error `pos` is unchanged.
pub fn play_moves<S: AsRef<str>>(pos: &mut Position, moves: &[S]) -> Result<(), MoveError> {
    let mut next = pos.clone();
    for text in moves {
        let mv = parse_move(&next, text.as_ref())?;
        next.play(mv);
    }
    *pos = next;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_rejects() {
        let mut pos = Position::startpos();
        assert!(matches!(
            parse_move(&pos, "e2e5"),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(
            parse_move(&pos, "e2"),
            Err(MoveError::Malformed(_))
        ));
        assert!(matches!(
            parse_move(&pos, "e2e4x"),
            Err(MoveError::Malformed(_))
        ));
        assert!(play_moves(&mut pos, &["e2e4", "e7e5", "g1f3", "zz"]).is_err());
        assert_eq!(pos, Position::startpos(), "a failed list changes nothing");
        play_moves(&mut pos, &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]).expect("legal");
        let castle = parse_move(&pos, "e1g1").expect("castling");
        assert_eq!(castle.kind(), MoveKind::Castling);
        assert_eq!(parse_move(&pos, "e1h1"), Ok(castle));
    }

    #[test]
    fn try_play_plays_legal_moves_only() {
        let mut pos = Position::startpos();
        for bad in ["e2e5", "e1g1", "e7e5", "e2", "", "e2e4q", "i2i4"] {
            assert!(pos.try_play(bad).is_err(), "{bad}");
            assert_eq!(pos, Position::startpos(), "{bad} changed the position");
        }
        let mv = pos.try_play("g1f3").expect("legal");
        assert_eq!(mv.to_uci(false), "g1f3");
        assert_eq!(
            pos.to_fen(),
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
        );
    }
}
