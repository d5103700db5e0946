//! Endgame tablebases in the search, as Stockfish uses them:
//! - at the root, with few enough pieces, every move is ranked by its DTZ (or its WDL
//!   when the DTZ files are missing) and only the moves of the best rank are searched:
//!   the result is kept, and the search still chooses among the moves that keep it, so
//!   it mates rather than merely keeping the win ([`rank_root`]);
//! - inside the search, after a capture or a pawn move, a WDL probe gives the node its
//!   exact value ([`Probe`], [`wdl_score`]), when the root was not ranked by DTZ.
//!
//! A tablebase win at ply n scores `TB_WIN` - n: below every mate, above every
//! evaluation, and sooner wins (sooner conversions) score higher.

use super::draw::is_repetition;
use super::score::{MATE_BOUND, TB_WIN};
use super::tt::Bound;
use crate::board::{Move, Position};
use crate::movegen::legal_moves;
use crate::syzygy::{self, Wdl};

/// What the UCI options ask of the tablebases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Syzygy {
    /// `SyzygyProbeDepth`: the least depth at which the largest tables are probed.
    pub probe_depth: i32,
    /// `SyzygyProbeLimit`: positions with more pieces are not probed.
    pub probe_limit: u32,
    /// `Syzygy50MoveRule`: a win the fifty-move rule turns into a draw is a draw.
    pub rule50: bool,
}

impl Default for Syzygy {
    fn default() -> Self {
        Self {
            probe_depth: 1,
            probe_limit: syzygy::files::MAX_PIECES,
            rule50: true,
        }
    }
}

/// When the search probes the WDL tables (shared by the threads of one search).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Probe {
    /// Positions with at most this many pieces are probed (0: none is).
    pub limit: u32,
    /// Positions with exactly `limit` pieces are probed at this depth or more.
    pub depth: i32,
    /// Whether the fifty-move rule decides (cursed wins and blessed losses are draws).
    pub rule50: bool,
}

impl Probe {
    /// Whether a node of `depth` in `pos` is probed: few enough pieces, just after a
    /// capture or pawn move (the tables know nothing of the half-move clock), no
    /// castling rights.
    #[inline]
    pub fn wants(&self, pos: &Position, depth: i32) -> bool {
        if self.limit == 0 || pos.halfmove_clock() != 0 {
            return false;
        }
        let pieces = pos.occupied().count();
        pieces <= self.limit
            && (pieces < self.limit || depth >= self.depth)
            && pos.castling().bits() == 0
    }
}

/// The score and bound of a WDL probe at `ply`: a win is worth `TB_WIN` - `ply` (a lower
/// bound: a mate may be better), a loss the opposite (an upper bound); a draw, or with
/// the fifty-move rule a cursed win or blessed loss, is exact (a cursed win 2, a blessed
/// loss -2, so that the search still prefers the side that would win without the rule).
pub fn wdl_score(wdl: Wdl, ply: usize, rule50: bool) -> (i32, Bound) {
    let draw = rule50 as i32;
    let w = wdl.signed();
    if w > draw {
        (TB_WIN - ply as i32, Bound::Lower)
    } else if w < -draw {
        (-TB_WIN + ply as i32, Bound::Upper)
    } else {
        (2 * w * draw, Bound::Exact)
    }
}

/// A rank above every other: a win certain within the fifty-move rule (Stockfish's
/// `MAX_DTZ`).
const MAX_DTZ: i32 = 1 << 18;

/// A root move with its tablebase rank (higher is better) and the score it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ranked {
    /// The move.
    pub mv: Move,
    /// Wins certain within the fifty-move rule rank alike, then shorter distances to
    /// zeroing; draws 0; losses below, the longest resistance highest.
    pub rank: i32,
    /// The score shown for the move while the search finds no mate.
    pub score: i32,
}

/// The root position's tablebase ranking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    /// Every move of `moves`, best rank first (equal ranks in their given order).
    pub moves: Vec<Ranked>,
    /// Whether the DTZ tables ranked them (otherwise the WDL tables did).
    pub by_dtz: bool,
}

impl RootRanking {
    /// The moves of the best rank: those that keep the position's result.
    pub fn best(&self) -> Vec<Move> {
        let top = self.moves.first().map_or(0, |m| m.rank);
        self.moves
            .iter()
            .take_while(|m| m.rank == top)
            .map(|m| m.mv)
            .collect()
    }

