//! Lazy SMP: helper threads search the same root as the main thread, sharing only the
//! transposition table, so that each finds the others' results there.
//!
//! Helpers search the same MultiPV lines as the main thread, each line in turn.
//! Helpers differ from the main thread and from each other in depth: odd helpers start
//! one ply deeper and stay a ply ahead, and their move-ordering history is their own.
//! They never report, never look at the clock and end as soon as the main thread is done
//! (or `stop` arrives); only the main thread's result is played. Node counts are summed
//! over the threads.

use super::alphabeta::Search;
use super::ordering::Heuristics;
use super::root::RootMoves;
use super::shared::Shared;
use super::tablebase::RootRanking;
use super::time::Clock;
use super::{Limits, search_lines};
use crate::board::{Move, Position};
use std::thread::{Scope, ScopedJoinHandle};

/// What every helper searches.
#[derive(Clone, Copy)]
pub struct Root<'r> {
    /// The root position.
    pub pos: &'r Position,
    /// Keys of the positions before it.
    pub history: &'r [u64],
    /// The root moves allowed.
    pub moves: &'r [Move],
    /// The deepest iteration.
    pub max_depth: i32,
    /// MultiPV lines searched (at most the number of root moves).
    pub lines: usize,
    /// The tablebase rank of each of `moves` (empty when the tables did not rank them).
    pub tb_ranks: &'r [i32],
    /// The root's tablebase ranking, when the tables cover it (the main thread reports
    /// its scores).
    pub tablebase: Option<&'r RootRanking>,
}

impl Root<'_> {
    /// The moves the first line may take: those that keep the tablebase result, or
    /// every root move when the tables did not rank them.
    pub fn choices(&self) -> usize {
        self.tablebase.map_or(self.moves.len(), |r| r.best().len())
    }
}

/// Starts one helper thread per entry of `heurs` (helper `i + 1` uses `heurs[i]`);
/// each returns the nodes it visited. A helper that cannot be started is left out.
pub fn spawn_helpers<'scope, 'env>(
    scope: &'scope Scope<'scope, 'env>,
    heurs: &'env mut [Heuristics],
    root: Root<'env>,
    shared: &'env Shared<'env>,
) -> Vec<ScopedJoinHandle<'scope, u64>> {
    let mut handles = Vec::with_capacity(heurs.len());
    for (i, heur) in heurs.iter_mut().enumerate() {
        let spawned = std::thread::Builder::new()
            .name(format!("search-{}", i + 1))
            .stack_size(crate::threads::STACK_BYTES)
            .spawn_scoped(scope, move || helper(i + 1, root, heur, shared));
        match spawned {
            Ok(handle) => handles.push(handle),
            Err(e) => {
                crate::log_warn!("search helper {} not started: {e}", i + 1);
                break;
            }
        }
    }
    handles
}

/// Helper `thread`'s iterative deepening, until the main thread is done; its nodes.
fn helper(thread: usize, root: Root, heur: &mut Heuristics, shared: &Shared) -> u64 {
    let infinite = Limits {
        infinite: true,
        ..Default::default()
    };
    let clock = Clock::new(
        &infinite,
        root.pos.side_to_move(),
        0,
        std::time::Instant::now(),
    );
    let mut search = Search::new(
        root.pos,
        root.history,
        RootMoves::new(root.moves, root.tb_ranks),
        heur,
        clock,
        shared,
        thread,
    );
    search.can_abort = true;
    let mut score = 0;
    let mut depth = 1 + (thread % 2) as i32;
    while depth <= root.max_depth && !shared.done() {
        let (s, _) = search_lines(&mut search, depth, root.lines, score, &mut |_| {});
        if search.aborted {
            break;
        }
        score = s;
        depth += 1;
    }
    search.nodes
}
