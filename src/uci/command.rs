//! `Command`: one line from the GUI, parsed but not yet checked against the position.

use crate::perft::stats::Columns;
use crate::search::Limits;
use std::fmt;

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `position startpos`.
    StartPos,
    /// `position fen ...`: the FEN text, its fields joined by single spaces.
    Fen(String),
}

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `uci`: identify and list the options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `setoption name N [value V]`.
    SetOption {
        /// The option name as written (matched case-insensitively).
        name: String,
        /// The value, if any.
        value: Option<String>,
    },
    /// `register ...` (accepted and ignored: Rookling needs no registration).
    Register,
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen FEN [moves ...]`.
    Position {
        /// The starting position.
        start: Start,
        /// The moves to play from it, as written.
        moves: Vec<String>,
    },
    /// `go perft N`.
    Perft(u32),
    /// `go perft N stats [classic|gct]`: the divide, then the breakdown by kind of
    /// last-ply move in those columns.
    PerftStats(u32, Columns),
    /// `go` with search parameters.
    Go {
        /// The limits (`searchmoves` left empty: the moves are checked against the
        /// position by the engine, from the next field).
        limits: Limits,
        /// `searchmoves`, as written (lower case).
        searchmoves: Vec<String>,
        /// Words that `go` does not know or could not read, skipped (reported as
        /// `info string`).
        ignored: Vec<String>,
    },
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: draw the board, FEN, key and checkers.
    Display,
    /// `eval`: the static evaluation of the current position.
    Eval,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Nothing but whitespace.
    Empty,
    /// The first word is no command.
    Unknown(String),
    /// A known command with bad arguments.
    Malformed {
        /// The command word.
        command: &'static str,
        /// What is wrong, in one sentence.
        why: String,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "empty line"),
            Self::Unknown(line) => write!(f, "unknown command: {line}"),
            Self::Malformed { command, why } => write!(f, "error: {command}: {why}"),
        }
    }
}

impl std::error::Error for ParseError {}
