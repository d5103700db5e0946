//! `CliError`: what the command line reports in one line before exiting with status 2.

use crate::board::FenError;
use crate::client::EngineError;
use crate::compare::config::ConfigError;
use crate::movegen::MoveError;
use std::fmt;

/// A failure of a CLI command.
#[derive(Debug)]
pub enum CliError {
    /// The FEN was refused.
    Fen(FenError),
    /// A move of `--moves` was refused.
    Move(MoveError),
    /// An engine could not be named or found.
    Config(ConfigError),
    /// An engine failed: did not start, died, hung or printed garbage.
    Engine(EngineError),
    /// Anything else, already phrased for the user.
    Other(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fen(e) => write!(f, "invalid FEN: {e}"),
            Self::Move(e) => write!(f, "{e}"),
            Self::Config(e) => write!(f, "{e}"),
            Self::Engine(e) => write!(f, "{e}"),
            Self::Other(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for CliError {}

impl From<FenError> for CliError {
    fn from(e: FenError) -> Self {
        Self::Fen(e)
    }
}

impl From<MoveError> for CliError {
    fn from(e: MoveError) -> Self {
        Self::Move(e)
    }
}

impl From<ConfigError> for CliError {
    fn from(e: ConfigError) -> Self {
        Self::Config(e)
    }
}

impl From<EngineError> for CliError {
    fn from(e: EngineError) -> Self {
        Self::Engine(e)
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        Self::Other(e.to_string())
    }
}
