//! A UCI engine process driven for perft: start, handshake, `go perft` divides.
//!
//! Everything the engine prints is untrusted: a reader thread turns its output into
//! lines (invalid UTF-8 replaced) sent over a channel, and every read waits at most the
//! timeout, so an engine that hangs, dies or prints garbage ends in an [`EngineError`]
//! naming the engine and what it did, never in a hang or a panic.

use super::config::EngineSpec;
use super::drill::Divide;
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use std::collections::BTreeMap;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// What went wrong with an engine, phrased for the user by `Display`.
#[derive(Debug)]
pub struct EngineError {
    /// The engine's name (from engines.json, or its command line).
    pub engine: String,
    /// What it did.
    pub kind: EngineErrorKind,
}

/// The ways an engine can fail.
#[derive(Debug)]
pub enum EngineErrorKind {
    /// The process could not be started.
    Spawn(std::io::Error),
    /// It closed its output (exited) while we waited for an answer to `command`.
    Died {
        /// The command being answered.
        command: String,
        /// The exit status, when known.
        status: Option<std::process::ExitStatus>,
    },
    /// It said nothing that answered `command` within the timeout.
    Timeout {
        /// The command being answered.
        command: String,
        /// The timeout.
        timeout: Duration,
        /// The last line it printed, if any.
        last: Option<String>,
    },
    /// It answered `uci` without ever saying `uciok`, printing `line` instead.
    NotUci {
        /// How it failed: no `uciok` in time, or it exited.
        how: String,
        /// A line it printed instead.
        line: String,
    },
    /// Its answer to `command` is not perft output.
    Garbage {
        /// The command being answered.
        command: String,
        /// What is wrong.
        problem: String,
    },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.engine;
        match &self.kind {
            EngineErrorKind::Spawn(e) => write!(f, "engine '{name}' cannot be started: {e}"),
            EngineErrorKind::Died { command, status } => {
                write!(f, "engine '{name}' died while answering '{command}'")?;
                match status {
                    Some(s) => write!(f, " ({s})"),
                    None => write!(f, " (it closed its output)"),
                }
            }
            EngineErrorKind::Timeout {
                command,
                timeout,
                last,
            } => {
                let secs = timeout.as_secs_f64();
                write!(
                    f,
                    "engine '{name}' was silent for {secs} s while answering '{command}'"
                )?;
                match last {
                    Some(line) => write!(f, " (last line: '{}')", shorten(line)),
                    None => write!(f, " (it printed nothing)"),
                }
            }
            EngineErrorKind::NotUci { how, line } => write!(
                f,
                "engine '{name}' does not speak UCI: {how}, it printed '{}'",
                shorten(line)
            ),
            EngineErrorKind::Garbage { command, problem } => {
                write!(f, "engine '{name}' answered '{command}' with {problem}")
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// A line cut to a readable length, control characters shown escaped.
fn shorten(line: &str) -> String {
    let mut text: String = line.chars().take(80).flat_map(char::escape_debug).collect();
    if line.chars().count() > 80 {
        text.push_str("...");
    }
    text
}

/// How many lines that are not perft output a `go perft` answer may have.
const MAX_CHATTER: usize = 1000;

/// One event from the reader thread.
enum Output {
    Line(String),
    End,
}

/// A running UCI engine.
pub struct Engine {
    name: String,
    id: Option<String>,
    child: Child,
    input: ChildStdin,
    output: Receiver<Output>,
    timeout: Duration,
    last: Option<String>,
    chess960: bool,
}

impl Engine {
    /// Starts the engine and completes the handshake (`uci` .. `uciok`, then
    /// `UCI_Chess960` set to `chess960`, `isready` .. `readyok`).
    pub fn start(
        spec: &EngineSpec,
        chess960: bool,
        timeout: Duration,
    ) -> Result<Self, EngineError> {
        let error = |kind| EngineError {
            engine: spec.name.clone(),
            kind,
        };
        let (program, args) = match spec.command.split_first() {
            Some(split) => split,
            None => {
                let e = std::io::Error::other("empty command line");
                return Err(error(EngineErrorKind::Spawn(e)));
            }
        };
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.working_dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .map_err(|e| error(EngineErrorKind::Spawn(e)))?;
        let (Some(input), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            let e = std::io::Error::other("no pipes to the process");
            return Err(error(EngineErrorKind::Spawn(e)));
        };
        let (sender, output) = unbounded();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if sender.send(Output::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = sender.send(Output::End);
        });
        let mut engine = Self {
            name: spec.name.clone(),
            id: None,
            child,
            input,
            output,
            timeout,
            last: None,
            chess960,
        };
        engine.handshake(chess960)?;
        Ok(engine)
    }

    /// The name the user gave the engine.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name the engine gave itself (`id name ...`), if it did.
    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// Sets `UCI_Chess960` (then waits for `readyok`).
    pub fn set_chess960(&mut self, chess960: bool) -> Result<(), EngineError> {
        if self.chess960 != chess960 {
            self.send(&format!("setoption name UCI_Chess960 value {chess960}"))?;
            self.chess960 = chess960;
            self.sync()?;
        }
        Ok(())
    }

    /// Sends `isready` and waits for `readyok`.
    fn sync(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + self.timeout;
        while self.read_line("isready", Some(deadline))?.trim() != "readyok" {}
        Ok(())
    }

    fn handshake(&mut self, chess960: bool) -> Result<(), EngineError> {
        // A program that exits at once may refuse the line; what it printed (read
        // below) says more than the broken pipe.
        let _ = self.send("uci");
        let deadline = Instant::now() + self.timeout;
        let mut first_other: Option<String> = None;
        loop {
            let line = match self.read_line("uci", Some(deadline)) {
                Ok(line) => line,
                Err(EngineError {
                    kind: EngineErrorKind::Timeout { timeout, .. },
                    ..
                }) if first_other.is_some() => {
                    let line = first_other.unwrap_or_default();
                    let how = format!("no 'uciok' within {} s of 'uci'", timeout.as_secs_f64());
                    return Err(self.error(EngineErrorKind::NotUci { how, line }));
                }
                Err(EngineError {
                    kind: EngineErrorKind::Died { status, .. },
                    ..
                }) if first_other.is_some() => {
                    let line = first_other.unwrap_or_default();
                    let how = match status {
                        Some(s) => format!("it exited ({s}) without 'uciok'"),
                        None => "it closed its output without 'uciok'".to_string(),
                    };
                    return Err(self.error(EngineErrorKind::NotUci { how, line }));
                }
                Err(e) => return Err(e),
            };
            let line = line.trim();
            if line == "uciok" {
                break;
            }
            if let Some(id) = line.strip_prefix("id name ") {
                self.id = Some(id.trim().to_string());
            } else if !line.is_empty()
                && !line.starts_with("id ")
                && !line.starts_with("option ")
                && !line.starts_with("info")
                && first_other.is_none()
            {
                first_other = Some(line.to_string());
            }
        }
        self.send(&format!("setoption name UCI_Chess960 value {chess960}"))?;
        self.chess960 = chess960;
        self.sync()
    }

    /// `go perft depth` on the position `fen` followed by `moves`: the divide.
    pub fn perft(
        &mut self,
        fen: &str,
        moves: &[String],
        depth: u32,
    ) -> Result<Divide, EngineError> {
        let position = if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {}", moves.join(" "))
        };
        self.send(&position)?;
        let command = format!("go perft {depth}");
        self.send(&command)?;
        let garbage = |problem: String| EngineErrorKind::Garbage {
            command: command.clone(),
            problem,
        };
        let mut moves = BTreeMap::new();
        let mut ignored = 0;
        loop {
            let line = self.read_line(&command, None)?;
            match parse_perft_line(&line) {
                PerftLine::Ignored if ignored < MAX_CHATTER => ignored += 1,
                PerftLine::Ignored => {
                    let problem = format!(
                        "more than {MAX_CHATTER} lines that are not perft output, such as '{}'",
                        shorten(&line)
                    );
                    return Err(self.error(garbage(problem)));
                }
                PerftLine::Move(mv, nodes) => {
                    if moves.insert(mv.clone(), nodes).is_some() {
                        return Err(self.error(garbage(format!("the move {mv} twice"))));
                    }
                }
                PerftLine::Total(total) => {
                    let sum = moves.values().fold(0u64, |a, &n| a.saturating_add(n));
                    if depth > 0 && sum != total {
                        let problem = format!(
                            "a divide that adds up to {sum}, not the {total} nodes it reported"
                        );
                        return Err(self.error(garbage(problem)));
                    }
                    return Ok(Divide { moves, total });
                }
                PerftLine::Bad(problem) => return Err(self.error(garbage(problem))),
            }
        }
    }

    fn error(&self, kind: EngineErrorKind) -> EngineError {
        EngineError {
            engine: self.name.clone(),
            kind,
        }
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::debug!("{} < {line}", self.name);
        let sent = writeln!(self.input, "{line}").and_then(|()| self.input.flush());
        if sent.is_err() {
            let status = self.wait_exit();
            return Err(self.error(EngineErrorKind::Died {
                command: line.to_string(),
                status,
            }));
        }
        Ok(())
    }

    /// The next line, waiting at most the timeout (and never past `deadline`).
    fn read_line(
        &mut self,
        command: &str,
        deadline: Option<Instant>,
    ) -> Result<String, EngineError> {
        let mut wait = self.timeout;
        if let Some(deadline) = deadline {
            wait = wait.min(deadline.saturating_duration_since(Instant::now()));
        }
        match self.output.recv_timeout(wait) {
            Ok(Output::Line(line)) => {
                log::debug!("{} > {line}", self.name);
                self.last = Some(line.clone());
                Ok(line)
            }
            Ok(Output::End) | Err(RecvTimeoutError::Disconnected) => {
                let status = self.wait_exit();
                Err(self.error(EngineErrorKind::Died {
                    command: command.to_string(),
                    status,
                }))
            }
            Err(RecvTimeoutError::Timeout) => Err(self.error(EngineErrorKind::Timeout {
                command: command.to_string(),
                timeout: self.timeout,
                last: self.last.clone(),
            })),
        }
    }

    /// The exit status of a process that closed its output, waiting for it a moment.
    fn wait_exit(&mut self) -> Option<std::process::ExitStatus> {
        for _ in 0..50 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        None
    }
}

impl Drop for Engine {
    /// Says `quit`, then kills the process if it has not left within a moment.
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit").and_then(|()| self.input.flush());
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What one line of a `go perft` answer is.
#[derive(Debug, PartialEq, Eq)]
enum PerftLine {
    /// Not part of the divide (blank, `info ...`, or other chatter).
    Ignored,
    /// `e2e4: 600`.
    Move(String, u64),
    /// `Nodes searched: 8902`: the end of the answer.
    Total(u64),
    /// A line that claims to be perft output but cannot be read.
    Bad(String),
}

/// Whether `text` has the shape of a UCI move (`e2e4`, `e7e8q`).
fn is_move(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"nbrqNBRQ".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3])
}

