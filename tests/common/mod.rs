//! Helpers shared by the integration tests: finding Stockfish and talking UCI to it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// Stockfish on PATH, else Debian's `/usr/games/stockfish`. When it is missing the test
/// is skipped with a printed reason, except under CI (`CI` set), where that is a failure.
pub fn stockfish_or_skip(test: &str) -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("stockfish"))
            .find(|p| p.is_file())
    });
    let found = on_path.or_else(|| {
        let debian = PathBuf::from("/usr/games/stockfish");
        debian.is_file().then_some(debian)
    });
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{test}: Stockfish is required under CI"
        );
        eprintln!("{test}: skipped, Stockfish not found (apt-get install stockfish)");
    }
    found
}

/// A UCI engine process driven line by line.
pub struct Uci {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Uci {
    /// Starts `program` and completes the `uci` handshake.
    pub fn start(program: &std::path::Path) -> Self {
        let mut child = Command::new(program)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        let mut uci = Self {
            child,
            input,
            output,
        };
        uci.send("uci");
        uci.read_until(|l| l == "uciok");
        uci
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("engine reads its input");
        self.input.flush().expect("engine reads its input");
    }

    /// Reads lines up to and including the first that satisfies `last`.
    pub fn read_until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.output.read_line(&mut line).expect("engine output");
            assert!(n > 0, "engine closed its output after {lines:?}");
            let line = line.trim_end().to_string();
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// `go perft depth` on `fen`: the divide lines (sorted) and the total.
    pub fn perft(&mut self, fen: &str, depth: u32, chess960: bool) -> (Vec<String>, u64) {
        self.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        self.send(&format!("position fen {fen}"));
        self.send(&format!("go perft {depth}"));
        let lines = self.read_until(|l| l.starts_with("Nodes searched:"));
        let total = lines
            .last()
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .expect("a node count");
        let mut divide: Vec<String> = lines.into_iter().filter(|l| l.contains(": ")).collect();
        divide.retain(|l| !l.starts_with("Nodes") && !l.starts_with("info"));
        divide.sort();
        (divide, total)
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
