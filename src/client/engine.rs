//! [`Engine`]: a UCI engine driven for perft: handshake, options, `go perft` divides,
//! each answer tied to its question and each wait bounded by one timeout.
//!
//! Every request is synchronised: `isready` is sent and everything the engine prints
//! before `readyok` is discarded, then `go perft N` is sent and its answer read. So a
//! stale line (an answer printed twice, chatter after the total) can never be taken
//! for the answer to the next question. The timeout is a deadline for the whole
//! answer to one request, kept however fast the engine prints.

use super::locate::EngineSpec;
use super::perft_output::{Divide, PerftLine, parse_perft_line, shorten};
use super::process::{Limits, Received, UciProcess, deadline};
use std::fmt;
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
    /// It did not finish answering `command` within the timeout.
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
    /// A program run once per request (a perftree script) exited with a failure.
    Exited {
        /// Its command line.
        command: String,
        /// How it exited.
        status: std::process::ExitStatus,
        /// The line of its error output that says most, if any.
        stderr: Option<String>,
    },
    /// A program run once per request was still running at the deadline and was
    /// stopped.
    Killed {
        /// Its command line.
        command: String,
        /// The timeout.
        timeout: Duration,
    },
    /// It cannot answer `command` at all (the built-in reference given a position it
    /// refuses).
    Refused {
        /// The command it was asked.
        command: String,
        /// Why it cannot answer.
        reason: String,
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
                    "engine '{name}' did not finish answering '{command}' within {secs} s (--timeout)"
                )?;
                match last {
                    Some(line) => write!(f, ", its last line: '{}'", shorten(line)),
                    None => write!(f, ", it printed nothing"),
                }
            }
            EngineErrorKind::NotUci { how, line } => write!(
                f,
                "engine '{name}' does not speak UCI: {how}, it printed '{}'",
                shorten(line)
            ),
            EngineErrorKind::Exited {
                command,
                status,
                stderr,
            } => {
                write!(f, "engine '{name}' failed on '{command}' ({status})")?;
                match stderr {
                    Some(line) => write!(f, ", on stderr: '{line}'"),
                    None => Ok(()),
                }
            }
            EngineErrorKind::Killed { command, timeout } => write!(
                f,
                "engine '{name}' did not finish '{command}' within {} s (--timeout) and was stopped",
                timeout.as_secs_f64()
            ),
            EngineErrorKind::Refused { command, reason } => {
                write!(f, "engine '{name}' cannot answer '{command}': {reason}")
            }
            EngineErrorKind::Garbage { command, problem } => {
                write!(f, "engine '{name}' answered '{command}' with {problem}")
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// How many lines that are neither perft output nor `info` chatter a `go perft`
/// answer may hold before it is refused.
pub const MAX_OTHER_LINES: usize = 1000;

/// Why an answer could not be read (the caller names the engine and the command).
#[derive(Debug, PartialEq, Eq)]
pub enum Fault {
    /// The output closed before the answer ended.
    Closed,
    /// The deadline passed before the answer ended.
    TimedOut,
    /// The answer is not perft output: what is wrong.
    Garbage(String),
}

/// Reads the answer to `go perft depth` from `process`, up to its total line, by
/// `deadline`: `info` lines are skipped, moves may not repeat, and the moves must add
/// up to the total.
pub fn read_divide(
    process: &mut UciProcess,
    depth: u32,
    deadline: Instant,
) -> Result<Divide, Fault> {
    let mut divide = Divide::default();
    let mut other = 0;
    loop {
        let line = match process.read_line(deadline) {
            Received::Line(line) => line,
            Received::Closed => return Err(Fault::Closed),
            Received::TimedOut => return Err(Fault::TimedOut),
        };
        match parse_perft_line(&line) {
            PerftLine::Info => {}
            PerftLine::Other if other < MAX_OTHER_LINES => other += 1,
            PerftLine::Other => {
                return Err(Fault::Garbage(format!(
                    "more than {MAX_OTHER_LINES} lines that are not perft output, such as '{}'",
                    shorten(&line)
                )));
            }
            PerftLine::Move(mv, nodes) => {
                if divide.moves.insert(mv.clone(), nodes).is_some() {
                    return Err(Fault::Garbage(format!("the move {mv} twice")));
                }
            }
            PerftLine::Total(total) => {
                let sum: u128 = divide.moves.values().map(|&n| u128::from(n)).sum();
                if depth > 0 && sum != u128::from(total) {
                    return Err(Fault::Garbage(format!(
                        "a divide that adds up to {sum}, not the {total} nodes it reported"
                    )));
                }
                divide.total = total;
                return Ok(divide);
            }
            PerftLine::Bad(problem) => return Err(Fault::Garbage(problem)),
        }
    }
}

/// A running UCI engine.
pub struct Engine {
    name: String,
    id: Option<String>,
    process: UciProcess,
    timeout: Duration,
    chess960: bool,
}

impl Engine {
    /// Starts the engine and completes the handshake (`uci` .. `uciok`, then
    /// `UCI_Chess960` set to `chess960`, `isready` .. `readyok`), each step within
    /// `timeout`.
    pub fn start(
        spec: &EngineSpec,
        chess960: bool,
        timeout: Duration,
    ) -> Result<Self, EngineError> {
        let process = UciProcess::spawn(spec, &[], Limits::ENGINE).map_err(|e| EngineError {
            engine: spec.name.clone(),
            kind: EngineErrorKind::Spawn(e),
        })?;
        let mut engine = Self {
            name: spec.name.clone(),
            id: None,
            process,
            timeout,
            chess960,
        };
        engine.handshake()?;
        engine.send(&format!("setoption name UCI_Chess960 value {chess960}"))?;
        engine.sync()?;
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
            self.chess960 = chess960;
            self.set_option("UCI_Chess960", &chess960.to_string())?;
        }
        Ok(())
    }

    /// Sends `setoption name NAME value VALUE`, then waits for `readyok`, so that an
    /// option that takes time (a hash table) is in place before the next request.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.send(&format!("setoption name {name} value {value}"))?;
        self.sync()
    }

    /// Sends `ucinewgame` (then waits for `readyok`).
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.sync()
    }

    /// `go perft depth` on the position `fen` followed by `moves`: the divide.
    pub fn perft(
        &mut self,
        fen: &str,
        moves: &[String],
        depth: u32,
    ) -> Result<Divide, EngineError> {
        Ok(self.timed_perft(fen, moves, depth)?.0)
    }

    /// [`Engine::perft`], with the time from sending `go perft` to reading the total
    /// line. The position is set and `readyok` received before the clock starts.
    pub fn timed_perft(
        &mut self,
        fen: &str,
        moves: &[String],
        depth: u32,
    ) -> Result<(Divide, Duration), EngineError> {
        let position = if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {}", moves.join(" "))
        };
        self.send(&position)?;
        self.sync()?;
        let command = format!("go perft {depth}");
        let start = Instant::now();
        self.send(&command)?;
        let divide = read_divide(&mut self.process, depth, deadline(start, self.timeout))
            .map_err(|fault| self.fault(fault, &command))?;
        Ok((divide, start.elapsed()))
    }

    /// Sends `isready` and discards everything up to `readyok`.
    fn sync(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = deadline(Instant::now(), self.timeout);
        loop {
            match self.process.read_line(deadline) {
                Received::Line(line) if line.trim() == "readyok" => return Ok(()),
                Received::Line(_) => {}
                Received::Closed => return Err(self.fault(Fault::Closed, "isready")),
                Received::TimedOut => return Err(self.fault(Fault::TimedOut, "isready")),
            }
        }
    }

    /// `uci` .. `uciok`, noting `id name`.
    fn handshake(&mut self) -> Result<(), EngineError> {
        // A program that exits at once may refuse the line; what it printed (read
        // below) says more than the broken pipe.
        let _ = self.process.send("uci");
        let deadline = deadline(Instant::now(), self.timeout);
        let mut first_other: Option<String> = None;
        loop {
            let line = match self.process.read_line(deadline) {
                Received::Line(line) => line,
                ending => {
                    let Some(line) = first_other else {
                        let fault = match ending {
                            Received::Closed => Fault::Closed,
                            _ => Fault::TimedOut,
                        };
                        return Err(self.fault(fault, "uci"));
                    };
                    let how = match ending {
                        Received::Closed => match self.process.wait_exit(EXIT_WAIT) {
                            Some(s) => format!("it exited ({s}) without 'uciok'"),
                            None => "it closed its output without 'uciok'".to_string(),
                        },
                        _ => format!(
                            "no 'uciok' within {} s of 'uci'",
                            self.timeout.as_secs_f64()
                        ),
                    };
                    return Err(self.error(EngineErrorKind::NotUci { how, line }));
                }
            };
            let line = line.trim();
            if line == "uciok" {
                return Ok(());
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
    }

    /// The error for `fault` while the engine answered `command`.
    fn fault(&mut self, fault: Fault, command: &str) -> EngineError {
        let command = command.to_string();
        let kind = match fault {
            Fault::Closed => EngineErrorKind::Died {
                command,
                status: self.process.wait_exit(EXIT_WAIT),
            },
            Fault::TimedOut => EngineErrorKind::Timeout {
                command,
                timeout: self.timeout,
                last: self.process.last_line().map(str::to_string),
            },
            Fault::Garbage(problem) => EngineErrorKind::Garbage { command, problem },
        };
        self.error(kind)
    }

    fn error(&self, kind: EngineErrorKind) -> EngineError {
        EngineError {
            engine: self.name.clone(),
            kind,
        }
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        log::debug!("{} < {line}", self.name);
        if self.process.send(line).is_err() {
            return Err(self.fault(Fault::Closed, line));
        }
        Ok(())
    }
}

/// How long a process that closed its output is given to report its exit status.
const EXIT_WAIT: Duration = Duration::from_millis(500);
