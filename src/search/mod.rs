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
mod limits;
pub(crate) mod ordering;
pub mod params;
pub mod selfplay;
pub(crate) mod smp;
pub(crate) mod time;
pub(crate) mod tt;

pub use limits::Limits;

use crate::board::{Move, Position};
use crate::movegen::legal_moves;
use alphabeta::{INF, MATE, MATE_BOUND, Search};
use ordering::{Heuristics, MAX_PLY};
use smp::{DoneOnDrop, Root, Shared};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use time::Clock;
use tt::Tt;

/// Flags the UCI loop flips while a search runs.
#[derive(Debug, Default)]
pub struct Control {
    /// Set by `stop` (and `quit`): the search ends as soon as it can.
    pub stop: AtomicBool,
    /// Set while pondering; `ponderhit` clears it and the clock starts to count.
    pub pondering: AtomicBool,
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

/// The last completed (or partially completed) iteration.
struct Best {
    depth: i32,
    score: i32,
    pv: Vec<Move>,
}

impl Searcher {
    /// A searcher with a hash table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Self {
        Self {
            tt: Tt::new(hash_mb),
            heur: Heuristics::default(),
            helpers: Vec::new(),
            threads: 1,
            move_overhead_ms: time::DEFAULT_MOVE_OVERHEAD_MS,
            last_nodes: 0,
        }
    }

    /// Resizes the hash table (UCI `Hash`); its contents are lost.
    pub fn set_hash(&mut self, mb: usize) {
        self.tt.resize(mb);
    }

    /// Puts `tt` in place of the hash table (one made ready elsewhere, so that the
    /// caller decides when the allocation is paid for); the old table is returned.
    pub fn install_table(&mut self, tt: Tt) -> Tt {
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
        self.threads = n.clamp(1, crate::perft::cores());
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
        let clock = Clock::new(limits, pos.side_to_move(), self.move_overhead_ms);
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
        self.tt.new_search();
        self.heur.new_search();
        self.helpers
            .resize_with(self.threads - 1, Heuristics::default);
        for heur in &mut self.helpers {
            heur.new_search();
        }
        let max_depth = limits
            .depth
            .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
        let shared = Shared::new(&self.tt, control, limits.nodes, self.helpers.len());
        let root = Root {
            pos,
            history,
            moves: &root_moves,
            max_depth,
        };
        let (main, helper_heurs) = (&mut self.heur, &mut self.helpers);
        let (best, nodes) = std::thread::scope(|scope| {
            let done = DoneOnDrop(&shared);
            let helpers = smp::spawn_helpers(scope, helper_heurs, root, &shared);
            let mut search = Search::new(pos, history, root_moves.clone(), main, clock, &shared, 0);
            let best = iterate(&mut search, root, limits, control, report);
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

/// The main thread's iterative deepening: reports each iteration, decides when to stop
/// deepening; the best result found.
fn iterate(
    search: &mut Search,
    root: Root,
    limits: &Limits,
    control: &Control,
    report: &mut dyn FnMut(String),
) -> Best {
    let mut best = Best {
        depth: 0,
        score: 0,
        pv: vec![root.moves[0]],
    };
    let mut stable_iterations = 0;
    // The score of every finished iteration, to see it fall.
    let mut scores = Vec::new();
    for depth in 1..=root.max_depth {
        let previous_best = best.pv[0];
        search.can_abort = depth > 1;
        let score = aspiration(search, depth, best.score);
        let pv = search.root_pv();
        if !pv.is_empty() && root.moves.contains(&pv[0]) {
            best.pv = pv.to_vec();
            if !search.aborted {
                best.score = score;
                best.depth = depth;
            }
        }
        if search.aborted {
            break;
        }
        report(info_line(search, &best, root.pos));
        // `mate N`: a mate in N moves or fewer was found (`mate 0` asks for none).
        if let Some(n) = limits.mate
            && (n == 0 || best.score >= MATE_BOUND && ((MATE - best.score + 1) / 2) as u32 <= n)
        {
            break;
        }
        if !limits.infinite && search.clock.is_timed() && root.moves.len() == 1 {
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
        report(info_line(search, &best, root.pos));
    }
    best
}

/// Searches one iteration in a window around the last score, widening on failure.
fn aspiration(search: &mut Search, depth: i32, last: i32) -> i32 {
    if depth < params::ASPIRATION_MIN_DEPTH || last.abs() >= MATE_BOUND {
        return search.root(-INF, INF, depth);
    }
    let mut delta = params::ASPIRATION_DELTA;
    let (mut alpha, mut beta) = ((last - delta).max(-INF), (last + delta).min(INF));
    loop {
        let score = search.root(alpha, beta, depth);
        if search.aborted {
            return score;
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
        if delta > params::ASPIRATION_MAX_DELTA {
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

/// `score cp X` or `score mate M` (M moves, negative when getting mated).
fn score_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

/// One `info` line for the best result so far (nodes and nps over all threads); the PV is cut at the first move that
/// is not legal (a defence against hash collisions).
fn info_line(search: &Search, best: &Best, root: &Position) -> String {
    let elapsed = search.clock.elapsed();
    let ms = elapsed.as_millis() as u64;
    let nodes = search.total_nodes();
    let nps = (nodes as u128 * 1_000_000 / elapsed.as_micros().max(1)) as u64;
    let mut pos = root.clone();
    let mut pv = String::new();
    for &mv in &best.pv {
        if !legal_moves(&pos).contains(&mv) {
            break;
        }
        pv.push(' ');
        pv.push_str(&mv.uci(pos.is_chess960()).to_string());
        pos.play(mv);
    }
    format!(
        "info depth {} seldepth {} multipv 1 score {} nodes {} nps {} hashfull {} time {} pv{}",
        best.depth.max(1),
        search.seldepth.max(1),
        score_text(best.score),
        nodes,
        nps,
        search.tt_hashfull(),
        ms,
        pv
    )
}