/// Reads one line of Stockfish's `go perft` format (the total may also be written
/// `Nodes:`, `Total:` or `Total nodes:`, as some engines do).
fn parse_perft_line(line: &str) -> PerftLine {
    let line = line.trim();
    if line.is_empty() || line.starts_with("info") {
        return PerftLine::Ignored;
    }
    let Some((head, count)) = line.split_once(':') else {
        return PerftLine::Ignored;
    };
    let (head, count) = (head.trim(), count.trim());
    let number = count.parse::<u64>();
    let total = ["nodes searched", "nodes", "total", "total nodes"];
    if total.iter().any(|t| head.eq_ignore_ascii_case(t)) {
        return match number {
            Ok(n) => PerftLine::Total(n),
            Err(_) => PerftLine::Bad(format!("'{}', which has no node count", shorten(line))),
        };
    }
    if !is_move(head) {
        return PerftLine::Ignored;
    }
    match number {
        Ok(n) => PerftLine::Move(head.to_ascii_lowercase(), n),
        Err(_) => PerftLine::Bad(format!("'{}', which has no node count", shorten(line))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stockfish_lines() {
        assert_eq!(
            parse_perft_line("e2e4: 600"),
            PerftLine::Move("e2e4".into(), 600)
        );
        assert_eq!(
            parse_perft_line("a7a8q: 1"),
            PerftLine::Move("a7a8q".into(), 1)
        );
        assert_eq!(
            parse_perft_line("Nodes searched: 8902"),
            PerftLine::Total(8902)
        );
        assert_eq!(parse_perft_line("Total: 20"), PerftLine::Total(20));
        assert_eq!(parse_perft_line("nodes: 20"), PerftLine::Total(20));
        assert_eq!(parse_perft_line(""), PerftLine::Ignored);
        assert_eq!(
            parse_perft_line("info string NNUE evaluation using nn.nnue"),
            PerftLine::Ignored
        );
        assert_eq!(
            parse_perft_line("Stockfish 15.1 by ..."),
            PerftLine::Ignored
        );
        assert!(matches!(parse_perft_line("e2e4: lots"), PerftLine::Bad(_)));
        assert!(matches!(
            parse_perft_line("Nodes searched: banana"),
            PerftLine::Bad(_)
        ));
        assert!(matches!(parse_perft_line("e2e4: -3"), PerftLine::Bad(_)));
    }

    #[test]
    fn shortens_and_escapes() {
        assert_eq!(shorten("a\u{0}b"), "a\\0b");
        assert_eq!(shorten(&"x".repeat(100)), format!("{}...", "x".repeat(80)));
    }
}
