//! Helpers shared by the integration tests, on the library's one UCI client
//! (`rookling::client`): finding Stockfish, and a process that fails the test instead
//! of returning errors.

#![allow(dead_code)]

pub mod run;
pub mod session;
pub mod tablebase;

use rookling::client::engine::read_divide;
use rookling::client::{EngineSpec, Limits, Received, UciProcess, locate};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Stockfish, found as the tools find it (`PATH`, then `/usr/games`: where `build.rs`
/// looks when it sets `has_stockfish`). Tests that call this carry
/// `#[cfg_attr(not(has_stockfish), ignore = "needs stockfish ...")]`, so without
/// Stockfish they show as ignored; run with `--include-ignored`, they fail here.
pub fn stockfish() -> PathBuf {
    locate::stockfish().expect("this test needs Stockfish (apt-get install stockfish)")
}

/// How long any single answer may take before a test fails instead of hanging.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

/// What the tests keep of Rookling's output: long lines (it may quote a long input),
/// and no queue limit, since a test may queue many commands before reading.
const TEST_LIMITS: Limits = Limits {
    max_line_bytes: 1 << 20,
    max_queued_lines: None,
};

/// A UCI engine process driven line by line; a missing answer fails the test after
/// [`ANSWER_TIMEOUT`] instead of hanging it.
pub struct Uci {
    process: UciProcess,
}

impl Uci {
    /// Starts `program` and completes the `uci` handshake.
    pub fn start(program: &Path) -> Self {
        let mut uci = Self::spawn(program, &[]);
        uci.send("uci");
        uci.read_until(|l| l == "uciok");
        uci
    }

    /// Starts `program` with environment variables `env`, without a handshake.
    pub fn spawn(program: &Path, env: &[(&str, &str)]) -> Self {
        let process = UciProcess::spawn(&EngineSpec::program(program), env, TEST_LIMITS)
            .expect("engine starts");
        Self { process }
    }

    /// Starts the command line `command` (program and arguments), without a handshake.
    pub fn spawn_command(command: &[&str]) -> Self {
        let spec = EngineSpec {
            name: command.join(" "),
            command: command.iter().map(|s| s.to_string()).collect(),
            working_dir: None,
        };
        let process = UciProcess::spawn(&spec, &[], TEST_LIMITS).expect("engine starts");
        Self { process }
    }

    /// Every line still to come until the output closes (after the process exited).
    pub fn read_until_closed(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        while let Received::Line(line) = self.process.read_line(Instant::now() + ANSWER_TIMEOUT) {
            lines.push(line);
        }
        lines
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.process.send(line).expect("engine reads its input");
    }

    /// Sends raw bytes (not necessarily UTF-8, not necessarily a whole line).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.process
            .send_bytes(bytes)
            .expect("engine reads its input");
    }

    /// The next line, or `None` when none comes within `timeout` (or output closed).
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.process.read_line(Instant::now() + timeout) {
            Received::Line(line) => Some(line),
            Received::Closed | Received::TimedOut => None,
        }
    }

    /// Reads lines up to and including the first that satisfies `last`.
    pub fn read_until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = match self.process.read_line(Instant::now() + ANSWER_TIMEOUT) {
                Received::Line(line) => line.trim_end().to_string(),
                other => panic!("no answer from the engine ({other:?}) after {lines:?}"),
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

    /// The engine's process id.
    pub fn id(&self) -> u32 {
        self.process.id()
    }

    /// Closes the engine's input (end of file).
    pub fn close_input(&mut self) {
        self.process.close_input();
    }

    /// Waits up to `timeout` for the process to exit; its status, or `None`.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        self.process.wait_exit(timeout)
    }

    /// `go perft depth` on `fen`: the divide lines (`move: count`, sorted) and the
    /// total, read by the library's `go perft` reader after `isready`/`readyok`.
    pub fn perft(&mut self, fen: &str, depth: u32, chess960: bool) -> (Vec<String>, u64) {
        self.send(&format!("setoption name UCI_Chess960 value {chess960}"));
        self.send(&format!("position fen {fen}"));
        self.sync();
        self.send(&format!("go perft {depth}"));
        let divide = read_divide(&mut self.process, depth, Instant::now() + ANSWER_TIMEOUT)
            .unwrap_or_else(|e| panic!("go perft {depth} on {fen}: {e:?}"));
        let lines = divide
            .moves
            .iter()
            .map(|(mv, n)| format!("{mv}: {n}"))
            .collect();
        (lines, divide.total)
    }
}

/// `target/<profile>/examples/buggy_perft`, which `cargo test` builds.
pub fn buggy_perft() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps/<test>");
    let path = profile_dir.join("examples").join("buggy_perft");
    assert!(
        path.is_file(),
        "{} is missing: a whole `cargo test` builds the examples (else `cargo build --examples`)",
        path.display()
    );
    path
}

/// The command line of `buggy_perft` with a planted `bug` and protocol `quirk`.
pub fn buggy_engine(bug: &str, quirk: &str) -> String {
    format!("{} --bug {bug} --quirk {quirk}", buggy_perft().display())
}

/// `buggy_perft` with a planted `bug` and `quirk` as a perftree script:
/// `perftree:PATH --bug BUG --quirk QUIRK --perftree` (Rookling appends DEPTH FEN
/// [MOVES]).
pub fn perftree_script(bug: &str, quirk: &str) -> String {
    format!(
        "perftree:{} --bug {bug} --quirk {quirk} --perftree",
        buggy_perft().display()
    )
}

/// How long the default suite lets an answer that normally takes milliseconds take: far
/// above any loaded machine's delay, so only a hang or an ignored limit fails it. The
/// tight figures are the `latency_*` tests, opt-in on an idle machine:
/// `cargo test --release -- --ignored latency`.
pub const GUARD: Duration = Duration::from_secs(10);

/// `tight` in a `latency_*` test, else [`GUARD`].
pub fn bound(tight_ms: u64, latency: bool) -> Duration {
    if latency {
        Duration::from_millis(tight_ms)
    } else {
        GUARD
    }
}
