//! Move ordering: hash move, then winning and equal captures (MVV-LVA, checked by SEE),
//! queen promotions, killers, quiet moves by history, and losing captures last.

use crate::attacks;
use crate::board::{Bitboard, Color, Move, MoveKind, Piece, PieceType, Position};
use crate::movegen::{MAX_MOVES, MoveList};
use std::mem::MaybeUninit;

/// Deepest ply the search reaches.
pub const MAX_PLY: usize = 128;

/// Values used by SEE and MVV-LVA (king high so it is never "won").
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20000];

/// A move's moving piece and target square, `piece * 64 + to`: what continuation
/// history is indexed by. [`PieceTo::NONE`] stands for no move (the root, a null move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    /// No move.
    pub const NONE: Self = Self(768);

    /// `mv` (legal in `pos`, not yet made).
    #[inline]
    pub fn of(pos: &Position, mv: Move) -> Self {
        Self((pos.piece_on(mv.from()).index() * 64 + mv.to().index()) as u16)
    }
}

/// The moves that led to a node, one and two plies back: its continuation context.
pub type Context = [PieceTo; 2];

/// What the search learns about quiet moves: killers per ply, butterfly history and
/// continuation history.
pub struct Heuristics {
    /// Two quiet moves per ply that caused a beta cut-off.
    pub killers: [[Move; 2]; MAX_PLY + 2],
    /// Butterfly history by colour, from and to square.
    history: Box<[[[i32; 64]; 64]; 2]>,
    /// Continuation history: `[back][earlier move][this move]` for the move one ply back
    /// (`back` 0) and two plies back (`back` 1), rows indexed by [`PieceTo`]. In `i16`
    /// (every score stays within [`HISTORY_MAX`] + 1): half the memory, so that more of
    /// the 1.2 MB each table takes stays in the cache.
    continuation: [Vec<[i16; 768]>; 2],
    /// Correction history: the evaluation's average error (in 1/[`CORRECTION_UNIT`]
    /// centipawns) by side to move and pawn structure.
    correction: Box<[[i32; CORRECTION_SIZE]; 2]>,
}

/// Entries per side of the correction history.
const CORRECTION_SIZE: usize = 16384;
/// The correction history's fixed-point unit.
const CORRECTION_UNIT: i32 = 256;
/// The largest correction, in centipawns.
const CORRECTION_MAX: i32 = 100;

/// A hash of the pawn structure (both sides' pawns), for the correction history.
#[inline]
fn pawn_hash(pos: &Position) -> usize {
    let white = pos.colored(Color::White, PieceType::Pawn).0;
    let black = pos.colored(Color::Black, PieceType::Pawn).0;
    let h = white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> 50) as usize % CORRECTION_SIZE
}

/// The history score's bound: updates shrink as they approach it.
const HISTORY_MAX: i32 = 16384;
const _: () = assert!(HISTORY_MAX < i16::MAX as i32);

impl Default for Heuristics {
    fn default() -> Self {
        Self {
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            history: Box::new([[[0; 64]; 64]; 2]),
            continuation: [vec![[0; 768]; 769], vec![[0; 768]; 769]],
            correction: Box::new([[0; CORRECTION_SIZE]; 2]),
        }
    }
}

impl Heuristics {
    /// Forgets everything.
    pub fn clear(&mut self) {
        *self = Self::default();
    }

