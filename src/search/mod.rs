//! Search: iterative deepening over `alphabeta` with time management (`time`), a
//! transposition table (`tt`) shared by Lazy SMP helper threads (`smp`), move ordering
//! (`ordering`) and draw rules ([`draw`]).
//!
//! The interface the UCI worker uses is fixed here: a [`Searcher`] owned by the worker,
//! driven by [`Limits`] and a shared [`Control`], reporting `info` lines through a
//! callback and returning the move to play.

pub(crate) mod alphabeta;
pub mod draw;
pub(crate) mod endgame;
pub mod eval;
mod limits;
pub(crate) mod ordering;
pub mod params;
mod report;
pub(crate) mod root;
pub(crate) mod score;
pub mod selfplay;
pub(crate) mod shared;
pub mod skill;
pub(crate) mod smp;
pub mod tablebase;
pub(crate) mod time;
pub(crate) mod tt;
pub mod wdl;

pub use limits::Limits;
pub use skill::Skill;
pub use tablebase::Syzygy;

use crate::board::{Move, Position};
use crate::memory::TableError;
use crate::movegen::legal_moves;
use crate::nnue::Network;
use alphabeta::Search;
use ordering::{Heuristics, MAX_PLY};
use report::Report;
use root::{Line, RootMoves, ScoreBound};
use score::{INF, MATE, MATE_BOUND, TB_WIN_BOUND};
use selfplay::Rng;
use shared::{DoneOnDrop, Shared};
use smp::Root;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tablebase::{Probe, RootRanking};
use time::Clock;
use tt::Tt;

/// Flags the UCI loop flips while a search runs, and when its `go` arrived.
#[derive(Debug)]
pub struct Control {
    /// Set by `stop` (and `quit`): the search ends as soon as it can.
    pub stop: AtomicBool,
    /// Set while pondering; `ponderhit` clears it and the clock starts to count.
    pub pondering: AtomicBool,
    /// When the `go` was read: the search's clock runs from here, as the GUI's does
    /// from when it sent it, so the time the job waits to start (for the worker, a
    /// new hash table, a busy machine) is counted, not added to the move.
    pub received: Instant,
}

impl Default for Control {
    /// Flags down, received now.
    fn default() -> Self {
        Self {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            received: Instant::now(),
        }
    }
}

impl Control {
    /// Whether `stop` was received.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// The search's state kept between searches (hash table, history).
pub struct Searcher {
    tt: Tt,
    heur: Heuristics,
    /// The helper threads' move-ordering history (one fewer than `threads`).
    helpers: Vec<Heuristics>,
    threads: usize,
    move_overhead_ms: u64,
    last_nodes: u64,
    /// `MultiPV`: lines reported.
    multipv: usize,
    /// `Skill Level` / `UCI_LimitStrength`.
    skill: Skill,
    /// `UCI_ShowWDL`.
    show_wdl: bool,
    /// The weakened search's random pick.
    rng: Rng,
    /// How the tablebases are used (UCI `SyzygyProbeDepth`, `SyzygyProbeLimit`,
    /// `Syzygy50MoveRule`); the tables themselves are [`crate::syzygy`]'s.
    syzygy: Syzygy,
    /// The evaluation network every thread of the next search uses (UCI `EvalFile`).
    network: Arc<Network>,
}

/// The outcome of a search: the move to play and the expected reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply, for `bestmove ... ponder ...`.
    pub ponder: Option<Move>,
    /// The score of the last completed iteration, from the side to move's point of
    /// view (centipawns; mate in n plies is `MATE - n`, see [`is_mate_score`]).
    pub score: i32,
}

