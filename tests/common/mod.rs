//! Helpers shared by the integration tests: finding Stockfish and talking UCI to it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// Stockfish on PATH, else Debian's `/usr/games/stockfish` (the places `build.rs` looks
/// when it sets `has_stockfish`). Tests that call this carry
/// `#[cfg_attr(not(has_stockfish), ignore = "needs stockfish ...")]`, so without
/// Stockfish they show as ignored; run with `--include-ignored`, they fail here.
pub fn stockfish() -> PathBuf {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("stockfish"))
            .find(|p| p.is_file())
    });
    let debian = PathBuf::from("/usr/games/stockfish");
    on_path
        .or_else(|| debian.is_file().then_some(debian))
        .expect("this test needs Stockfish (apt-get install stockfish)")
}

/// How long any single answer may take before a test fails instead of hanging.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

/// A UCI engine process driven line by line. Its output is read on a thread, so a
/// missing answer fails the test after [`ANSWER_TIMEOUT`] instead of hanging it.
pub struct Uci {
    child: Child,
    input: Option<ChildStdin>,
    output: Receiver<String>,
}

impl Uci {
    /// Starts `program` and completes the `uci` handshake.
    pub fn start(program: &std::path::Path) -> Self {
        let mut uci = Self::spawn(program, &[]);
        uci.send("uci");
        uci.read_until(|l| l == "uciok");
        uci
    }

    /// Starts `program` with environment variables `env`, without a handshake.
    pub fn spawn(program: &std::path::Path, env: &[(&str, &str)]) -> Self {
        let mut child = Command::new(program)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let input = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let (tx, output) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Self {
            child,
            input: Some(input),
            output,
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends raw bytes (not necessarily UTF-8, not necessarily a whole line).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let input = self.input.as_mut().expect("input still open");
        input.write_all(bytes).expect("engine reads its input");
        input.flush().expect("engine reads its input");
    }

    /// The next line, or `None` when none comes within `timeout` (or output closed).
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        self.output.recv_timeout(timeout).ok()
    }

    /// Reads lines up to and including the first that satisfies `last`.
    pub fn read_until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = match self.output.recv_timeout(ANSWER_TIMEOUT) {
                Ok(line) => line.trim_end().to_string(),
                Err(e) => panic!("no answer from the engine ({e}) after {lines:?}"),
            };
            let done = last(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// Sends `isready` and returns every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.input = None;
    }

    /// Waits up to `timeout` for the process to exit; its status, or `None`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let start = Instant::now();
        while start.elapsed() < timeout {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
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
        if let Some(input) = self.input.as_mut() {
            let _ = writeln!(input, "quit");
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
