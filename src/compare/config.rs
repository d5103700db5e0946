//! Which engine an ENGINE argument names: an entry of `engines.json` (Cutechess's
//! format: an array of `{"name", "command", "workingDirectory", ...}`) or else a command
//! line, split with shell quoting rules.
//!
//! A program given without a `/` is found by [`locate::find_program`]: on `PATH`, then
//! in `/usr/games` (where Debian installs Stockfish).

use crate::client::locate::{self, EngineSpec};
use serde::Deserialize;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The engines file read when `--engines` is not given (skipped when absent).
pub const DEFAULT_ENGINES_FILE: &str = "engines.json";

/// Why an engine could not be named.
#[derive(Debug)]
pub enum ConfigError {
    /// The engines file could not be read.
    Read(PathBuf, std::io::Error),
    /// The engines file is not a Cutechess engines list.
    Parse(PathBuf, serde_json::Error),
    /// The ENGINE argument is neither a known name nor a command line.
    BadCommand(String),
    /// The program of an engine does not exist.
    NotFound {
        /// The engine as named.
        engine: String,
        /// The program looked for.
        program: String,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Read(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            Self::Parse(path, e) => write!(
                f,
                "{} is not a Cutechess engines list (array of {{\"name\", \"command\", ...}}): {e}",
                path.display()
            ),
            Self::BadCommand(arg) => write!(
                f,
                "engine '{arg}' is neither a name in the engines file nor a command line"
            ),
            Self::NotFound { engine, program } => {
                write!(f, "engine '{engine}' not found: no program '{program}'")?;
                if !program.contains('/') {
                    write!(f, " on PATH or in {}", locate::GAMES_DIRS.join(" or "))?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for ConfigError {}

/// One entry of a Cutechess engines file; other fields are ignored.
#[derive(Clone, Debug, Deserialize)]
pub struct EngineEntry {
    /// The engine's name.
    pub name: String,
    /// Its command line.
    pub command: String,
    /// Where it runs (empty: here).
    #[serde(rename = "workingDirectory", default)]
    pub working_directory: String,
}

/// Reads the engines file `path`; `None` reads [`DEFAULT_ENGINES_FILE`] when it exists.
pub fn load(path: Option<&Path>) -> Result<Vec<EngineEntry>, ConfigError> {
    let path = match path {
        Some(p) => p.to_path_buf(),
        None => {
            let default = PathBuf::from(DEFAULT_ENGINES_FILE);
            if !default.is_file() {
                return Ok(Vec::new());
            }
            default
        }
    };
    let text =
        read_text(&path, MAX_ENGINES_FILE).map_err(|e| ConfigError::Read(path.clone(), e))?;
    parse(&text).map_err(|e| ConfigError::Parse(path, e))
}

/// The largest engines file read: a list of engines is a few KB; reading something
/// endless (`/dev/zero`) whole would exhaust the memory.
const MAX_ENGINES_FILE: u64 = 1 << 20;

/// The text of the file at `path`, refused when it is larger than `limit` bytes (or
/// not UTF-8).
pub(crate) fn read_text(path: &Path, limit: u64) -> std::io::Result<String> {
    let mut text = String::new();
    std::fs::File::open(path)?
        .take(limit + 1)
        .read_to_string(&mut text)?;
    if text.len() as u64 > limit {
        return Err(std::io::Error::other(format!("larger than {limit} bytes")));
    }
    Ok(text)
}

/// The entries of an engines file.
fn parse(text: &str) -> Result<Vec<EngineEntry>, serde_json::Error> {
    serde_json::from_str(text)
}

/// The engine `arg` names: an entry of `engines` (by exact name, then ignoring case), or
/// else a command line.
pub fn resolve(arg: &str, engines: &[EngineEntry]) -> Result<EngineSpec, ConfigError> {
    let entry = engines
        .iter()
        .find(|e| e.name == arg)
        .or_else(|| engines.iter().find(|e| e.name.eq_ignore_ascii_case(arg)));
    let (name, command, dir) = match entry {
        Some(e) => (
            e.name.clone(),
            e.command.as_str(),
            e.working_directory.as_str(),
        ),
        None => (arg.to_string(), arg, ""),
    };
    let words = match shlex::split(command) {
        Some(words) if !words.is_empty() => words,
        _ => return Err(ConfigError::BadCommand(arg.to_string())),
    };
    let working_dir = (!dir.is_empty()).then(|| PathBuf::from(dir));
    let program = locate::find_program(&words[0], working_dir.as_deref()).ok_or_else(|| {
        ConfigError::NotFound {
            engine: name.clone(),
            program: words[0].clone(),
        }
    })?;
    let mut command = vec![program.to_string_lossy().into_owned()];
    command.extend(words.into_iter().skip(1));
    Ok(EngineSpec {
        name,
        command,
        working_dir,
    })
}

/// Stockfish, as [`locate::stockfish`] finds it.
pub fn stockfish() -> Result<EngineSpec, ConfigError> {
    resolve("stockfish", &[])
}

/// Rookling itself (this executable, which speaks UCI when run without arguments).
pub fn rookling_itself() -> Result<EngineSpec, ConfigError> {
    locate::rookling_itself().map_err(|_| ConfigError::NotFound {
        engine: "rookling".to_string(),
        program: "rookling".to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CUTECHESS: &str = r#"[
      {"name": "Rookling", "command": "./target/release/rookling", "workingDirectory": ".",
       "protocol": "uci", "options": []},
      {"name": "Shell", "command": "sh -c 'echo uciok'", "protocol": "uci"}
    ]"#;

    #[test]
    fn reads_cutechess_entries() {
        let engines = parse(CUTECHESS).expect("valid list");
        assert_eq!(engines.len(), 2);
        assert_eq!(engines[0].name, "Rookling");
        assert_eq!(engines[1].working_directory, "");
        assert!(parse(r#"{"name": "x"}"#).is_err());
        assert!(parse(r#"[{"name": "x"}]"#).is_err(), "command is required");
    }

    #[test]
    fn names_then_command_lines() {
        let engines = parse(CUTECHESS).expect("valid list");
        let shell = resolve("shell", &engines).expect("found ignoring case");
        assert_eq!(shell.name, "Shell");
        assert_eq!(shell.command[1..], ["-c", "echo uciok"]);
        assert!(shell.command[0].ends_with("/sh"), "{:?}", shell.command);
        let line = resolve("sh -c 'exit 3'", &engines).expect("a command line");
        assert_eq!(line.name, "sh -c 'exit 3'");
        assert_eq!(line.command[1..], ["-c", "exit 3"]);
        assert!(matches!(
            resolve("sh -c 'unbalanced", &engines),
            Err(ConfigError::BadCommand(_))
        ));
        assert!(matches!(
            resolve("no-such-engine-anywhere --x", &engines),
            Err(ConfigError::NotFound { .. })
        ));
        assert!(matches!(
            resolve("./no/such/engine", &engines),
            Err(ConfigError::NotFound { .. })
        ));
    }
}
