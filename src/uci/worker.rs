//! The worker thread: runs jobs (perft, search, searcher settings) one after another,
//! while the loop keeps reading input. It owns the [`Searcher`]; each stoppable job
//! shares an `Arc<Control>` with the loop, which sets its flags on `stop`/`ponderhit`.

use super::divide::{RootOrder, divide_lines};
use super::output::Output;
use crate::board::Position;
use crate::memory;
use crate::nnue::Network;
use crate::perft::stats::{self, Columns};
use crate::perft::{PerftOptions, divide_with};
use crate::search::tt::Tt;
use crate::search::{Control, Limits, Searcher, Skill, Syzygy, time};
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Work for the worker thread.
#[derive(Debug)]
pub enum Job {
    /// `go perft`: print the divide in Stockfish's format.
    Perft {
        /// The position (a copy: later `position` commands do not touch it).
        pos: Position,
        /// Plies to count.
        depth: u32,
        /// The columns of the breakdown by kind of last-ply move to add, if any
        /// (`go perft N stats [classic|gct]`).
        stats: Option<Columns>,
        /// Threads and hash table.
        options: PerftOptions,
    },
    /// `go`: search and print `bestmove`.
    Search {
        /// The position to search.
        pos: Position,
        /// Keys of the positions before it since the last irreversible move.
        history: Vec<u64>,
        /// What `go` asked for.
        limits: Limits,
    },
    /// `ucinewgame` / `Clear Hash`: forget the move-ordering history (the hash table
    /// is replaced by a fresh one, made ready off the worker: [`Job::InstallTable`]).
    ClearHistory,
    /// Empty the search table in place (when a fresh one could not be had).
    ClearTable,
    /// Install the search table waiting in the shared slot, if any (one made ready
    /// by [`super::prepare`]; a later one may have replaced it before this job ran).
    InstallTable,
    /// `Threads`: search threads.
    SetThreads(usize),
    /// `Move Overhead`, ms.
    SetMoveOverhead(u64),
    /// `MultiPV`: lines a search reports.
    SetMultiPv(usize),
    /// `Skill Level`, `UCI_LimitStrength`, `UCI_Elo`: the playing strength.
    SetSkill(Skill),
    /// `UCI_ShowWDL`.
    SetShowWdl(bool),
    /// `SyzygyProbeDepth`, `Syzygy50MoveRule`, `SyzygyProbeLimit`.
    SetSyzygy(Syzygy),
    /// `EvalFile`: the network of the searches from now on (read by the loop).
    SetNetwork(Arc<Network>),
}

/// A job with its number and its control flags.
struct Ticket {
    id: u64,
    job: Job,
    control: Arc<Control>,
}

/// Where the loop leaves a search table made ready for the worker to install.
pub type TableSlot = Arc<Mutex<Option<Tt>>>;

/// The loop's handle on the worker thread.
pub struct Worker {
    sender: Option<Sender<Ticket>>,
    /// The number of the last job finished.
    finished: Arc<AtomicU64>,
    next_id: u64,
    exited: Receiver<()>,
    handle: Option<JoinHandle<()>>,
}

/// A job handed to the worker: its number and its control flags.
#[derive(Clone)]
pub struct Handle {
    /// Jobs are numbered from 1 in the order they were sent.
    pub id: u64,
    /// The job's flags (`stop`, `pondering`).
    pub control: Arc<Control>,
    /// A search that only `stop` ends (`go infinite`, or no limit at all).
    pub until_stop: bool,
}

impl Job {
    /// Whether only `stop` can end this job (a search with no limit that ends it).
    fn until_stop(&self) -> bool {
        matches!(self, Job::Search { limits, .. } if !limits.ends_by_itself())
    }
}