/// Whether `score` announces a mate (for either side).
pub fn is_mate_score(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// The deepest iteration started without a `depth` limit.
const MAX_DEPTH: i32 = MAX_PLY as i32 - 8;

/// The most MultiPV lines (UCI `MultiPV`).
pub const MAX_MULTIPV: usize = 256;

/// How long a search runs before it also reports a line whose aspiration window
/// failed (with `lowerbound` or `upperbound`), as Stockfish does: a GUI then sees
/// progress in a long analysis, and a fast game is not flooded with lines.
const REPORT_BOUNDS_AFTER: Duration = Duration::from_secs(3);

/// The last completed (or, with one line, partially completed) iteration.
struct Best {
    depth: i32,
    score: i32,
    pv: Vec<Move>,
}

/// How many lines one search looks at and how it reports them.
#[derive(Clone, Copy)]
struct View {
    /// Lines reported (`MultiPV`, at most the number of root moves).
    shown: usize,
    /// Whether to add `wdl` to the score.
    show_wdl: bool,
}

impl Searcher {
    /// A searcher with a hash table of `hash_mb` megabytes, or without one (every probe
    /// missing, a warning logged) if that memory cannot be had: [`Searcher::set_hash`]
    /// says why.
    pub fn new(hash_mb: usize) -> Self {
        let tt = Tt::new(hash_mb).unwrap_or_else(|e| {
            crate::log_warn!("no search hash table: {e}");
            Tt::none()
        });
        Self {
            tt,
            heur: Heuristics::default(),
            helpers: Vec::new(),
            threads: 1,
            move_overhead_ms: time::DEFAULT_MOVE_OVERHEAD_MS,
            last_nodes: 0,
            multipv: 1,
            skill: Skill::FULL,
            show_wdl: false,
            rng: Rng::new(time_seed()),
            syzygy: Syzygy::default(),
            network: crate::nnue::network(),
        }
    }

    /// The network the searches from now on evaluate with (UCI `EvalFile`); a new
    /// searcher has the one in use when it was made ([`crate::nnue::network`]).
    pub fn set_network(&mut self, network: Arc<Network>) {
        self.network = network;
    }

    /// How the tablebases loaded by [`crate::syzygy::load`] are used.
    pub fn set_syzygy(&mut self, syzygy: Syzygy) {
        self.syzygy = syzygy;
    }

    /// Sets the number of lines each search reports (UCI `MultiPV`, 1 to
    /// [`MAX_MULTIPV`]): every iteration searches the best move, then the best of the
    /// others, and so on, and reports each line; `bestmove` is the first line's move.
    pub fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.clamp(1, MAX_MULTIPV);
    }

    /// Sets the playing strength (UCI `Skill Level`, `UCI_LimitStrength`, `UCI_Elo`).
    pub fn set_skill(&mut self, skill: Skill) {
        self.skill = skill;
    }

    /// Whether score lines carry `wdl W D L` (UCI `UCI_ShowWDL`).
    pub fn set_show_wdl(&mut self, on: bool) {
        self.show_wdl = on;
    }

    /// Replaces the hash table with an empty one of `mb` megabytes (UCI `Hash`); if
    /// that memory cannot be had, says why and keeps the table it has.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), TableError> {
        self.tt = Tt::new(mb)?;
        Ok(())
    }

    /// Puts `tt` in place of the hash table (one made ready elsewhere, so that the
    /// caller decides when the allocation is paid for); the old table is returned. (The
    /// engine's: UCI makes the table on its own thread.)
    #[cfg(feature = "cli")]
    pub(crate) fn install_table(&mut self, tt: Tt) -> Tt {
        std::mem::replace(&mut self.tt, tt)
    }

    /// The hash table's size in MB.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Forgets the move-ordering history (killers, history scores), not the hash table.
    pub fn clear_history(&mut self) {
        self.heur.clear();
        self.helpers.clear();
    }

    /// Sets the number of search threads (UCI `Threads`): the main thread and `n - 1`
    /// Lazy SMP helpers (`smp`), started by each `go` and ended before `bestmove`.
    /// At most one per core (as perft), so that the UCI thread is always answered at
    /// once and no thread waits for a core.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, crate::threads::cores());
        self.helpers.truncate(self.threads - 1);
    }

    /// Time kept in reserve per move for the GUI and the link (UCI `Move Overhead`, ms).
    pub fn set_move_overhead(&mut self, ms: u64) {
        self.move_overhead_ms = ms;
    }

    /// Forgets everything learnt (UCI `ucinewgame`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.clear_history();
    }

    /// Nodes visited by the last search (all threads).
    pub fn last_nodes(&self) -> u64 {
        self.last_nodes
    }

    /// Searches `pos`. `history` holds the keys of the positions before it in the game
    /// (oldest first) for repetition draws. Each `info ...` line goes to `report`; the
    /// caller prints `bestmove` from the result. With `infinite` or `ponder`, returns
    /// only after `stop` (or, when pondering, after `ponderhit` and the search's end).
    pub fn go(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(String),
    ) -> SearchResult {
        let legal = legal_moves(pos);
        let mut root_moves: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|mv| limits.searchmoves.is_empty() || limits.searchmoves.contains(mv))
            .collect();
        if root_moves.is_empty() {
            root_moves = legal.to_vec();
        }
        let clock = if self.skill.enabled() {
            // A weakened search is a guest on the clock: it budgets as if it had only
            // a share of its time and increment (half for the weak levels), and keeps
            // at least `skill::OVERHEAD_MS` in reserve, so that even a loaded machine
            // never makes it lose on time.
            let share = self.skill.clock_share();
            let part = |t: Option<u64>| t.map(|t| (t as f64 * share) as u64);
            let budget = Limits {
                wtime: part(limits.wtime),
                btime: part(limits.btime),
                winc: part(limits.winc),
                binc: part(limits.binc),
                ..limits.clone()
            };
            let overhead = self.move_overhead_ms.max(skill::OVERHEAD_MS);
            Clock::new(&budget, pos.side_to_move(), overhead, control.received)
        } else {
            Clock::new(
                limits,
                pos.side_to_move(),
                self.move_overhead_ms,
                control.received,
            )
        };
        if root_moves.is_empty() {
            let score = if pos.in_check() { "mate 0" } else { "cp 0" };
            report(format!("info depth 0 score {score}"));
            wait_for_release(limits, control);
            self.last_nodes = 0;
            return SearchResult {
                best: None,
                ponder: None,
                score: if pos.in_check() { -MATE } else { 0 },
            };
        }
        let (ranking, probe) = self.tablebases(pos, history, &mut root_moves);
        let tb_ranks: Vec<i32> = ranking
            .as_ref()
            .map_or_else(Vec::new, |r| r.moves.iter().map(|m| m.rank).collect());
        let root_tb_hits = tb_ranks.len() as u64;
        self.tt.new_search();
        self.heur.new_search();
        self.helpers
            .resize_with(self.threads - 1, Heuristics::default);
        for heur in &mut self.helpers {
            heur.new_search();
        }
        let mut max_depth = limits
            .depth
            .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
        // A weakened search looks at a few lines to a shallow depth.
        let skill = self.skill.enabled().then_some(self.skill);
        let mut lines = self.multipv;
        if let Some(skill) = skill {
            max_depth = max_depth.min(skill.depth(&mut self.rng));
            lines = lines.max(skill.lines());
        }
        let view = View {
            shown: self.multipv.min(root_moves.len()),
            show_wdl: self.show_wdl,
        };
        let helpers = self.helpers.len();
        let shared = Shared::new(
            &self.tt,
            &self.network,
            control,
            limits.nodes,
            helpers,
            probe,
            root_tb_hits,
        );
        let root = Root {
            pos,
            history,
            moves: &root_moves,
            max_depth,
            lines: lines.min(root_moves.len()),
            tb_ranks: &tb_ranks,
            tablebase: ranking.as_ref(),
        };
        let (main, helper_heurs) = (&mut self.heur, &mut self.helpers);
        let rng = &mut self.rng;
        let (best, nodes) = std::thread::scope(|scope| {
            let done = DoneOnDrop(&shared);
            let helpers = smp::spawn_helpers(scope, helper_heurs, root, &shared);
            let moves = RootMoves::new(&root_moves, &tb_ranks);
            let mut search = Search::new(pos, history, moves, main, clock, &shared, 0);
            let (mut best, mut lines) = iterate(&mut search, root, limits, control, view, report);
            if let Some(skill) = skill {
                // Only among the lines that keep the tablebase result.
                let keeping = root.choices().min(lines.len());
                let pick = skill.pick(&lines[..keeping], rng);
                if pick > 0 {
                    // Played, so reported as the first line (as Stockfish does).
                    lines.swap(0, pick);
                    best.score = lines[0].score;
                    best.pv = lines[0].pv.clone();
                    report_lines(&search, root, view, &lines, 0, report);
                }
            }
            drop(done);
            let mut nodes = search.nodes;
            for helper in helpers {
                // A helper that panicked is re-raised here, to the caller's handler.
                nodes += helper
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e));
            }
            (best, nodes)
        });
        self.last_nodes = nodes;
        wait_for_release(limits, control);
        let best_move = best.pv[0];
        let ponder = best.pv.get(1).copied().filter(|&reply| {
            let mut after = pos.clone();
            after.play(best_move);
            legal_moves(&after).contains(&reply)
        });
        SearchResult {
            best: Some(best_move),
            ponder,
            score: best.score,
        }
    }
}

