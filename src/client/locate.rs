//! Finding the programs Rookling drives: [`EngineSpec`] (what to start), the one
//! program locator ([`find_program`]: a path, or a name on `PATH` and then in the
//! directories Debian installs games to), and the two engines the tools use by
//! default, [`stockfish`] and [`rookling_itself`].

use std::path::{Path, PathBuf};

/// Directories searched after `PATH` for a program given by name: Debian installs
/// Stockfish as `/usr/games/stockfish`, which is not on root's `PATH`.
pub const GAMES_DIRS: [&str; 2] = ["/usr/games", "/usr/local/games"];

/// An engine ready to start: a name for messages, a command line, a working directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name messages use (an engines.json name, or the command line).
    pub name: String,
    /// The program, then its arguments.
    pub command: Vec<String>,
    /// Where the engine runs (Cutechess's `workingDirectory`), if set.
    pub working_dir: Option<PathBuf>,
}

impl EngineSpec {
    /// The program at `path`, without arguments, named by its path.
    pub fn program(path: &Path) -> Self {
        let text = path.to_string_lossy().into_owned();
        Self {
            name: text.clone(),
            command: vec![text],
            working_dir: None,
        }
    }

    /// The command line as a shell would show it.
    pub fn command_line(&self) -> String {
        shlex::try_join(self.command.iter().map(String::as_str))
            .unwrap_or_else(|_| self.command.join(" "))
    }
}

/// Where `program` is: a path (relative to `working_dir` when that is given), or a name
/// looked up on `PATH` and then in [`GAMES_DIRS`]. `None` when there is no such file.
pub fn find_program(program: &str, working_dir: Option<&Path>) -> Option<PathBuf> {
    let path = Path::new(program);
    if program.is_empty() {
        return None;
    }
    if program.contains('/') {
        let full = match working_dir {
            Some(dir) if path.is_relative() => dir.join(path),
            _ => path.to_path_buf(),
        };
        return full.is_file().then_some(full);
    }
    on_path(program).or_else(|| {
        GAMES_DIRS
            .iter()
            .map(|dir| Path::new(dir).join(program))
            .find(|p| p.is_file())
    })
}

/// The program named `program` (no `/`) on `PATH` only, if there is one.
pub fn on_path(program: &str) -> Option<PathBuf> {
    if program.is_empty() || program.contains('/') {
        return None;
    }
    let path_dirs = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    path_dirs
        .into_iter()
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// Stockfish: `stockfish` on `PATH`, then in [`GAMES_DIRS`].
pub fn stockfish() -> Option<PathBuf> {
    find_program("stockfish", None)
}

/// Rookling itself: this executable, which speaks UCI when run without arguments.
pub fn rookling_itself() -> std::io::Result<EngineSpec> {
    let exe = std::env::current_exe()?;
    Ok(EngineSpec {
        name: "rookling".to_string(),
        command: vec![exe.to_string_lossy().into_owned()],
        working_dir: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_names_and_paths() {
        let sh = find_program("sh", None).expect("sh on PATH");
        assert!(sh.is_absolute() && sh.ends_with("sh"), "{}", sh.display());
        assert_eq!(find_program("no-such-program-anywhere", None), None);
        assert_eq!(find_program("", None), None);
        assert_eq!(find_program("./no/such/engine", None), None);
        let dir = sh.parent().expect("a directory");
        assert_eq!(find_program("./sh", Some(dir)), Some(dir.join("./sh")));
    }
}
