//! The root move list: every move the search may play at the root (the legal moves, or
//! those `go searchmoves` names), each with what its last search found.
//!
//! MultiPV searches its lines one after another over this list, as Stockfish does: line
//! `k` searches only the moves from index `k` on (the lines before it took the others),
//! and the moves it searched are then sorted by score, so that index `k` holds its
//! best. The search keeps whatever order it gets until the first line has been searched.
//!
//! When the tablebases rank the root moves ([`super::tablebase`]), the list comes best
//! rank first and each move keeps its rank: line `k` then searches only the moves from
//! index `k` to the end of its rank's group, and sorting never moves a move out of its
//! group. So the first line is always a move that keeps the result, and with more lines
//! the others follow, group by group (as Stockfish searches them).

use super::score::INF;
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
    /// Its tablebase rank (all 0 when the tables did not rank the root).
    pub tb_rank: i32,
}

impl RootMove {
    /// A move not searched yet, of tablebase rank `tb_rank`.
    pub fn new(mv: Move, tb_rank: i32) -> Self {
        Self {
            mv,
            score: -INF,
            previous_score: -INF,
            bound: ScoreBound::Exact,
            seldepth: 0,
            pv: vec![mv],
            nodes: 0,
            tb_rank,
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
    /// The list for `moves`, in the order given, with their tablebase ranks `tb_ranks`
    /// (non-increasing; empty when the tables did not rank the root).
    pub fn new(moves: &[Move], tb_ranks: &[i32]) -> Self {
        let rank = |i: usize| tb_ranks.get(i).copied().unwrap_or(0);
        Self {
            moves: moves
                .iter()
                .enumerate()
                .map(|(i, &mv)| RootMove::new(mv, rank(i)))
                .collect(),
        }
    }

    /// The end (exclusive) of the group of moves of the same tablebase rank as move `i`:
    /// the moves a line at index `i` may take are those from `i` to there.
    pub fn group_end(&self, i: usize) -> usize {
        let Some(rank) = self.moves.get(i).map(|rm| rm.tb_rank) else {
            return self.moves.len();
        };
        self.moves[i..]
            .iter()
            .position(|rm| rm.tb_rank != rank)
            .map_or(self.moves.len(), |n| i + n)
    }

    /// The start of the group of moves of the same tablebase rank as move `i`.
    fn group_start(&self, i: usize) -> usize {
        let rank = self.moves[i].tb_rank;
        self.moves[..i]
            .iter()
            .rposition(|rm| rm.tb_rank != rank)
            .map_or(0, |n| n + 1)
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

    /// Sorts the moves from index `from` to the end of its tablebase group by score,
    /// best first; equal scores keep their order.
    pub fn sort_from(&mut self, from: usize) {
        if from < self.moves.len() {
            let end = self.group_end(from);
            self.moves[from..end].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        }
    }

    /// Sorts the first `n` moves (the lines searched so far in this iteration) by
    /// score, within the tablebase group of the last: a later line searched with what
    /// the earlier ones left in the table can score above them, and then it is the
    /// better line (Stockfish does the same).
    pub fn sort_lines(&mut self, n: usize) {
        let n = n.min(self.moves.len());
        if n > 0 {
            let start = self.group_start(n - 1);
            self.moves[start..n].sort_by_key(|rm| std::cmp::Reverse(rm.score));
        }
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
        let mut list = RootMoves::new(&moves[..5], &[]);
        for (i, score) in [10, 50, 30, 50, -INF].into_iter().enumerate() {
            list.get_mut(i).score = score;
        }
        list.sort_from(1);
        let order: Vec<Move> = list.as_slice().iter().map(|rm| rm.mv).collect();
        assert_eq!(order, [moves[0], moves[1], moves[3], moves[2], moves[4]]);
        list.start_iteration();
        assert_eq!(list.as_slice()[1].previous_score, 50);
        assert_eq!(list.index_of(moves[2]), Some(3));
        assert_eq!(list.group_end(1), 5, "unranked: one group");
    }

    #[test]
    fn tablebase_groups_are_searched_and_sorted_apart() {
        let moves = legal_moves(&Position::startpos()).to_vec();
        // Two winning moves, two drawing, one losing.
        let mut list = RootMoves::new(&moves[..5], &[9, 9, 0, 0, -9]);
        assert_eq!([0, 1, 2, 3, 4].map(|i| list.group_end(i)), [2, 2, 4, 4, 5]);
        for (i, score) in [10, 20, 300, 400, 500].into_iter().enumerate() {
            list.get_mut(i).score = score;
        }
        list.sort_from(0);
        let order: Vec<Move> = list.as_slice().iter().map(|rm| rm.mv).collect();
        assert_eq!(order, [moves[1], moves[0], moves[2], moves[3], moves[4]]);
        // Lines 1 to 3 taken: the third (a draw) never climbs above the wins.
        list.sort_lines(3);
        assert_eq!(list.as_slice()[2].mv, moves[2]);
        list.sort_from(2);
        assert_eq!(list.as_slice()[2].mv, moves[3]);
        assert_eq!(list.as_slice()[4].mv, moves[4]);
    }
}