impl Searcher {
    /// The tablebases at the root: with few enough pieces, `root_moves` is ordered by
    /// tablebase rank, best first (the search then takes its first line among the moves
    /// that keep the result); the ranking (if any) and how the search probes. As in
    /// Stockfish, a root ranked by DTZ needs no probes below it, nor does one that is
    /// not won.
    fn tablebases(
        &self,
        pos: &Position,
        history: &[u64],
        root_moves: &mut Vec<Move>,
    ) -> (Option<RootRanking>, Probe) {
        let largest = crate::syzygy::largest();
        if largest == 0 || self.syzygy.probe_limit == 0 {
            return (None, Probe::default());
        }
        // A limit above the largest tables probes those at any depth.
        let (limit, depth) = if self.syzygy.probe_limit > largest {
            (largest, 0)
        } else {
            (self.syzygy.probe_limit, self.syzygy.probe_depth)
        };
        let rule50 = self.syzygy.rule50;
        let probe = Probe {
            limit,
            depth,
            rule50,
        };
        let Some(ranking) = tablebase::rank_root(pos, history, root_moves, limit, rule50) else {
            return (None, probe);
        };
        *root_moves = ranking.moves.iter().map(|m| m.mv).collect();
        let winning = ranking.moves.first().is_some_and(|m| m.score > 0);
        let probe = if ranking.by_dtz || !winning {
            Probe::default()
        } else {
            probe
        };
        (Some(ranking), probe)
    }
}

