//! `CliError`: what the command line reports in one line before exiting with status 2.

use crate::board::FenError;
use crate::client::EngineError;
use crate::compare::config::ConfigError;
use crate::movegen::MoveError;
use std::fmt;
use std::path::{Path, PathBuf};

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
    /// Reading or writing a file failed.
    File {
        /// The file.
        path: PathBuf,
        /// What was being done: "read", "write", "open".
        action: &'static str,
        /// Why it failed.
        error: std::io::Error,
    },
    /// Writing to standard output failed (a closed pipe is not reported: Rookling ends
    /// quietly, as `cat` does; see [`CliError::is_broken_pipe`]).
    Stdout(std::io::Error),
    /// Anything else, already phrased for the user.
    Other(String),
}

impl CliError {
    /// A failure to `action` ("read", "write", ...) the file at `path`.
    pub fn file(path: &Path, action: &'static str) -> impl FnOnce(std::io::Error) -> Self {
        let path = path.to_path_buf();
        move |error| Self::File {
            path,
            action,
            error,
        }
    }

    /// Whether this is standard output closed by its reader (`rookling ... | head`).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Self::Stdout(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fen(e) => write!(f, "invalid FEN: {e}"),
            Self::Move(e) => write!(f, "{e}"),
            Self::Config(e) => write!(f, "{e}"),
            Self::Engine(e) => write!(f, "{e}"),
            Self::File {
                path,
                action,
                error,
            } => write!(f, "cannot {action} {}: {error}", path.display()),
            Self::Stdout(e) => write!(f, "cannot write to standard output: {e}"),
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

/// A bare I/O error in the command line is a write to standard output: every file
/// operation names its file ([`CliError::file`]).
impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        Self::Stdout(e)
    }
}
