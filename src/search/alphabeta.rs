//! The search proper: principal variation search with a transposition table and
//! tablebase probes; the static evaluation corrected by what the search learnt of the
//! pawn structure (correction history); before the moves, reverse futility, null-move
//! pruning, razoring and ProbCut; internal iterative reductions when there is no hash
//! move; singular extensions (double ones, bounded per path, and multi-cut); late-move,
//! futility and SEE pruning before a move is made; late-move reductions; check
//! extensions; and a quiescence search over captures and promotions.

use super::draw::{insufficient_material, is_repetition};
use super::endgame::known_ending;
use super::ordering::{Heuristics, MAX_PLY, Picker, PieceTo, SEE_VALUE, Scores, captured, see_ge};
use super::params::*;
use super::root::{RootMoves, ScoreBound};
use super::score::{INF, MATE, TB_WIN_BOUND};
use super::shared::Shared;
use super::tablebase::wdl_score;
use super::time::Clock;
use super::tt::Bound;
use crate::board::{Move, PieceType, Position};
use crate::movegen::{MoveList, generate_all, legal_moves, tactical_moves_into};
use crate::nnue::AccumulatorStack;
use crate::syzygy;
use std::sync::Arc;

/// How often (in nodes) the clock and the stop flag are looked at.
const CHECK_EVERY: u64 = 1024;

/// The state of one search thread: the position being searched and what it learns.
pub struct Search<'a> {
    /// The position at the current node.
    pub pos: Position,
    /// Keys of the positions before the current one (game history, then the path).
    keys: Vec<u64>,
    /// The index in `keys` of the first position after the path's last null move (0
    /// without one): repetitions are looked for from there on only.
    null_floor: usize,
    heur: &'a mut Heuristics,
    /// The clock.
    pub clock: Clock,
    /// The table, the flags and the node counts all threads share.
    shared: &'a Shared<'a>,
    /// 0 for the main thread, which alone looks at the clock; helpers end when the main
    /// thread is done, on `stop`, or at the node limit.
    thread: usize,
    /// Nodes visited (main search and quiescence).
    pub nodes: u64,
    /// The deepest ply reached in this iteration.
    pub seldepth: usize,
    /// Set when the search ran out of time or was stopped; results are then partial.
    pub aborted: bool,
    /// Whether a stop may be honoured (false during the first iteration).
    pub can_abort: bool,
    /// The root moves and what their last searches found.
    pub root_moves: RootMoves,
    /// The MultiPV line being searched (0: the first): the root searches only the root
    /// moves from this index on.
    pub pv_idx: usize,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    evals: [i32; MAX_PLY + 2],
    /// Double extensions on the path to each ply (bounded by [`DE_MAX`]).
    doubles: [u8; MAX_PLY + 2],
    lmr: Box<[[u8; 64]; 64]>,
    /// The evaluation network's accumulators along the current path.
    acc: AccumulatorStack,
    /// The move made at each ply of the current path ([`PieceTo::NONE`] for a null move).
    moved: [PieceTo; MAX_PLY + 2],
}

/// The score adjusted for storage: mate and tablebase scores counted from the node, not
/// the root.
#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score + ply as i32
    } else if score <= -TB_WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The reverse of [`to_tt`].