/// A clock-based seed for the weakened search's random pick.
fn time_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// The main thread's iterative deepening: reports each iteration, decides when to stop
/// deepening; the best result found and the lines of the last completed iteration
/// (`root.lines` of them, best first).
///
/// With one line, an iteration cut short by the clock or `stop` still counts for the
/// move it found best (with the last completed iteration's score), as before MultiPV
/// existed. With more, the last completed iteration's lines stand, and are reported
/// again: lines of a half-finished iteration are never reported as final.
fn iterate(
    search: &mut Search,
    root: Root,
    limits: &Limits,
    control: &Control,
    view: View,
    report: &mut dyn FnMut(String),
) -> (Best, Vec<Line>) {
    let mut best = Best {
        depth: 0,
        score: 0,
        pv: vec![root.moves[0]],
    };
    let mut lines: Vec<Line> = Vec::new();
    let mut stable_iterations = 0;
    // The score of every finished iteration, to see it fall.
    let mut scores = Vec::new();
    for depth in 1..=root.max_depth {
        let previous_best = best.pv[0];
        search.can_abort = depth > 1;
        let (score, pv) = search_lines(search, depth, root.lines, best.score, &mut |search| {
            if search.clock.elapsed() >= REPORT_BOUNDS_AFTER {
                let line = search.root_moves.line(search.pv_idx, depth);
                if line.score > -INF && search.pv_idx < view.shown {
                    report_lines(search, root, view, &[line], search.pv_idx, report);
                }
            }
        });
        if root.lines == 1 {
            if !pv.is_empty() && root.moves.contains(&pv[0]) {
                best.pv = pv;
                if !search.aborted {
                    best.score = score;
                    best.depth = depth;
                }
            }
        } else if !search.aborted {
            lines = (0..root.lines)
                .map(|i| search.root_moves.line(i, depth))
                .collect();
            best.pv = lines[0].pv.clone();
            best.score = lines[0].score;
            best.depth = depth;
        }
        if search.aborted {
            break;
        }
        if root.lines == 1 {
            lines = vec![single_line(search, &best)];
        }
        report_lines(search, root, view, &lines, 0, report);
        // `mate N`: a mate in N moves or fewer was found (`mate 0` asks for none).
        if let Some(n) = limits.mate
            && (n == 0 || best.score >= MATE_BOUND && ((MATE - best.score + 1) / 2) as u32 <= n)
        {
            break;
        }
        if !limits.infinite && search.clock.is_timed() && root.choices() == 1 {
            break;
        }
        stable_iterations = if best.pv[0] == previous_best {
            stable_iterations + 1
        } else {
            0
        };
        scores.push(best.score);
        let earlier = scores
            .len()
            .checked_sub(4)
            .map_or(best.score, |i| scores[i]);
        let fraction =
            time::deepen_fraction(depth, stable_iterations, search.root_share(best.pv[0]))
                * time::falling_score_factor(earlier, best.score, MATE_BOUND);
        if !limits.infinite && search.clock.should_not_deepen(control, fraction) {
            break;
        }
        if limits.nodes.is_some_and(|n| search.total_nodes() >= n) {
            break;
        }
    }
    if search.aborted {
        if root.lines == 1 {
            lines = vec![single_line(search, &best)];
        }
        report_lines(search, root, view, &lines, 0, report);
    }
    (best, lines)
}

