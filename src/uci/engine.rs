//! The loop's state: the current position and the keys before it, the options, and the
//! worker's queue. Each command is applied here; nothing in it blocks on the worker.

use super::command::{Command, ParseError, Start};
use super::display;
use super::eval;
use super::evalfile;
use super::options::{Effect, EvalFile, Options, declarations};
use super::output::Output;
use super::prepare::{Preparing, Ready, Table};
use super::preparse::quote;
use super::worker::{Handle, Job, TableSlot, Worker};
use crate::board::Move;
use crate::board::{FenError, Position};
use crate::movegen::{MoveError, parse_move};
use crate::perft::PerftOptions;
use crate::search::Control;
use crossbeam_channel::Receiver;
use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
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
    /// A hash table being made ready off this thread, if any, and which.
    preparing: Option<(Table, Preparing)>,
    /// A search table made ready and waiting for the worker to install it.
    slot: TableSlot,
    /// The size of the search table in use, or waiting to be installed, in MB: what
    /// `Hash` goes back to when a new size cannot be had.
    search_table_mb: usize,
    /// Receives a value once the input thread has read `quit`: a wait for a table ends
    /// (the command that waited is dropped and the loop ends). Disconnected without a
    /// value when the input ended without `quit`: that is not a `quit`.
    quit: Receiver<()>,
    /// Where answers go.
    out: Output,
}

impl Engine {
    /// The engine in the starting position with default options and a running worker,
    /// answering on `out`.
    pub fn new(out: Output) -> std::io::Result<Self> {
        let options = Options::default();
        let search_table_mb = options.hash_mb;
        let slot = Arc::new(Mutex::new(None));
        Ok(Self {
            pos: Position::startpos(),
            fen_chess960: false,
            history: Vec::new(),
            worker: Worker::spawn(options.hash_mb, Arc::clone(&slot), out.clone())?,
            options,
            pending: VecDeque::new(),
            preparing: None,
            slot,
            search_table_mb,
            quit: crossbeam_channel::never(),
            out,
        })
    }

    /// Makes a wait for a hash table end, dropping the command that waited, once `quit`
    /// sends a value (the input thread does when it reads `quit`).
    pub fn watch_quit(&mut self, quit: Receiver<()>) {
        self.quit = quit;
    }

    /// Where the hash table being made ready arrives ([`Engine::prepared`] takes it);
    /// a channel that never delivers when none is.
    pub fn preparation(&self) -> Receiver<Ready> {
        match &self.preparing {
            Some((_, preparing)) => preparing.done.clone(),
            None => crossbeam_channel::never(),
        }
    }