#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= TB_WIN_BOUND {
        score - ply as i32
    } else if score <= -TB_WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl<'a> Search<'a> {
    /// Thread `thread` (0: the main one) of a search of `pos`, whose predecessors' keys
    /// are `history` (oldest first), over `root_moves` only.
    pub fn new(
        pos: &Position,
        history: &[u64],
        root_moves: RootMoves,
        heur: &'a mut Heuristics,
        clock: Clock,
        shared: &'a Shared<'a>,
        thread: usize,
    ) -> Self {
        // The parameters are in hundredths: 64 and 218 are 0.64 and 2.18 exactly.
        let (base, divisor) = (
            f64::from(lmr_base()) / 100.0,
            f64::from(lmr_divisor()) / 100.0,
        );
        let mut lmr = Box::new([[0u8; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as u8;
            }
        }
        let mut keys = Vec::with_capacity(history.len() + MAX_PLY + 8);
        keys.extend_from_slice(history);
        let acc = AccumulatorStack::new(Arc::clone(shared.network), pos, MAX_PLY + 1);
        Self {
            pos: pos.clone(),
            keys,
            null_floor: 0,
            heur,
            clock,
            shared,
            thread,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            can_abort: false,
            root_moves,
            pv_idx: 0,
            pv: vec![[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 2],
            doubles: [0; MAX_PLY + 2],
            lmr,
            acc,
            moved: [PieceTo::NONE; MAX_PLY + 2],
        }
    }

    /// The principal variation of the last root search (empty if none completed a move).
    pub fn root_pv(&self) -> &[Move] {
        &self.pv[0][..self.pv_len[0]]
    }

    /// The share (0 to 1) of this thread's root-move nodes that went to `mv`.
    pub fn root_share(&self, mv: Move) -> f64 {
        self.root_moves.node_share(mv)
    }

    /// Permille of the hash table filled in this search.
    pub fn tt_hashfull(&self) -> u32 {
        self.shared.tt.hashfull()
    }

    /// Tablebase hits so far, all threads.
    pub fn tb_hits(&self) -> u64 {
        self.shared.tb_hits()
    }

    /// Nodes visited so far by every thread of the search (exact for this one, at most
    /// [`CHECK_EVERY`] short for each helper).
    pub fn total_nodes(&self) -> u64 {
        if self.thread == 0 {
            self.nodes + self.shared.helper_nodes()
        } else {
            self.nodes
        }
    }

    /// Searches the root to `depth` within (`alpha`, `beta`).
    pub fn root(&mut self, alpha: i32, beta: i32, depth: i32) -> i32 {
        self.seldepth = 0;
        self.negamax(alpha, beta, depth, 0, false, None)
    }

    /// Counts a node; checks the clock and the limits every so often.
    #[inline]
    fn visit(&mut self, ply: usize) {
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if !self.can_abort {
            return;
        }
        if self.thread == 0
            && let Some(limit) = self.shared.node_limit
            && self.nodes >= limit
        {
            self.aborted = true;
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) && self.must_stop() {
            self.aborted = true;
        }
    }

    /// Whether this thread must end its search now: any thread once the node counts all
    /// threads published reach the node limit; the main thread on `stop` or past its
    /// hard time limit; a helper on `stop` or once the main thread is done.
    #[cold]
    fn must_stop(&mut self) -> bool {
        self.shared.publish(self.thread, self.nodes);
        let told = if self.thread > 0 {
            self.shared.done() || self.shared.control.stopped()
        } else {
            self.clock.must_stop(self.shared.control)
        };
        told || self.shared.past_node_limit()
    }

    /// Makes `mv` at `ply`: the position, the path's keys and the next accumulator.
    #[inline]
    fn make(&mut self, mv: Move, ply: usize) -> crate::board::Undo {
        self.keys.push(self.pos.key());
        self.acc.push_move(ply, &self.pos, mv);
        self.moved[ply] = PieceTo::of(&self.pos, mv);
        let undo = self.pos.make(mv);
        self.shared.tt.prefetch(self.pos.key());
        undo
    }

    /// The continuation context of a node at `ply`: the moves one and two plies back.
    #[inline]
    fn context(&self, ply: usize) -> [PieceTo; 2] {
        let back = |n: usize| ply.checked_sub(n).map_or(PieceTo::NONE, |p| self.moved[p]);
        [back(1), back(2)]
    }

    /// The static evaluation of the position at `ply` (side to move's view): the
    /// network's, or a rule's in the few endings it misjudges; kept below the mate
    /// scores so that no evaluation is ever read as a mate.
    #[inline]
    fn evaluate(&mut self, ply: usize) -> i32 {
        if let Some(score) = known_ending(&self.pos) {
            return score;
        }
        let eval = self.acc.evaluate(ply, &self.pos);
        eval.clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: &crate::board::Undo) {
        self.pos.unmake(mv, undo);
        self.keys.pop();
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][ply] = mv;
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }

    /// Records root move `i`'s search (score `score` against the window `alpha`, `beta`
    /// it was searched in, its PV in the row below the root), as Stockfish does: the
    /// first move of a line and every move that raised alpha keep their score and PV,
    /// marked as a bound when they fell outside the window; the others get `-INF`.
    fn record_root(&mut self, i: usize, score: i32, alpha: i32, beta: i32, first: bool) {
        let seldepth = self.seldepth;
        let child = &self.pv[1][1..self.pv_len[1].max(1)];
        let rm = self.root_moves.get_mut(i);
        if first || score > alpha {
            rm.score = score;
            rm.bound = if score >= beta {
                ScoreBound::Lower
            } else if score <= alpha {
                ScoreBound::Upper
            } else {
                ScoreBound::Exact
            };
            rm.seldepth = seldepth;
            rm.pv.truncate(1);
            rm.pv.extend_from_slice(child);
        } else {
            rm.score = -INF;
        }
    }

    /// Whether the side to move has a piece other than pawns and the king.
    fn has_pieces(&self) -> bool {
        let us = self.pos.side_to_move();
        let pawns_king =
            self.pos.colored(us, PieceType::Pawn) | self.pos.colored(us, PieceType::King);
        (self.pos.color(us) & !pawns_king).any()
    }

    /// The WDL tables' score and bound for the position at `ply`, counted as a hit; `None`
    /// when no table covers it.
    #[cold]
    #[inline(never)]
    fn probe_tables(&mut self, ply: usize) -> Option<(i32, Bound)> {
        let wdl = syzygy::probe_wdl(&self.pos)?;
        self.shared.count_tb_hit();
        Some(wdl_score(wdl, ply, self.shared.tb.rule50))
    }

    /// Principal variation search of the current node; `excluded` is a move left out
    /// (the singular extension's verification search).
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        after_null: bool,
        excluded: Option<Move>,
    ) -> i32 {
        let in_check = self.pos.in_check();
        if depth <= 0 && !in_check {
            return self.quiesce(alpha, beta, ply);
        }
        depth = depth.max(1);
        self.pv_len[ply] = ply;
        self.visit(ply);
        if self.aborted {
            return 0;
        }
        let root = ply == 0;
        let pv_node = beta - alpha > 1;
        // Children inherit the path's double extensions; the move loop adds its own.
        self.doubles[ply + 1] = self.doubles[ply];
        if !root {
            if insufficient_material(&self.pos)
                || is_repetition(&self.pos, &self.keys, ply, self.null_floor)
            {
                return 0;
            }
            // The fifty-move rule draws only when the side to move is not mated: a
            // mate given on the hundredth half-move wins.
            if self.pos.halfmove_clock() >= 100 {
                return if in_check && legal_moves(&self.pos).is_empty() {
                    -MATE + ply as i32
                } else {
                    0
                };
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { 0 } else { self.evaluate(ply) };
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        let key = self.pos.key();
        // The verification search of a singular extension must not see (or overwrite)
        // the entry of the full node it verifies.
        let hit = if excluded.is_some() {
            None
        } else {
            self.shared.tt.probe(key)
        };
        // Below the first MultiPV line the root tries first the move that held this
        // line in the last iteration (the table's move belongs to the first line).
        let later_line = root && self.pv_idx > 0;
        let hash_move = if later_line {
            self.root_moves.as_slice().get(self.pv_idx).map(|rm| rm.mv)
        } else {
            hit.and_then(|h| h.mv)
        };
        if let Some(h) = hit
            && !pv_node
            && !root
            && h.depth >= depth
        {
            let score = from_tt(h.score, ply);
            let cut = match h.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                return score;
            }
        }

        // Tablebases: the exact result of a position just after a capture or pawn move.
        // A decisive result that does not cut still bounds a PV node from one side.
        let mut tb_floor = -INF;
        let mut tb_ceiling = INF;
        if !root
            && excluded.is_none()
            && self.shared.tb.wants(&self.pos, depth)
            && let Some((score, bound)) = self.probe_tables(ply)
        {
            let cut = match bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                let eval = if in_check { -INF } else { self.evaluate(ply) };
                let stored_depth = (depth + 6).min(MAX_PLY as i32 - 1);
                let stored = to_tt(score, ply);
                self.shared
                    .tt
                    .store(key, None, stored, eval, stored_depth, bound);
                return score;
            }
            if pv_node {
                if bound == Bound::Lower {
                    tb_floor = score;
                    alpha = alpha.max(score);
                } else {
                    tb_ceiling = score;
                }
            }
        }

        let us = self.pos.side_to_move();
        let raw_eval = if in_check {
            -INF
        } else {
            hit.map_or_else(|| self.evaluate(ply), |h| h.eval)
        };
        // The network's error on positions with this pawn structure, learnt in search.
        let corrected = if in_check {
            -INF
        } else {
            let c = raw_eval + self.heur.correction(us, &self.pos);
            c.clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
        };
        let static_eval = match hit {
            Some(h) if !in_check && h.score.abs() < TB_WIN_BOUND => {
                let s = h.score;
                match h.bound {
                    Bound::Lower if s > corrected => s,
                    Bound::Upper if s < corrected => s,
                    Bound::Exact => s,
                    _ => corrected,
                }
            }
            _ => corrected,
        };
        self.evals[ply] = corrected;
        let improving = !in_check && ply >= 2 && corrected > self.evals[ply - 2];

        if !pv_node && !in_check && !root && excluded.is_none() {
            // Reverse futility: far above beta with little depth left.
            if depth <= rfp_max_depth()
                && static_eval - (rfp_margin() - rfp_improving_bonus() * improving as i32) * depth
                    >= beta
                && beta.abs() < TB_WIN_BOUND
            {
                return static_eval;
            }
            // Null move: if passing still beats beta, a real move will too.
            if !after_null && depth >= nmp_min_depth() && static_eval >= beta && self.has_pieces() {
                let r = nmp_base()
                    + depth / nmp_depth_divisor()
                    + ((static_eval - beta) / nmp_eval_divisor()).min(nmp_eval_max());
                self.keys.push(key);
                let floor = std::mem::replace(&mut self.null_floor, self.keys.len());
                self.acc.push_null(ply);
                self.moved[ply] = PieceTo::NONE;
                let undo = self.pos.make_null();
                let score = -self.negamax(-beta, -beta + 1, depth - 1 - r, ply + 1, true, None);
                self.pos.unmake_null(&undo);
                self.null_floor = floor;
                self.keys.pop();
                if self.aborted {
                    return 0;
                }
                if score >= beta {
                    return if score >= TB_WIN_BOUND { beta } else { score };
                }
            }
            // Razoring: hopeless nodes near the leaves go straight to quiescence.
            if depth <= razor_max_depth() && static_eval + razor_margin() * depth <= alpha {
                let score = self.quiesce(alpha, beta, ply);
                if score <= alpha {
                    return score;
                }
            }
            // ProbCut: a capture that beats beta by a margin in a much shallower search
            // will almost surely beat beta in the full one.
            let pc_beta = beta + probcut_margin();
            // The depth a ProbCut result stands for: one ply more than its search's.
            let pc_depth = depth - probcut_reduction() + 1;
            if depth >= probcut_min_depth()
                && beta.abs() < TB_WIN_BOUND
                && !hit.is_some_and(|h| h.depth >= pc_depth && from_tt(h.score, ply) < pc_beta)
            {
                let mut captures = MoveList::new();
                tactical_moves_into(&self.pos, &mut captures);
                let mut scores = Scores::default();
                let mut picker = Picker::tactical(&mut scores, &self.pos, &mut captures, hash_move);
                while let Some((mv, _)) = picker.pick() {
                    if !see_ge(&self.pos, mv, pc_beta - static_eval) {
                        continue;
                    }
                    let undo = self.make(mv, ply);
                    let mut score = -self.quiesce(-pc_beta, -pc_beta + 1, ply + 1);
                    if score >= pc_beta {
                        let d = pc_depth - 1;
                        score = -self.negamax(-pc_beta, -pc_beta + 1, d, ply + 1, false, None);
                    }
                    self.unmake(mv, &undo);
                    if self.aborted {
                        return 0;
                    }
                    if score >= pc_beta {
                        let stored = to_tt(score, ply);
                        self.shared.tt.store(
                            key,
                            Some(mv),
                            stored,
                            raw_eval,
                            pc_depth,
                            Bound::Lower,
                        );
                        return score;
                    }
                }
            }
        }
        // No hash move at a deep node: a shallower search here is cheap to redo.
        if depth >= iir_min_depth() && hash_move.is_none() {
            depth -= 1;
        }

        let mut list = MoveList::new();
        generate_all(&self.pos, &mut list);
        if list.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        // Singular extension: the hash move is searched a ply deeper when every other
        // move falls well short of its stored score, two plies deeper when they fall
        // far short (a few times per path); when even the others beat beta, the node
        // is cut at once (multi-cut).
        let mut singular = None;
        let mut double = false;
        if let Some(h) = hit
            && !root
            && depth >= se_min_depth()
            && h.mv.is_some()
            && h.depth >= depth - se_tt_depth_margin()
            && h.bound != Bound::Upper
            && h.score.abs() < TB_WIN_BOUND
        {
            let s_beta = from_tt(h.score, ply) - se_margin() * depth / 8;
            let score = self.negamax(s_beta - 1, s_beta, (depth - 1) / 2, ply, false, h.mv);
            if self.aborted {
                return 0;
            }
            self.pv_len[ply] = ply;
            if score < s_beta {
                singular = h.mv;
                double = !pv_node
                    && score < s_beta - de_margin()
                    && i32::from(self.doubles[ply]) < de_max();
            } else if s_beta >= beta {
                return s_beta;
            }
        }

        let ctx = self.context(ply);
        let mut scores = Scores::default();
        let mut picker = Picker::new(
            &mut scores,
            &self.pos,
            &mut list,
            hash_move,
            self.heur,
            ply,
            &ctx,
        );
        let mut best = tb_floor;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets = [(Move::NULL, PieceTo::NONE); 64];
        let mut n_quiets = 0;
        let killers = self.heur.killers[ply];
        let check = self.pos.check_squares();
        // The moves of this line's tablebase group (all, without a ranking) end here.
        let line_end = if root {
            self.root_moves.group_end(self.pv_idx)
        } else {
            0
        };
        while let Some((mv, order)) = picker.pick() {
            if Some(mv) == excluded {
                continue;
            }
            // At the root, the move's place among the moves this MultiPV line may take
            // (`searchmoves`, less the earlier lines' moves, within its tablebase group).
            let root_index = if root {
                match self.root_moves.index_of(mv) {
                    Some(i) if i >= self.pv_idx && i < line_end => i,
                    _ => continue,
                }
            } else {
                0
            };
            let capture = captured(&self.pos, mv);
            let quiet = capture.is_none() && mv.promotion_piece().is_none();
            let piece_to = PieceTo::of(&self.pos, mv);
            let gives_check = self.pos.gives_check_with(&check, mv);
            // Pruned before the move is made: most moves looked at near the leaves are.
            if !root && best > -TB_WIN_BOUND && !in_check && !gives_check {
                let prune = if quiet {
                    let lmp = (lmp_base() + depth * depth) as usize / (2 - improving as usize);
                    (depth <= lmp_max_depth() && searched >= lmp)
                        || (depth <= futility_max_depth()
                            && !pv_node
                            && corrected + futility_base() + futility_margin() * depth <= alpha
                            && searched > 0)
                } else {
                    depth <= see_prune_max_depth()
                        && Picker::is_bad_capture(order)
                        && !see_ge(&self.pos, mv, -see_prune_margin() * depth)
                };
                if prune {
                    continue;
                }
            }
            let nodes_before = self.nodes;
            let undo = self.make(mv, ply);
            let is_singular = Some(mv) == singular;
            let extension = if is_singular && double {
                2
            } else {
                (gives_check || is_singular) as i32
            };
            self.doubles[ply + 1] = self.doubles[ply] + (extension == 2) as u8;
            let new_depth = depth - 1 + extension;
            let mut score;
            if searched == 0 {
                score = -self.negamax(-beta, -alpha, new_depth, ply + 1, false, None);
            } else {
                let mut r = 0;
                if depth >= lmr_min_depth()
                    && searched > pv_node as usize
                    && (quiet || Picker::is_bad_capture(order))
                {
                    r = self.lmr[(depth as usize).min(63)][searched.min(63)] as i32;
                    r += !pv_node as i32;
                    r += !improving as i32;
                    r -= (mv == killers[0] || mv == killers[1]) as i32;
                    r -= gives_check as i32;
                    if quiet {
                        r -= self.heur.quiet_score(us, mv, piece_to, &ctx) / lmr_history_divisor();
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.negamax(-alpha - 1, -alpha, new_depth - r, ply + 1, false, None);
                if score > alpha && r > 0 {
                    score = -self.negamax(-alpha - 1, -alpha, new_depth, ply + 1, false, None);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(-beta, -alpha, new_depth, ply + 1, false, None);
                }
            }
            self.unmake(mv, &undo);
            if root {
                self.root_moves.get_mut(root_index).nodes += self.nodes - nodes_before;
            }
            if self.aborted {
                return 0;
            }
            searched += 1;
            if root {
                self.record_root(root_index, score, alpha, beta, searched == 1);
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if quiet {
                            self.heur.reward(
                                us,
                                ply,
                                depth,
                                (mv, piece_to),
                                &quiets[..n_quiets],
                                &ctx,
                            );
                        }
                        break;
                    }
                }
            }
            if quiet && n_quiets < quiets.len() && Some(mv) != best_move {
                quiets[n_quiets] = (mv, piece_to);
                n_quiets += 1;
            }
        }
        if searched == 0 {
            // Every move was excluded or filtered: the verification search of a singular
            // extension with a single legal move, or a root with no allowed move.
            return if excluded.is_some() {
                alpha
            } else if in_check {
                -MATE + ply as i32
            } else {
                0
            };
        }
        best = best.min(tb_ceiling);
        let bound = if best >= beta {
            Bound::Lower
        } else if best_move.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A later MultiPV line's root result is the best of some moves only: it is
        // neither the position's value nor its best move.
        if excluded.is_none() && !later_line {
            // Learn the evaluation's error where the search result is trustworthy: a
            // quiet best move (or none), and a bound that does not point the other way.
            let quiet_best = best_move.is_none_or(|mv| !self.pos.is_capture(mv));
            if !in_check
                && quiet_best
                && (bound != Bound::Lower || best > corrected)
                && (bound != Bound::Upper || best < corrected)
                && best.abs() < TB_WIN_BOUND
            {
                self.heur
                    .learn_correction(us, &self.pos, best - raw_eval, depth);
            }
            self.shared
                .tt
                .store(key, best_move, to_tt(best, ply), raw_eval, depth, bound);
        }
        best
    }

    /// Quiescence search: stand pat or play captures and promotions until quiet; all
    /// evasions when in check.
    fn quiesce(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv_len[ply] = ply;
        self.visit(ply);
        if self.aborted {
            return 0;
        }
        if insufficient_material(&self.pos) {
            return 0;
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(ply) };
        }
        let key = self.pos.key();
        let hit = self.shared.tt.probe(key);
        if let Some(h) = hit {
            let score = from_tt(h.score, ply);
            let cut = match h.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut && beta - alpha == 1 {
                return score;
            }
        }
        let mut best;
        let raw_eval;
        let mut list = MoveList::new();
        if in_check {
            best = -MATE + ply as i32;
            raw_eval = -INF;
            generate_all(&self.pos, &mut list);
            if list.is_empty() {
                return best;
            }
        } else {
            raw_eval = hit.map_or_else(|| self.evaluate(ply), |h| h.eval);
            best = raw_eval;
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
            tactical_moves_into(&self.pos, &mut list);
        }
        let mut scores = Scores::default();
        let hash_move = hit.and_then(|h| h.mv);
        let mut picker = Picker::tactical(&mut scores, &self.pos, &mut list, hash_move);
        let mut best_move = None;
        while let Some((mv, _)) = picker.pick() {
            if !in_check {
                if !see_ge(&self.pos, mv, 0) {
                    continue;
                }
                let gain = captured(&self.pos, mv).map_or(0, |p| SEE_VALUE[p.index()])
                    + mv.promotion_piece()
                        .map_or(0, |p| SEE_VALUE[p.index()] - 100);
                if raw_eval + gain + qs_delta_margin() <= alpha {
                    continue;
                }
            }
            self.acc.push_move(ply, &self.pos, mv);
            let undo = self.pos.make(mv);
            self.shared.tt.prefetch(self.pos.key());
            let score = -self.quiesce(-beta, -alpha, ply + 1);
            self.pos.unmake(mv, &undo);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, best_move, to_tt(best, ply), raw_eval, 0, bound);
        best
    }
}