    /// Forgets the killers (kept per search) and ages the butterfly history (the
    /// continuation history, twelve times larger, is kept as it is).
    pub fn new_search(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 2];
        for side in self.history.iter_mut() {
            for row in side.iter_mut() {
                for h in row.iter_mut() {
                    *h /= 2;
                }
            }
        }
    }

    /// What to add to the static evaluation of `pos` (`us` to move), in centipawns.
    #[inline]
    pub fn correction(&self, us: Color, pos: &Position) -> i32 {
        self.correction[us.index()][pawn_hash(pos)] / CORRECTION_UNIT
    }

    /// Learns from a search result that the evaluation of `pos` was off by `error`
    /// centipawns; deeper results weigh more.
    pub fn learn_correction(&mut self, us: Color, pos: &Position, error: i32, depth: i32) {
        let entry = &mut self.correction[us.index()][pawn_hash(pos)];
        let weight = (depth + 1).min(16);
        let target = error.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_UNIT;
        *entry = (*entry * (256 - weight) + target * weight) / 256;
    }

    /// A quiet move's whole history score: butterfly plus continuation history.
    #[inline]
    pub fn quiet_score(&self, us: Color, mv: Move, piece_to: PieceTo, ctx: &Context) -> i32 {
        self.history(us, mv)
            + i32::from(self.continuation[0][ctx[0].0 as usize][piece_to.0 as usize])
            + i32::from(self.continuation[1][ctx[1].0 as usize][piece_to.0 as usize])
    }

    /// The history score of a quiet move by `us`.
    #[inline]
    pub fn history(&self, us: Color, mv: Move) -> i32 {
        self.history[us.index()][mv.from().index()][mv.to().index()]
    }

    /// Rewards `best` (a quiet move that cut off) and penalises the quiet moves tried
    /// before it, each with its [`PieceTo`].
    pub fn reward(
        &mut self,
        us: Color,
        ply: usize,
        depth: i32,
        best: (Move, PieceTo),
        tried: &[(Move, PieceTo)],
        ctx: &Context,
    ) {
        let bonus = (depth * depth).min(400) * 8;
        self.update(us, best, bonus, ctx);
        for &mv in tried {
            self.update(us, mv, -bonus, ctx);
        }
        let best = best.0;
        let k = &mut self.killers[ply];
        if k[0] != best {
            k[1] = k[0];
            k[0] = best;
        }
    }

    #[inline]
    fn update(&mut self, us: Color, (mv, piece_to): (Move, PieceTo), bonus: i32, ctx: &Context) {
        let gravity = |h: &mut i32| *h += bonus - *h * bonus.abs() / HISTORY_MAX;
        gravity(&mut self.history[us.index()][mv.from().index()][mv.to().index()]);
        for (table, prev) in self.continuation.iter_mut().zip(ctx) {
            if *prev != PieceTo::NONE {
                let entry = &mut table[prev.0 as usize][piece_to.0 as usize];
                let mut h = i32::from(*entry);
                gravity(&mut h);
                *entry = h.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
            }
        }
    }
}

/// The piece a move captures (a pawn for en passant), if any.
#[inline]
pub fn captured(pos: &Position, mv: Move) -> Option<PieceType> {
    match mv.kind() {
        MoveKind::EnPassant => Some(PieceType::Pawn),
        MoveKind::Castling => None,
        _ => {
            let p = pos.piece_on(mv.to());
            (!p.is_none()).then(|| p.kind())
        }
    }
}

/// Static exchange evaluation: whether `mv` wins at least `threshold` centipawns once
/// all captures on its target square are played out, cheapest attacker first.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    if mv.kind() != MoveKind::Normal {
        return 0 >= threshold;
    }
    let (from, to) = (mv.from(), mv.to());
    let mut swap = captured(pos, mv).map_or(0, |p| SEE_VALUE[p.index()]) - threshold;
    if swap < 0 {
        return false;
    }
    swap = SEE_VALUE[pos.piece_on(from).kind().index()] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied() ^ Bitboard::from(from) ^ Bitboard::from(to);
    let mut side = pos.piece_on(from).color().flip();
    let mut attackers = pos.attackers_to(to, occ) & occ;
    let bishops = pos.pieces(PieceType::Bishop) | pos.pieces(PieceType::Queen);
    let rooks = pos.pieces(PieceType::Rook) | pos.pieces(PieceType::Queen);
    let mut result = true;
    loop {
        let mine = attackers & pos.color(side);
        if mine.is_empty() {
            break;
        }
        result = !result;
        let Some((kind, sq)) = PieceType::ALL.into_iter().find_map(|k| {
            let b = mine & pos.pieces(k);
            b.any().then(|| (k, b.lsb()))
        }) else {
            break;
        };
        if kind == PieceType::King {
            // The king may capture only if the other side has nothing left to recapture.
            if (attackers & pos.color(side.flip())).any() {
                result = !result;
            }
            break;
        }
        swap = SEE_VALUE[kind.index()] - swap;
        if swap < result as i32 {
            break;
        }
        occ ^= Bitboard::from(sq);
        if matches!(kind, PieceType::Pawn | PieceType::Bishop | PieceType::Queen) {
            attackers |= attacks::bishop(to, occ) & bishops;
        }
        if matches!(kind, PieceType::Rook | PieceType::Queen) {
            attackers |= attacks::rook(to, occ) & rooks;
        }
        attackers &= occ;
        side = side.flip();
    }
    result
}

/// Moves with ordering scores, handed out best first by selection. The moves are
/// reordered in the caller's list, the scores in the caller's [`Scores`]: a picker is
/// built at every node, and returning a kilobyte of scores from its constructor cost
/// the search a copy each time.
pub struct Picker<'a> {
    moves: &'a mut [Move],
    scores: &'a mut [MaybeUninit<i32>; MAX_MOVES],
    next: usize,
}