    /// The current position (for the fuzz targets; not a stable API).
    #[doc(hidden)]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Answers a line that did not parse.
    pub fn refuse(&mut self, error: &ParseError) {
        match error {
            ParseError::Empty => {}
            other => self.out.info(&other.to_string()),
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
                self.out.send_all(&lines);
            }
            Command::Debug(on) => log::debug!("debug {}", if on { "on" } else { "off" }),
            Command::IsReady => {
                // `readyok` means ready: a hash table being allocated is finished first.
                let flow = self.settle();
                if flow == Flow::Continue {
                    self.out.send("readyok");
                }
                return flow;
            }
            Command::Register => {}
            Command::SetOption { name, value } => return self.set_option(&name, value.as_deref()),
            Command::UciNewGame => {
                self.pos = Position::startpos();
                self.pos.set_chess960(self.options.chess960);
                self.fen_chess960 = false;
                self.history.clear();
                return self.clear_hash();
            }
            Command::Position { start, moves } => match self.build(&start, &moves) {
                Ok((pos, fen_chess960, history)) => {
                    self.pos = pos;
                    self.fen_chess960 = fen_chess960;
                    self.history = history;
                }
                Err(e) => self
                    .out
                    .info(&format!("error: position: {e}; position unchanged")),
            },
            Command::Perft(depth) | Command::PerftStats(depth, _) => {
                if self.settle() == Flow::Quit {
                    return Flow::Quit;
                }
                let job = Job::Perft {
                    pos: self.pos.clone(),
                    depth,
                    stats: match command {
                        Command::PerftStats(_, columns) => Some(columns),
                        _ => None,
                    },
                    options: PerftOptions {
                        threads: self.options.threads,
                        hash_mb: self.options.perft_hash_mb,
                    },
                };
                self.start(job, Control::default());
            }
            Command::Go {
                mut limits,
                searchmoves,
                ignored,
            } => {
                // Made first: its clock starts now, before any wait for a new table.
                let control = Control::default();
                if self.settle() == Flow::Quit {
                    return Flow::Quit;
                }
                if !ignored.is_empty() {
                    let words: Vec<&str> = ignored.iter().take(20).map(String::as_str).collect();
                    let mut text = format!("go: ignored '{}'", quote(&words.join(" ")));
                    // Words were meant as limits but none could be read: answer at once
                    // rather than search until a `stop` that may never come.
                    if !limits.ends_by_itself() && !limits.ponder && !limits.infinite {
                        limits.depth = Some(1);
                        text.push_str("; nothing else limits this search: depth 1");
                    }
                    self.out.info(&text);
                }
                limits.searchmoves = self.searchmoves(&searchmoves);
                control.pondering.store(limits.ponder, Ordering::Relaxed);
                let job = Job::Search {
                    pos: self.pos.clone(),
                    history: self.history.clone(),
                    limits,
                };
                self.start(job, control);
            }
            Command::Stop => {
                let told = |job: &Handle| job.control.stop.load(Ordering::Relaxed);
                if let Some(job) = self.oldest_pending(|job| !told(job)) {
                    job.control.stop.store(true, Ordering::Relaxed);
                }
            }
            Command::PonderHit => {
                let pondering = |job: &Handle| job.control.pondering.load(Ordering::Relaxed);
                if let Some(job) = self.oldest_pending(pondering) {
                    job.control.pondering.store(false, Ordering::Relaxed);
                }
            }
            Command::Quit => return Flow::Quit,
            Command::Display => self.out.send_all(&display::display(&self.pos)),
            Command::Eval => self.out.send_all(&eval::lines(&self.pos)),
        }
        Flow::Continue
    }

    /// `quit`: stops every job and waits a moment for the worker to end.
    pub fn shut_down(&mut self) {
        self.worker.close();
        self.stop_all_and_wait();
    }

    /// End of input, which is not `quit`: every command read before it is answered, in
    /// order. A table being made ready is finished (its refusal reported), every job
    /// that ends by itself runs to its end (a piped `go perft 6` prints its whole count,
    /// `go depth 12` its `bestmove`), and a search that only `stop` or `ponderhit` could
    /// end (`go infinite`, `go ponder`, `go` alone) is stopped and answers with its
    /// best move so far, as Stockfish does at end of input. Then the worker ends.
    pub fn finish(&mut self) {
        // No `quit` can come any more: this waits for the table itself.
        let _ = self.settle();
        self.worker.close();
        for job in &self.pending {
            if job.until_stop || job.control.pondering.load(Ordering::Relaxed) {
                job.control.stop.store(true, Ordering::Relaxed);
            }
        }
        self.worker.wait_forever();
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

    /// The oldest perft or search not finished for which `wanted` holds. `stop` ends
    /// the oldest job not yet told to stop (so each `stop` ends one job: the one
    /// running, then those queued behind it, in order); `ponderhit` applies to the
    /// oldest job still pondering.
    fn oldest_pending(&mut self, wanted: impl Fn(&Handle) -> bool) -> Option<&Handle> {
        let worker = &self.worker;
        self.pending.retain(|job| !worker.is_finished(job.id));
        self.pending.iter().find(|job| wanted(job))
    }

    /// Starts making `table` ready off this thread, after any preparation under way;
    /// [`Flow::Quit`] (and nothing started) if a `quit` ended the wait for that one.
    fn prepare(&mut self, table: Table) -> Flow {
        if self.settle() == Flow::Quit {
            return Flow::Quit;
        }
        if matches!(table, Table::Search(_)) {
            // A table made ready but not installed yet is superseded: free it now.
            drop(self.slot.lock().unwrap_or_else(|e| e.into_inner()).take());
        }
        self.preparing = Some((table, Preparing::start(table)));
        Flow::Continue
    }

    /// Waits for the hash table being made ready, if any, and passes it on
    /// ([`Engine::prepared`]); [`Flow::Quit`] if a `quit` came first (the loop must
    /// then end).
    fn settle(&mut self) -> Flow {
        let Some((_, preparing)) = &self.preparing else {
            return Flow::Continue;
        };
        let (done, quit) = (preparing.done.clone(), self.quit.clone());
        let ready = crossbeam_channel::select! {
            recv(done) -> ready => ready,
            recv(quit) -> signal => match signal {
                Ok(()) => return Flow::Quit,
                // The input ended without `quit`: nothing can end the wait but the table.
                Err(_) => done.recv(),
            },
        };
        self.prepared(ready.ok());
        Flow::Continue
    }

    /// Passes on the hash table made ready (`None`: its preparation panicked): a search
    /// table to the worker, a perft table that could not be had as an `info string`
    /// (`PerftHash` then becomes 0).
    pub fn prepared(&mut self, ready: Option<Ready>) {
        self.preparing = None;
        match ready {
            Some(Ready::Search {
                table: Ok(table),
                mb,
            }) => {
                self.search_table_mb = mb;
                *self.slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(table);
                self.worker.send(Job::InstallTable, Arc::default());
            }
            Some(Ready::Search { table: Err(_), mb }) if mb == self.search_table_mb => {
                // A fresh table of the size in use (`ucinewgame`, `Clear Hash`) with the
                // old one still held: the old one is cleared instead.
                self.worker.send(Job::ClearTable, Arc::default());
            }
            Some(Ready::Search {
                table: Err(why),
                mb,
            }) => {
                self.options.hash_mb = self.search_table_mb;
                self.out.info(&format!(
                    "error: setoption: Hash {mb}: {why}; Hash stays {} MB",
                    self.search_table_mb
                ));
            }
            Some(Ready::Perft { result: Ok(()), .. }) => {}
            Some(Ready::Perft {
                mb,
                result: Err(why),
            }) => {
                self.options.perft_hash_mb = 0;
                self.out.info(&format!(
                    "error: setoption: PerftHash {mb}: {why}; PerftHash is now 0 (no table)"
                ));
            }
            None => {
                log::error!("the hash table preparation panicked");
                self.out
                    .info("error: internal error while allocating a hash table");
            }
        }
    }

    /// `ucinewgame` / `Clear Hash`: the history is forgotten and a fresh search table
    /// of the same size is made ready (faster for the next `go` than clearing the old
    /// one on the worker's time), unless a fresh one is on its way already (the usual
    /// `setoption name Hash`, `ucinewgame`, `isready` allocates once).
    fn clear_hash(&mut self) -> Flow {
        self.worker.send(Job::ClearHistory, Arc::default());
        let fresh_coming = matches!(self.preparing, Some((Table::Search(_), _)))
            || self
                .slot
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_some();
        if fresh_coming {
            Flow::Continue
        } else {
            self.prepare(Table::Search(self.options.hash_mb))
        }
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

    /// The moves of `searchmoves`; those that are not legal are reported and dropped.
    fn searchmoves(&self, texts: &[String]) -> Vec<Move> {
        let mut searchmoves = Vec::new();
        let mut refused = Vec::new();
        let mut seen = HashSet::new();
        for text in texts {
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
            let shown: Vec<String> = refused.iter().take(10).map(|w| quote(w)).collect();
            let more = if refused.len() > shown.len() {
                " ..."
            } else {
                ""
            };
            let rest = if searchmoves.is_empty() {
                "; none is left: every move is searched"
            } else {
                ""
            };
            self.out.info(&format!(
                "go: searchmoves: {} not legal here, skipped: {}{more}{rest}",
                refused.len(),
                shown.join(" "),
            ));
        }
        searchmoves
    }

    /// `EvalFile`: reads the network now, so that `eval` uses it at once and the
    /// searches from the next `go` on (queued behind any search already running or
    /// waiting, which keep theirs, as every option does); says which network it is, or
    /// why the file cannot be used (the network then stays as it was).
    fn set_network(&mut self, choice: EvalFile) {
        match evalfile::load(&choice) {
            Ok((network, text)) => {
                crate::nnue::set_network(Arc::clone(&network));
                self.worker.send(Job::SetNetwork(network), Arc::default());
                self.out.info(&text);
            }
            Err(e) => self.out.info(&format!("error: EvalFile: {e}")),
        }
    }

    /// `setoption`: stores the value and passes it on, or says why not;
    /// [`Flow::Quit`] if a `quit` ended a wait for a hash table.
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Flow {
        match self.options.set(name, value) {
            Ok(Effect::Hash(mb)) => return self.prepare(Table::Search(mb)),
            Ok(Effect::PerftHash(mb)) => return self.prepare(Table::Perft(mb)),
            Ok(Effect::ClearHash) => return self.clear_hash(),
            Ok(Effect::None) => {}
            Ok(Effect::Threads(n)) => {
                self.worker.send(Job::SetThreads(n), Arc::default());
            }
            Ok(Effect::MoveOverhead(ms)) => {
                self.worker.send(Job::SetMoveOverhead(ms), Arc::default());
            }
            Ok(Effect::MultiPv(lines)) => {
                self.worker.send(Job::SetMultiPv(lines), Arc::default());
            }
            Ok(Effect::Skill(skill)) => {
                self.worker.send(Job::SetSkill(skill), Arc::default());
            }
            Ok(Effect::ShowWdl(on)) => {
                self.worker.send(Job::SetShowWdl(on), Arc::default());
            }
            Ok(Effect::Chess960(on)) => self.pos.set_chess960(on || self.fen_chess960),
            Ok(Effect::SyzygyPath(path)) => {
                for line in super::tablebases::load(&path) {
                    self.out.info(&line);
                }
            }
            Ok(Effect::Syzygy(syzygy)) => {
                self.worker.send(Job::SetSyzygy(syzygy), Arc::default());
            }
            Ok(Effect::EvalFile(choice)) => self.set_network(choice),
            Err(e) => self.out.info(&format!("error: setoption: {e}")),
        }
        Flow::Continue
    }
}
