//! Which engine an ENGINE argument names ([`choose`]): `rookling` (the built-in
//! reference), an entry of `engines.json` (Cutechess's format: an array of `{"name",
//! "command", "workingDirectory", ...}`), or else a command line, split with shell
//! quoting rules. A command prefixed with `perftree:` (on the command line or in an
//! entry), or an entry whose `protocol` is `perftree`, is a perftree script; any other
//! speaks UCI.
//!
//! A program given without a `/` is found by [`locate::find_program`]: on `PATH`, then
//! in `/usr/games` (where Debian installs Stockfish). The default reference is
//! `stockfish` on `PATH` only ([`default_reference`]).

use super::engines::{BUILTIN, Choice};
use crate::client::locate::{self, EngineSpec};
use serde::Deserialize;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The engines file read when `--engines` is not given (skipped when absent).
pub const DEFAULT_ENGINES_FILE: &str = "engines.json";

/// The prefix that makes a command a perftree script.
pub const PERFTREE_PREFIX: &str = "perftree:";

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
    /// `uci` (or empty), or `perftree` for a perftree script.
    #[serde(default)]
    pub protocol: String,
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

/// The engine `arg` names: `rookling` (the built-in reference), an entry of `engines`
/// (by exact name, then ignoring case), or else a command line; a perftree script when
/// the command starts with `perftree:` or the entry's protocol is `perftree`.
pub fn choose(arg: &str, engines: &[EngineEntry]) -> Result<Choice, ConfigError> {
    if arg == BUILTIN {
        return Ok(Choice::Builtin);
    }
    let (name, command, dir, protocol) = match entry(arg, engines) {
        Some(e) => (
            e.name.clone(),
            e.command.as_str(),
            e.working_directory.as_str(),
            e.protocol.as_str(),
        ),
        None => (arg.to_string(), arg, "", ""),
    };
    let working_dir = (!dir.is_empty()).then(|| PathBuf::from(dir));
    let script = command.strip_prefix(PERFTREE_PREFIX);
    if script.is_some() || protocol.eq_ignore_ascii_case("perftree") {
        let command = script.unwrap_or(command).trim();
        // perftree runs its argument as one program path; so does Rookling when that
        // path exists, and otherwise splits it as a command line (`python3 perft.py`).
        if let Some(program) = locate::find_program(command, working_dir.as_deref()) {
            return Ok(Choice::Perftree(EngineSpec {
                name,
                command: vec![program.to_string_lossy().into_owned()],
                working_dir,
            }));
        }
        return spec(name, command, working_dir, arg).map(Choice::Perftree);
    }
    spec(name, command, working_dir, arg).map(Choice::Uci)
}

/// The entry of `engines` named `arg`: by exact name, then ignoring case.
fn entry<'a>(arg: &str, engines: &'a [EngineEntry]) -> Option<&'a EngineEntry> {
    engines
        .iter()
        .find(|e| e.name == arg)
        .or_else(|| engines.iter().find(|e| e.name.eq_ignore_ascii_case(arg)))
}

/// The engine `name` running the command line `command` in `working_dir`; `arg` is
/// what the user wrote, for messages.
fn spec(
    name: String,
    command: &str,
    working_dir: Option<PathBuf>,
    arg: &str,
) -> Result<EngineSpec, ConfigError> {
    let words = match shlex::split(command) {
        Some(words) if !words.is_empty() => words,
        _ => return Err(ConfigError::BadCommand(arg.to_string())),
    };
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

/// The reference used when none is named: `stockfish` on `PATH`, or else the built-in
/// reference. Only `PATH` counts here (a Stockfish in `/usr/games` that is not on it is
/// used when named, `--reference stockfish`): a user who takes Stockfish off `PATH`
/// gets Rookling's own exact generator, as the `reference:` line then says.
pub fn default_reference() -> Choice {
    let found = locate::on_path("stockfish");
    if found.is_none()
        && let Some(elsewhere) = locate::stockfish()
    {
        log::info!(
            "{} is not on PATH: using the built-in reference (--reference stockfish uses it)",
            elsewhere.display()
        );
    }
    stockfish_or_builtin(found)
}

/// Stockfish at `found`, or the built-in reference when it was not found.
fn stockfish_or_builtin(found: Option<PathBuf>) -> Choice {
    match found {
        Some(path) => Choice::Uci(EngineSpec {
            name: "stockfish".to_string(),
            command: vec![path.to_string_lossy().into_owned()],
            working_dir: None,
        }),
        None => Choice::Builtin,
    }
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

    /// The UCI engine `arg` names.
    fn resolve(arg: &str, engines: &[EngineEntry]) -> Result<EngineSpec, ConfigError> {
        match choose(arg, engines)? {
            Choice::Uci(spec) => Ok(spec),
            other => panic!("{arg}: not a UCI engine but {other:?}"),
        }
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

    #[test]
    fn without_stockfish_the_reference_is_built_in() {
        assert_eq!(stockfish_or_builtin(None), Choice::Builtin);
        let found = stockfish_or_builtin(Some(PathBuf::from("/usr/games/stockfish")));
        assert!(matches!(found, Choice::Uci(spec) if spec.name == "stockfish"));
    }

    #[test]
    fn builtin_and_perftree_scripts() {
        let mut engines = parse(CUTECHESS).expect("valid list");
        assert_eq!(
            choose("rookling", &engines).expect("built in"),
            Choice::Builtin
        );
        assert!(matches!(choose("Rookling", &engines), Ok(Choice::Uci(_))));
        let Ok(Choice::Perftree(script)) = choose("perftree:sh -c 'echo 1'", &engines) else {
            panic!("a script");
        };
        assert_eq!(script.name, "perftree:sh -c 'echo 1'");
        assert_eq!(script.command[1..], ["-c", "echo 1"]);
        // A path that exists is the whole program, spaces and all, as in perftree.
        let dir = std::env::temp_dir().join(format!("rookling config {}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("my perft.sh");
        std::fs::write(&path, "#!/bin/sh\n").expect("written");
        let arg = format!("perftree:{}", path.display());
        let Ok(Choice::Perftree(script)) = choose(&arg, &engines) else {
            panic!("a script");
        };
        assert_eq!(script.command, [path.display().to_string()]);
        let _ = std::fs::remove_dir_all(&dir);
        // In an engines file: by prefix or by protocol.
        engines[1].protocol = "perftree".into();
        assert!(matches!(choose("shell", &engines), Ok(Choice::Perftree(_))));
        engines[1].protocol = "uci".into();
        engines[1].command = "perftree:sh -c 'echo 2'".into();
        assert!(matches!(choose("shell", &engines), Ok(Choice::Perftree(_))));
        assert!(matches!(
            choose("perftree:./no/such/script", &engines),
            Err(ConfigError::NotFound { .. })
        ));
    }
}
