//! The loop's state: the current position and the keys before it, the options, and the
//! worker's queue. Each command is applied here; nothing in it blocks on the worker.

use super::command::{Command, GoParams, ParseError, Start};
use super::options::{Effect, Options, declarations};
use super::preparse::quote;
use super::worker::{Handle, Job, Worker};
use super::{display, output};
use crate::board::{FenError, Position};
use crate::movegen::{MoveError, parse_move};
use crate::perft::PerftOptions;
use crate::search::{Control, Limits};
use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Whether the loop goes on after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// `quit`.
    Quit,
}

/// Why a `position` command was refused (the previous position stays).
#[derive(Debug)]
enum PositionError {
    Fen(FenError),
    Move { index: usize, error: MoveError },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fen(e) => write!(f, "invalid FEN: {e}"),
            Self::Move { index, error } => write!(f, "move {} of the list: {error}", index + 1),
        }
    }
}

/// The engine as the UCI loop sees it.
pub struct Engine {
    pos: Position,
    /// Whether the FEN itself asked for Chess960 spelling (Shredder-FEN letters).
    fen_chess960: bool,
    /// Keys of the positions before `pos` since the last irreversible move, oldest first.
    history: Vec<u64>,
    options: Options,
    worker: Worker,
    /// Perft and search jobs not known to be finished, oldest first.
    pending: VecDeque<Handle>,
}

impl Engine {
    /// The engine in the starting position with default options and a running worker.
    pub fn new() -> std::io::Result<Self> {
        let options = Options::default();
        Ok(Self {
            pos: Position::startpos(),
            fen_chess960: false,
            history: Vec::new(),
            worker: Worker::spawn(options.hash_mb)?,
            options,
            pending: VecDeque::new(),
        })
    }

    /// Answers a line that did not parse.
    pub fn refuse(&mut self, error: &ParseError) {
        match error {
            ParseError::Empty => {}
            other => output::info(&other.to_string()),
        }
    }

    /// Applies one command.
    pub fn handle(&mut self, command: Command) -> Flow {
        match command {
            Command::Uci => {
                let mut lines = vec![
                    format!("id name Rookling {}", env!("CARGO_PKG_VERSION")),
                    "id author the Rookling developers".to_string(),
                ];
                lines.extend(declarations());
                lines.push("uciok".to_string());
                output::send_all(&lines);
            }
            Command::Debug(on) => log::debug!("debug {}", if on { "on" } else { "off" }),
            Command::IsReady => output::send("readyok"),
            Command::Register => {}
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => {
                self.worker.send(Job::Clear, Arc::default());
                self.pos = Position::startpos();
                self.pos.set_chess960(self.options.chess960);
                self.fen_chess960 = false;
                self.history.clear();
            }
            Command::Position { start, moves } => match self.build(&start, &moves) {
                Ok((pos, fen_chess960, history)) => {
                    self.pos = pos;
                    self.fen_chess960 = fen_chess960;
                    self.history = history;
                }
                Err(e) => output::info(&format!("error: position: {e}; position unchanged")),
            },
            Command::Perft(depth) => {
                let job = Job::Perft {
                    pos: self.pos.clone(),
                    depth,
                    options: PerftOptions {
                        threads: self.options.threads,
                        hash_mb: self.options.perft_hash_mb,
                    },
                };
                self.start(job, Control::default());
            }
            Command::Go { params, ignored } => {
                if !ignored.is_empty() {
                    let words: Vec<&str> = ignored.iter().take(20).map(String::as_str).collect();
                    output::info(&format!("go: ignored '{}'", quote(&words.join(" "))));
                }
                let limits = self.limits(params);
                let control = Control::default();
                control.pondering.store(limits.ponder, Ordering::Relaxed);
                let job = Job::Search {
                    pos: self.pos.clone(),
                    history: self.history.clone(),
                    limits,
                };
                self.start(job, control);
            }
            Command::Stop => {
                if let Some(job) = self.current() {
                    job.control.stop.store(true, Ordering::Relaxed);
                }
            }
            Command::PonderHit => {
                if let Some(job) = self.current() {
                    job.control.pondering.store(false, Ordering::Relaxed);
                }
            }
            Command::Quit => return Flow::Quit,
            Command::Display => output::send_all(&display::display(&self.pos)),
        }
        Flow::Continue
    }

    /// `quit`: stops every job and waits a moment for the worker to end.
    pub fn shut_down(&mut self) {
        self.worker.close();
        self.stop_all_and_wait();
    }