/// The storage of a [`Picker`]'s scores, never cleared (only one score per listed move
/// is written and read): zeroing it at every node cost the search over a quarter of its
/// instructions.
pub struct Scores([MaybeUninit<i32>; MAX_MOVES]);

impl Default for Scores {
    /// Storage for the scores of one node's moves, left uninitialised.
    #[inline(always)]
    fn default() -> Self {
        Self([MaybeUninit::uninit(); MAX_MOVES])
    }
}

const HASH: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER: i32 = 1_000_000;
const BAD_CAPTURE: i32 = -2_000_000;

impl<'a> Picker<'a> {
    /// Scores every move of `list` for a full-width node.
    pub fn new(
        scores: &'a mut Scores,
        pos: &Position,
        list: &'a mut MoveList,
        hash: Option<Move>,
        heur: &Heuristics,
        ply: usize,
        ctx: &Context,
    ) -> Self {
        let us = pos.side_to_move();
        let killers = heur.killers[ply];
        Self::build(scores, list, |mv| {
            if Some(mv) == hash {
                HASH
            } else if let Some(victim) = captured(pos, mv) {
                let base = if see_ge(pos, mv, 0) {
                    GOOD_CAPTURE
                } else {
                    BAD_CAPTURE
                };
                base + mvv_lva(pos, mv, victim)
            } else if mv.promotion_piece() == Some(PieceType::Queen) {
                GOOD_CAPTURE
            } else if mv.promotion_piece().is_some() {
                BAD_CAPTURE - 1000
            } else if mv == killers[0] {
                KILLER + 1
            } else if mv == killers[1] {
                KILLER
            } else {
                heur.quiet_score(us, mv, PieceTo::of(pos, mv), ctx)
            }
        })
    }

    /// Scores captures and promotions for quiescence search (MVV-LVA).
    pub fn tactical(
        scores: &'a mut Scores,
        pos: &Position,
        list: &'a mut MoveList,
        hash: Option<Move>,
    ) -> Self {
        Self::build(scores, list, |mv| {
            if Some(mv) == hash {
                return HASH;
            }
            let promo = mv.promotion_piece().map_or(0, |p| SEE_VALUE[p.index()]);
            promo + captured(pos, mv).map_or(0, |v| mvv_lva(pos, mv, v))
        })
    }

    #[inline(always)]
    fn build(scores: &'a mut Scores, list: &'a mut MoveList, score: impl Fn(Move) -> i32) -> Self {
        let scores = &mut scores.0;
        let moves = list.as_mut_slice();
        for (slot, &mv) in scores.iter_mut().zip(moves.iter()) {
            slot.write(score(mv));
        }
        Self {
            moves,
            scores,
            next: 0,
        }
    }

    /// The score of the `i`-th move.
    #[inline(always)]
    fn score(&self, i: usize) -> i32 {
        debug_assert!(i < self.moves.len());
        // SAFETY: `build` wrote a score for each of the list's moves, and `pick` only
        // swaps written entries; every caller passes `i < self.moves.len()`.
        unsafe { self.scores[i].assume_init() }
    }

    /// The best move not yet handed out, with its ordering score.
    #[inline]
    pub fn pick(&mut self) -> Option<(Move, i32)> {
        let len = self.moves.len();
        if self.next >= len {
            return None;
        }
        let mut best = self.next;
        let mut best_score = self.score(best);
        for i in self.next + 1..len {
            let s = self.score(i);
            if s > best_score {
                best = i;
                best_score = s;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some((self.moves[self.next - 1], best_score))
    }

    /// Whether an ordering score marks a capture SEE judged losing.
    pub fn is_bad_capture(score: i32) -> bool {
        score < BAD_CAPTURE / 2
    }
}

/// Most valuable victim first, then least valuable attacker.
#[inline]
fn mvv_lva(pos: &Position, mv: Move, victim: PieceType) -> i32 {
    let attacker: Piece = pos.piece_on(mv.from());
    SEE_VALUE[victim.index()] * 8 - attacker.kind().index() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::parse_move;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen).expect("valid FEN");
        let mv = parse_move(&pos, mv).expect("legal move");
        see_ge(&pos, mv, threshold)
    }

    #[test]
    fn static_exchange() {
        // Rook takes an undefended pawn: wins exactly a pawn.
        let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(see(fen, "e1e5", 0));
        assert!(see(fen, "e1e5", 100));
        assert!(!see(fen, "e1e5", 101));
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert!(!see(fen, "d3e5", 0));
        // An undefended queen is won.
        assert!(see("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1", "d1d5", 900));
    }
}
