//! The root move list: every move the search may play at the root (the legal moves, or
//! those `go searchmoves` names), each with what its last search found.
//!
//! MultiPV searches its lines one after another over this list, as Stockfish does: line
//! `k` searches only the moves from index `k` on (the lines before it took the others),
//! and the moves it searched are then sorted by score, so that index `k` holds its
//! best. A ranking of root moves made before the search (tablebases) filters or orders
//! the list before [`RootMoves::new`] takes it; the search keeps whatever order it gets
//! until the first line has been searched.

use super::alphabeta::INF;
use crate::board::Move;

/// How a recorded score relates to the move's true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The score is the move's value at that depth.
    Exact,
    /// The move is worth at least the score (it failed high).
    Lower,
    /// The move is worth at most the score (it failed low).
    Upper,
}

/// One root move and the result of its last search.
#[derive(Clone, Debug)]
pub struct RootMove {
    /// The move.
    pub mv: Move,
    /// Its score in the current iteration (side to move's view), or `-INF` when the
    /// last search of its line did not score it (another move was better).
    pub score: i32,
    /// Its score when the current iteration started.
    pub previous_score: i32,
    /// How `score` relates to the true value.
    pub bound: ScoreBound,
    /// The deepest ply the search had reached when `score` was recorded.
    pub seldepth: usize,
    /// Its principal variation, the move first.
    pub pv: Vec<Move>,
    /// Nodes searched below it in this search (the time manager's measure of how
    /// settled the best move is).
    pub nodes: u64,
}

impl RootMove {
    /// A move not searched yet.
    pub fn new(mv: Move) -> Self {
        Self {
            mv,
            score: -INF,
            previous_score: -INF,
            bound: ScoreBound::Exact,
            seldepth: 0,
            pv: vec![mv],
            nodes: 0,
        }
    }
}

/// One reported line: a root move's result frozen at the end of an iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The iteration's depth.
    pub depth: i32,
    /// The deepest ply reached.
    pub seldepth: usize,
    /// The score (side to move's view).
    pub score: i32,
    /// Whether the score is a bound.
    pub bound: ScoreBound,
    /// The principal variation (never empty).
    pub pv: Vec<Move>,
}

/// The root moves of one search thread.
#[derive(Clone, Debug)]
pub struct RootMoves {
    moves: Vec<RootMove>,
}

impl RootMoves {
    /// The list for `moves`, in the order given.
    pub fn new(moves: &[Move]) -> Self {
        Self {
            moves: moves.iter().map(|&mv| RootMove::new(mv)).collect(),
        }
    }

    /// The moves, best first as far as the lines searched so far have sorted them.
    pub fn as_slice(&self) -> &[RootMove] {
        &self.moves
    }

    /// The place of `mv` in the list, if it is there.
    pub fn index_of(&self, mv: Move) -> Option<usize> {
        self.moves.iter().position(|rm| rm.mv == mv)
    }

    /// Root move `i`, to record a result in.
    pub fn get_mut(&mut self, i: usize) -> &mut RootMove {
        &mut self.moves[i]
    }

    /// Starts an iteration: each move's score becomes its previous score.
    pub fn start_iteration(&mut self) {
        for rm in &mut self.moves {
            rm.previous_score = rm.score;
        }
    }

    /// Sorts the moves from index `from` on by score, best first; equal scores keep
    /// their order.
    pub fn sort_from(&mut self, from: usize) {
        if from < self.moves.len() {
            self.moves[from..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        }
    }

    /// Sorts the first `n` moves (the lines searched so far in this iteration) by
    /// score: a later line searched with what the earlier ones left in the table can
    /// score above them, and then it is the better line (Stockfish does the same).
    pub fn sort_lines(&mut self, n: usize) {
        let n = n.min(self.moves.len());
        self.moves[..n].sort_by_key(|rm| std::cmp::Reverse(rm.score));
    }

    /// Root move `i` as a line of depth `depth`.
    pub fn line(&self, i: usize, depth: i32) -> Line {
        let rm = &self.moves[i];
        Line {
            depth,
            seldepth: rm.seldepth,
            score: rm.score,
            bound: rm.bound,
            pv: rm.pv.clone(),
        }
    }

    /// The share (0 to 1) of the root's nodes that went to `mv`.
    pub fn node_share(&self, mv: Move) -> f64 {
        let total: u64 = self.moves.iter().map(|rm| rm.nodes).sum();
        self.index_of(mv)
            .map_or(0.0, |i| self.moves[i].nodes as f64 / total.max(1) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::movegen::legal_moves;

    #[test]
    fn sorting_keeps_the_taken_lines_and_ties_in_order() {
        let moves = legal_moves(&Position::startpos()).to_vec();
        let mut list = RootMoves::new(&moves[..5]);
        for (i, score) in [10, 50, 30, 50, -INF].into_iter().enumerate() {
            list.get_mut(i).score = score;
        }
        list.sort_from(1);
        let order: Vec<Move> = list.as_slice().iter().map(|rm| rm.mv).collect();
        assert_eq!(order, [moves[0], moves[1], moves[3], moves[2], moves[4]]);
        list.start_iteration();
        assert_eq!(list.as_slice()[1].previous_score, 50);
        assert_eq!(list.index_of(moves[2]), Some(3));
    }
}