    /// End of input: the jobs already sent may finish within `grace` (so that
    /// `echo "go perft 5" | rookling` prints its count, as Stockfish does); whatever
    /// still runs then is stopped, as `quit` does.
    pub fn finish(&mut self, grace: Duration) {
        self.worker.close();
        if !self.worker.wait(grace) {
            self.stop_all_and_wait();
        }
    }

    /// Stops every pending job and gives the worker half a second to end.
    fn stop_all_and_wait(&mut self) {
        for job in &self.pending {
            job.control.stop.store(true, Ordering::Relaxed);
        }
        if !self.worker.wait(Duration::from_millis(500)) {
            log::warn!("the worker did not end within 500 ms; leaving it");
        }
    }

    /// Queues a stoppable job (forgetting those known to be finished).
    fn start(&mut self, job: Job, control: Control) {
        let worker = &self.worker;
        self.pending.retain(|job| !worker.is_finished(job.id));
        let handle = self.worker.send(job, Arc::new(control));
        self.pending.push_back(handle);
    }

    /// The current job: the oldest perft or search not finished, which is the one
    /// running or, if the worker has not picked it up yet, the next to run. `stop` and
    /// `ponderhit` apply to it only; jobs queued behind it (a GUI never queues any) run
    /// afterwards as sent.
    fn current(&mut self) -> Option<&Handle> {
        let worker = &self.worker;
        self.pending.retain(|job| !worker.is_finished(job.id));
        self.pending.front()
    }

    /// The position `position` names, built completely before anything changes:
    /// the position, whether its FEN demanded Chess960, and the history keys.
    fn build(
        &self,
        start: &Start,
        moves: &[String],
    ) -> Result<(Position, bool, Vec<u64>), PositionError> {
        let mut pos = match start {
            Start::StartPos => Position::startpos(),
            Start::Fen(fen) => Position::from_fen(fen).map_err(PositionError::Fen)?,
        };
        let fen_chess960 = pos.is_chess960();
        pos.set_chess960(fen_chess960 || self.options.chess960);
        let mut history = Vec::new();
        for (index, text) in moves.iter().enumerate() {
            // Upper case is read too (`E2E4`, `e7e8Q`): nothing else could be meant.
            let text = text.to_ascii_lowercase();
            let mv =
                parse_move(&pos, &text).map_err(|error| PositionError::Move { index, error })?;
            history.push(pos.key());
            pos.play(mv);
            if pos.halfmove_clock() == 0 {
                history.clear();
            }
        }
        Ok((pos, fen_chess960, history))
    }

    /// The search limits of `go`; `searchmoves` that are not legal are reported and dropped.
    fn limits(&self, params: GoParams) -> Limits {
        let mut searchmoves = Vec::new();
        let mut refused = Vec::new();
        let mut seen = HashSet::new();
        for text in &params.searchmoves {
            if !seen.insert(text.as_str()) {
                continue;
            }
            match parse_move(&self.pos, text) {
                Ok(mv) if !searchmoves.contains(&mv) => searchmoves.push(mv),
                Ok(_) => {}
                Err(_) => refused.push(text.as_str()),
            }
        }
        if !refused.is_empty() {
            let shown: Vec<&str> = refused.iter().take(10).copied().collect();
            output::info(&format!(
                "go: searchmoves: {} not legal here, ignored: {}{}",
                refused.len(),
                shown.join(" "),
                if refused.len() > shown.len() {
                    " ..."
                } else {
                    ""
                }
            ));
        }
        Limits {
            wtime: params.wtime,
            btime: params.btime,
            winc: params.winc,
            binc: params.binc,
            movestogo: params.movestogo,
            movetime: params.movetime,
            depth: params.depth,
            nodes: params.nodes,
            mate: params.mate,
            infinite: params.infinite,
            ponder: params.ponder,
            searchmoves,
        }
    }

    /// `setoption`: stores the value and passes it on, or says why not.
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            Ok(Effect::None) => {}
            Ok(Effect::Hash(mb)) => {
                self.worker.send(Job::SetHash(mb), Arc::default());
            }
            Ok(Effect::Threads(n)) => {
                self.worker.send(Job::SetThreads(n), Arc::default());
            }
            Ok(Effect::MoveOverhead(ms)) => {
                self.worker.send(Job::SetMoveOverhead(ms), Arc::default());
            }
            Ok(Effect::ClearHash) => {
                self.worker.send(Job::Clear, Arc::default());
            }
            Ok(Effect::Chess960(on)) => self.pos.set_chess960(on || self.fen_chess960),
            Err(e) => output::info(&format!("error: setoption: {e}")),
        }
    }
}