impl Worker {
    /// Starts the worker thread with a searcher of `hash_mb` MB, taking new tables from
    /// `slot` on [`Job::InstallTable`] and writing its answers to `out`.
    pub fn spawn(hash_mb: usize, slot: TableSlot, out: Output) -> std::io::Result<Self> {
        let (sender, receiver) = unbounded::<Ticket>();
        let (exit_tx, exited) = crossbeam_channel::bounded(1);
        let finished = Arc::new(AtomicU64::new(0));
        let done = Arc::clone(&finished);
        // The network in use now, read on the caller's thread: read on the worker's, it
        // could already be one an `EvalFile` sent after the first `go` put in its place.
        let network = crate::nnue::network();
        let handle = std::thread::Builder::new()
            .name("uci-worker".into())
            .stack_size(crate::threads::STACK_BYTES)
            .spawn(move || {
                let mut state = State::new(hash_mb, slot, out.clone(), network);
                for ticket in receiver {
                    let id = ticket.id;
                    let outcome =
                        catch_unwind(AssertUnwindSafe(|| state.run(ticket.job, &ticket.control)));
                    let answer = outcome.unwrap_or_else(|_| {
                        log::error!("job {id} panicked");
                        state = state.fresh();
                        vec!["info string error: internal error, the job was abandoned".into()]
                    });
                    // Finished before its answer is printed: a `stop` sent by a client
                    // that has read the answer must go to the next job, not to this one.
                    done.store(id, Ordering::Release);
                    out.send_all(&answer);
                }
                let _ = exit_tx.send(());
            })?;
        Ok(Self {
            sender: Some(sender),
            finished,
            next_id: 1,
            exited,
            handle: Some(handle),
        })
    }

    /// Queues `job`; its handle lets the loop stop it.
    pub fn send(&mut self, job: Job, control: Arc<Control>) -> Handle {
        let id = self.next_id;
        self.next_id += 1;
        let handle = Handle {
            id,
            control: Arc::clone(&control),
            until_stop: job.until_stop(),
        };
        let ticket = Ticket { id, job, control };
        let sent = match &self.sender {
            Some(sender) => sender.send(ticket).is_ok(),
            None => false,
        };
        if !sent {
            log::error!("the worker thread is gone; job {id} dropped");
        }
        handle
    }

    /// Whether job `id` has finished.
    pub fn is_finished(&self, id: u64) -> bool {
        self.finished.load(Ordering::Acquire) >= id
    }

    /// Closes the queue: the worker ends once the jobs already sent are done.
    pub fn close(&mut self) {
        self.sender = None;
    }

    /// Waits for the worker to end (after [`Worker::close`]): every job sent is done.
    pub fn wait_forever(&mut self) {
        if let Some(handle) = self.handle.take() {
            let _ = self.exited.recv();
            let _ = handle.join();
        }
    }

    /// Waits up to `timeout` for the worker to end (after [`Worker::close`]); whether
    /// it did.
    pub fn wait(&mut self, timeout: Duration) -> bool {
        let Some(handle) = self.handle.take() else {
            return true;
        };
        if self.exited.recv_timeout(timeout).is_ok() {
            let _ = handle.join();
            true
        } else {
            self.handle = Some(handle);
            false
        }
    }
}

/// What the worker thread keeps between jobs: the searcher and its settings.
struct State {
    searcher: Searcher,
    slot: TableSlot,
    threads: usize,
    move_overhead_ms: u64,
    multipv: usize,
    skill: Skill,
    show_wdl: bool,
    out: Output,
    syzygy: Syzygy,
    network: Arc<Network>,
}

impl State {
    /// A searcher of `hash_mb` MB evaluating with `network`.
    fn new(hash_mb: usize, slot: TableSlot, out: Output, network: Arc<Network>) -> Self {
        let mut searcher = Searcher::new(hash_mb);
        searcher.set_network(Arc::clone(&network));
        Self {
            searcher,
            slot,
            threads: 1,
            move_overhead_ms: time::DEFAULT_MOVE_OVERHEAD_MS,
            multipv: 1,
            skill: Skill::FULL,
            show_wdl: false,
            out,
            syzygy: Syzygy::default(),
            network,
        }
    }

    /// A new searcher with the same settings (after a job panicked).
    fn fresh(&self) -> Self {
        let mut state = Self::new(
            self.searcher.hash_mb(),
            Arc::clone(&self.slot),
            self.out.clone(),
            Arc::clone(&self.network),
        );
        for job in [
            Job::SetThreads(self.threads),
            Job::SetMoveOverhead(self.move_overhead_ms),
            Job::SetMultiPv(self.multipv),
            Job::SetSkill(self.skill),
            Job::SetShowWdl(self.show_wdl),
            Job::SetSyzygy(self.syzygy),
        ] {
            state.run(job, &Control::default());
        }
        state
    }