/// The one line of a single-line search: `best`, at the iteration's seldepth.
fn single_line(search: &Search, best: &Best) -> Line {
    Line {
        depth: best.depth,
        seldepth: search.seldepth,
        score: best.score,
        bound: ScoreBound::Exact,
        pv: best.pv.clone(),
    }
}

/// Reports `lines` as MultiPV lines `first + 1`, `first + 2`, ... (those up to
/// `view.shown`).
fn report_lines(
    search: &Search,
    root: Root,
    view: View,
    lines: &[Line],
    first: usize,
    report: &mut dyn FnMut(String),
) {
    let stats = Report {
        root: root.pos,
        nodes: search.total_nodes(),
        elapsed: search.clock.elapsed(),
        hashfull: search.tt_hashfull(),
        tbhits: search.tb_hits(),
        show_wdl: view.show_wdl,
        tablebase: root.tablebase,
    };
    for (i, line) in lines.iter().enumerate() {
        if first + i < view.shown {
            report(stats.line(line, first + i + 1));
        }
    }
}

/// One iteration of `depth` over MultiPV lines 1 to `lines`: each line searched in
/// an aspiration window (the first around `last`, the score of the last iteration's
/// first line), then the moves it searched sorted best first, and the lines so far
/// sorted among themselves. Returns the first line's
/// score and the root's PV right after it was searched (the partial result if the
/// search was aborted then). `on_fail` sees the search after every failed window.
fn search_lines(
    search: &mut Search,
    depth: i32,
    lines: usize,
    last: i32,
    on_fail: &mut dyn FnMut(&Search),
) -> (i32, Vec<Move>) {
    search.root_moves.start_iteration();
    let mut first = (last, Vec::new());
    for pv_idx in 0..lines {
        search.pv_idx = pv_idx;
        let center = match pv_idx {
            0 => last,
            _ => search.root_moves.as_slice()[pv_idx].previous_score,
        };
        let score = aspiration(search, depth, center, on_fail);
        if pv_idx == 0 {
            first = (score, search.root_pv().to_vec());
        }
        if search.aborted {
            break;
        }
        search.root_moves.sort_lines(pv_idx + 1);
    }
    search.pv_idx = 0;
    first
}

/// Searches the current MultiPV line in a window around `last`, widening on failure;
/// the root moves it searched are sorted after each window.
fn aspiration(search: &mut Search, depth: i32, last: i32, on_fail: &mut dyn FnMut(&Search)) -> i32 {
    if depth < params::aspiration_min_depth() || last.abs() >= TB_WIN_BOUND {
        let score = search.root(-INF, INF, depth);
        if !search.aborted {
            search.root_moves.sort_from(search.pv_idx);
        }
        return score;
    }
    let mut delta = params::aspiration_delta();
    let (mut alpha, mut beta) = ((last - delta).max(-INF), (last + delta).min(INF));
    loop {
        let score = search.root(alpha, beta, depth);
        if search.aborted {
            return score;
        }
        search.root_moves.sort_from(search.pv_idx);
        if score <= alpha || score >= beta {
            on_fail(search);
        }
        if score <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (score - delta).max(-INF);
        } else if score >= beta {
            beta = (score + delta).min(INF);
        } else {
            return score;
        }
        delta += delta / 2;
        if delta > params::aspiration_max_delta() {
            alpha = -INF;
            beta = INF;
        }
    }
}

/// Blocks until `stop`, while the search must not end by itself (`infinite`, or
/// pondering before `ponderhit`).
fn wait_for_release(limits: &Limits, control: &Control) {
    while (limits.infinite || control.pondering.load(Ordering::Relaxed)) && !control.stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
}