    /// The score shown for `mv`, if ranked.
    pub fn score(&self, mv: Move) -> Option<i32> {
        self.moves.iter().find(|m| m.mv == mv).map(|m| m.score)
    }
}

/// Ranks `moves` (legal moves of `pos`) by the tablebases, when `pos` has at most
/// `limit` pieces and no castling rights and the tables cover it; `history` holds the
/// keys of the game's positions before `pos` since the last capture or pawn move.
pub fn rank_root(
    pos: &Position,
    history: &[u64],
    moves: &[Move],
    limit: u32,
    rule50: bool,
) -> Option<RootRanking> {
    let pieces = pos.occupied().count();
    if moves.is_empty() || pieces > limit || pos.castling().bits() != 0 {
        return None;
    }
    let mut ranked = by_dtz(pos, history, moves, rule50)
        .map(|r| (r, true))
        .or_else(|| by_wdl(pos, history, moves, rule50).map(|r| (r, false)))?;
    ranked.0.sort_by_key(|m| std::cmp::Reverse(m.rank));
    Some(RootRanking {
        moves: ranked.0,
        by_dtz: ranked.1,
    })
}

/// Whether the position after `mv` is a draw by the fifty-move rule or by threefold
/// repetition of the game's positions (Stockfish's `is_draw(1)` after the move).
fn draw_after(pos: &Position, history: &[u64], mv: Move) -> bool {
    let mut after = pos.clone();
    after.play(mv);
    if after.halfmove_clock() >= 100 {
        return !(after.in_check() && legal_moves(&after).is_empty());
    }
    let mut keys = history.to_vec();
    keys.push(pos.key());
    // One ply past the root every earlier position is the game's: a draw only the
    // third time.
    is_repetition(&after, &keys, 1, 0)
}

/// Whether a position since the last capture or pawn move, `pos` included, stood on
/// the board before (Stockfish's `has_repeated`): then no win is taken as certain.
fn has_repeated(pos: &Position, history: &[u64]) -> bool {
    let mut keys = history.to_vec();
    keys.push(pos.key());
    keys.iter().enumerate().any(|(i, k)| keys[..i].contains(k))
}

/// Ranks by DTZ (Stockfish's `root_probe`); `None` when a DTZ probe fails.
fn by_dtz(pos: &Position, history: &[u64], moves: &[Move], rule50: bool) -> Option<Vec<Ranked>> {
    let probe = syzygy::probe_root(pos)?;
    let clock = pos.halfmove_clock() as i32;
    let repeated = has_repeated(pos, history);
    let bound = if rule50 { MAX_DTZ - 100 } else { 1 };
    let mut ranked = Vec::with_capacity(moves.len());
    for &mv in moves {
        let (_, after) = probe.moves.iter().find(|(m, _)| *m == mv)?;
        let dtz = if draw_after(pos, history, mv) {
            0
        } else {
            after.dtz
        };
        let rank = if dtz > 0 {
            if dtz + clock <= 99 && !repeated {
                MAX_DTZ
            } else {
                MAX_DTZ - (dtz + clock)
            }
        } else if dtz < 0 {
            if -dtz * 2 + clock < 100 {
                -MAX_DTZ
            } else {
                -MAX_DTZ + (-dtz + clock)
            }
        } else {
            0
        };
        // Shown: a win as the best tablebase win, a cursed win as 3 to 100 cp growing as
        // the fifty-move draw comes nearer to being escaped, losses the same negated.
        let score = if rank >= bound {
            TB_WIN
        } else if rank > 0 {
            (rank - (MAX_DTZ - 200)).max(3) * 100 / 200
        } else if rank == 0 {
            0
        } else if rank > -bound {
            (rank + (MAX_DTZ - 200)).min(-3) * 100 / 200
        } else {
            -TB_WIN
        };
        ranked.push(Ranked { mv, rank, score });
    }
    Some(ranked)
}