    /// Runs `job` and returns its answer (the lines that end it: `bestmove`, the divide
    /// and total, `perft stopped`), which the caller prints once the job counts as
    /// finished; `info` lines along the way are printed as they come.
    fn run(&mut self, job: Job, control: &Control) -> Vec<String> {
        match job {
            Job::Perft {
                pos,
                depth,
                stats,
                options,
            } => return perft(&pos, depth, stats, &options, control, &self.out),
            Job::Search {
                pos,
                history,
                limits,
            } => {
                let out = &self.out;
                let result =
                    self.searcher
                        .go(&pos, &history, &limits, control, &mut |line: String| {
                            out.send(&line)
                        });
                let chess960 = pos.is_chess960();
                let line = match (result.best, result.ponder) {
                    (None, _) => "bestmove (none)".to_string(),
                    (Some(best), None) => format!("bestmove {}", best.uci(chess960)),
                    (Some(best), Some(ponder)) => format!(
                        "bestmove {} ponder {}",
                        best.uci(chess960),
                        ponder.uci(chess960)
                    ),
                };
                return vec![line];
            }
            Job::ClearHistory => self.searcher.clear_history(),
            Job::ClearTable => self.searcher.clear(),
            Job::InstallTable => {
                let table = self.slot.lock().unwrap_or_else(|e| e.into_inner()).take();
                if let Some(table) = table {
                    let old = self.searcher.install_table(table);
                    // Freeing a large table takes a while: not on the search's time.
                    // (If no thread can be started, the closure and the table are
                    // dropped here.)
                    let _ = std::thread::Builder::new().spawn(move || drop(old));
                }
            }
            Job::SetThreads(n) => {
                self.threads = n;
                self.searcher.set_threads(n);
            }
            Job::SetMoveOverhead(ms) => {
                self.move_overhead_ms = ms;
                self.searcher.set_move_overhead(ms);
            }
            Job::SetMultiPv(lines) => {
                self.multipv = lines;
                self.searcher.set_multipv(lines);
            }
            Job::SetSkill(skill) => {
                self.skill = skill;
                self.searcher.set_skill(skill);
            }
            Job::SetShowWdl(on) => {
                self.show_wdl = on;
                self.searcher.set_show_wdl(on);
            }
            Job::SetSyzygy(syzygy) => {
                self.syzygy = syzygy;
                self.searcher.set_syzygy(syzygy);
            }
            Job::SetNetwork(network) => {
                self.searcher.set_network(Arc::clone(&network));
                self.network = network;
            }
        }
        Vec::new()
    }
}

/// Runs `go perft`: the divide (root moves in Stockfish's order) and total, or
/// `info string perft stopped` when `stop` came before the count was complete (a count
/// that completed is answered in full). With `stats`, the divide comes from the
/// statistics walk and one `info string perft stats: nodes N, captures N, ...` line
/// follows, in those columns.
fn perft(
    pos: &Position,
    depth: u32,
    stats: Option<Columns>,
    options: &PerftOptions,
    control: &Control,
    out: &Output,
) -> Vec<String> {
    let stopped = || vec!["info string perft stopped".to_string()];
    let (divide, breakdown) = if let Some(columns) = stats {
        // The statistics walk allocates its own table of that size for the run, beside
        // perft's kept one: refused rather than filled past the memory there is.
        let mut options = options.clone();
        if let Err(e) = memory::check_table(options.hash_mb) {
            out.info(&format!(
                "error: go perft stats: a statistics table of PerftHash {} MB: {e}; counting without a table",
                options.hash_mb
            ));
            options.hash_mb = 0;
        }
        let Some(parts) = stats::divide_with(pos, depth, &options, &control.stop) else {
            return stopped();
        };
        let total = stats::sum(&parts, depth);
        let divide = parts.iter().map(|&(mv, s)| (mv, s.nodes)).collect();
        (divide, Some(total.rows(columns)))
    } else {
        let Some(divide) = divide_with(pos, depth, options, &control.stop) else {
            return stopped();
        };
        (divide, None)
    };
    let mut lines = divide_lines(pos, depth, &divide, RootOrder::Stockfish);
    // Stockfish 15.1 ends its divide with a blank line.
    lines.push(String::new());
    if let Some(total) = breakdown {
        let rows: Vec<String> = total
            .iter()
            .map(|(label, n)| format!("{label} {n}"))
            .collect();
        lines.push(format!("info string perft stats: {}", rows.join(", ")));
    }
    lines
}
