//! `Command`: one line from the GUI, parsed but not yet checked against the position.

use std::fmt;

/// Where a `position` command starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// `position startpos`.
    StartPos,
    /// `position fen ...`: the FEN text, its fields joined by single spaces.
    Fen(String),
}

/// The parameters of a search `go`, with moves still as text (they are checked against
/// the position by the engine).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// White's clock, in milliseconds.
    pub wtime: Option<u64>,
    /// Black's clock, in milliseconds.
    pub btime: Option<u64>,
    /// White's increment, in milliseconds.
    pub winc: Option<u64>,
    /// Black's increment, in milliseconds.
    pub binc: Option<u64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Fixed time per move, in milliseconds.
    pub movetime: Option<u64>,
    /// Depth limit.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Mate search in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Start pondering.
    pub ponder: bool,
    /// `searchmoves`, as written.
    pub searchmoves: Vec<String>,
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
    /// `go` with search parameters; `ignored` lists the tokens that were skipped.
    Go {
        /// The search parameters.
        params: GoParams,
        /// Tokens that `go` does not know, ignored (reported as `info string`).
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