/// Ranks by WDL when the DTZ files are missing (Stockfish's `root_probe_wdl`); `None`
/// when a probe fails.
fn by_wdl(pos: &Position, history: &[u64], moves: &[Move], rule50: bool) -> Option<Vec<Ranked>> {
    let mut ranked = Vec::with_capacity(moves.len());
    for &mv in moves {
        let wdl = if draw_after(pos, history, mv) {
            Wdl::Draw
        } else {
            let mut after = pos.clone();
            after.play(mv);
            // The opponent's result, seen from the side to move at the root.
            match syzygy::probe_wdl(&after)? {
                Wdl::Loss => Wdl::Win,
                Wdl::BlessedLoss => Wdl::CursedWin,
                Wdl::Draw => Wdl::Draw,
                Wdl::CursedWin => Wdl::BlessedLoss,
                Wdl::Win => Wdl::Loss,
            }
        };
        let rank =
            [-MAX_DTZ, -MAX_DTZ + 101, 0, MAX_DTZ - 101, MAX_DTZ][(wdl.signed() + 2) as usize];
        let shown = if rule50 {
            wdl.signed()
        } else {
            wdl.signed().signum() * 2
        };
        let score = [-TB_WIN, -2, 0, 2, TB_WIN][(shown + 2) as usize];
        ranked.push(Ranked { mv, rank, score });
    }
    Some(ranked)
}

/// The score to show for the root: the tablebase's for the move played, unless the
/// search found a mate.
pub fn shown_score(ranking: Option<&RootRanking>, best: Move, search_score: i32) -> i32 {
    match ranking.and_then(|r| r.score(best)) {
        Some(score) if search_score.abs() < MATE_BOUND => score,
        _ => search_score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_scores_order_mates_tablebase_results_and_evaluations() {
        let (win, bound) = wdl_score(Wdl::Win, 3, true);
        assert_eq!((win, bound), (TB_WIN - 3, Bound::Lower));
        assert!(win < MATE_BOUND && win > super::super::score::TB_WIN_BOUND);
        assert_eq!(wdl_score(Wdl::Loss, 3, true), (-TB_WIN + 3, Bound::Upper));
        assert_eq!(wdl_score(Wdl::CursedWin, 5, true), (2, Bound::Exact));
        assert_eq!(wdl_score(Wdl::BlessedLoss, 5, true), (-2, Bound::Exact));
        assert_eq!(wdl_score(Wdl::Draw, 5, true), (0, Bound::Exact));
        // Without the fifty-move rule a cursed win is a win.
        assert_eq!(
            wdl_score(Wdl::CursedWin, 5, false),
            (TB_WIN - 5, Bound::Lower)
        );
        assert_eq!(
            wdl_score(Wdl::BlessedLoss, 5, false),
            (-TB_WIN + 5, Bound::Upper)
        );
        // A win found sooner scores higher.
        assert!(wdl_score(Wdl::Win, 2, true).0 > wdl_score(Wdl::Win, 4, true).0);
    }

    #[test]
    fn probes_only_after_zeroing_moves_without_castling_rights() {
        let probe = Probe {
            limit: 4,
            depth: 3,
            rule50: true,
        };
        let pos = |fen: &str| Position::from_fen(fen).expect("valid FEN");
        assert!(probe.wants(&pos("8/8/8/8/8/2k5/8/KQ6 w - - 0 1"), 0));
        assert!(
            !probe.wants(&pos("8/8/8/8/8/2k5/8/KQ6 w - - 1 1"), 9),
            "clock"
        );
        assert!(
            !probe.wants(&pos("8/8/8/8/8/2k5/8/KQ4r1 w - - 0 1"), 2),
            "depth"
        );
        assert!(probe.wants(&pos("8/8/8/8/8/2k5/8/KQ4r1 w - - 0 1"), 3));
        assert!(
            !probe.wants(&pos("8/8/8/8/8/2k5/7p/KQ4r1 w - - 0 1"), 9),
            "pieces"
        );
        assert!(
            !probe.wants(&pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), 9),
            "castling"
        );
        assert!(!Probe::default().wants(&pos("8/8/8/8/8/2k5/8/KQ6 w - - 0 1"), 9));
    }

    #[test]
    fn repetitions_are_seen() {
        let pos = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 4 3").expect("valid FEN");
        assert!(!has_repeated(&pos, &[1, 2, 3]));
        assert!(has_repeated(&pos, &[1, 2, 1]));
        assert!(has_repeated(&pos, &[pos.key(), 2]));
    }
}
