//! The hidden layer's values for both views, kept up to date move by move: a move only
//! adds and removes a few inputs, so the next ply's accumulator is this one plus and
//! minus a few weight rows. Along a search path ([`AccumulatorStack`]) a move only
//! records what it changes; the arithmetic is done when a position is evaluated, so
//! moves pruned or cut off before any evaluation cost nothing.

use super::features::index;
use super::network::{HIDDEN, Network};
use crate::board::{Color, Move, MoveKind, Piece, PieceType, Position, Square};
use std::sync::Arc;

/// The first layer's output (before activation) for white's view and black's view.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Indexed by the viewing colour.
    pub values: [[i16; HIDDEN]; 2],
}

/// The inputs a move turns off and on (at most two each: castling, captures).
#[derive(Clone, Copy)]
struct Delta {
    removed: [(Piece, Square); 2],
    n_removed: usize,
    added: [(Piece, Square); 2],
    n_added: usize,
}

impl Delta {
    /// No change (a null move).
    const NONE: Self = Self {
        removed: [(Piece::NONE, Square::new(0)); 2],
        n_removed: 0,
        added: [(Piece::NONE, Square::new(0)); 2],
        n_added: 0,
    };

    /// What `mv` changes in `pos` (before it is made).
    #[inline(always)]
    fn of(pos: &Position, mv: Move) -> Self {
        let (from, to) = (mv.from(), mv.to());
        let piece = pos.piece_on(from);
        let none = (Piece::NONE, from);
        let mut d = Self {
            removed: [(piece, from), none],
            n_removed: 1,
            added: [(piece, to), none],
            n_added: 1,
        };
        match mv.kind() {
            MoveKind::Normal | MoveKind::Promotion => {
                let captured = pos.piece_on(to);
                if !captured.is_none() {
                    d.removed[1] = (captured, to);
                    d.n_removed = 2;
                }
                if let Some(kind) = mv.promotion_piece() {
                    d.added[0] = (Piece::new(piece.color(), kind), to);
                }
            }
            MoveKind::EnPassant => {
                let captured = Piece::new(piece.color().flip(), PieceType::Pawn);
                d.removed[1] = (captured, Square::from_coords(to.file(), from.rank()));
                d.n_removed = 2;
            }
            MoveKind::Castling => {
                let rook = Piece::new(piece.color(), PieceType::Rook);
                d.removed[1] = (rook, to);
                d.n_removed = 2;
                d.added[0] = (piece, Move::castling_king_to(from, to));
                d.added[1] = (rook, Move::castling_rook_to(from, to));
                d.n_added = 2;
            }
        }
        d
    }
}

impl Accumulator {
    /// The accumulator of `pos`, computed from scratch.
    pub fn new(net: &Network, pos: &Position) -> Self {
        let mut acc = Self {
            values: [net.ft_bias; 2],
        };
        for sq in pos.occupied() {
            let piece = pos.piece_on(sq);
            for view in Color::ALL {
                let row = &net.ft_weights[index(view, piece, sq)];
                for (v, w) in acc.values[view.index()].iter_mut().zip(row) {
                    *v = v.wrapping_add(*w);
                }
            }
        }
        acc
    }

    /// Sets `self` to `prev` updated for `mv`, about to be made in `pos` (which `prev`
    /// describes).
    #[inline]
    pub fn update_from(&mut self, prev: &Self, net: &Network, pos: &Position, mv: Move) {
        self.apply_delta(prev, net, &Delta::of(pos, mv));
    }

    /// Sets `self` to `prev` with `d` applied, with the fastest arithmetic the CPU has.
    #[inline]
    fn apply_delta(&mut self, prev: &Self, net: &Network, d: &Delta) {
        #[cfg(target_arch = "x86_64")]
        if super::network::has_avx512() {
            // SAFETY: the CPU supports AVX-512 F and BW, the features `apply_avx512` is
            // compiled for.
            unsafe { self.apply_avx512(prev, net, d) };
            return;
        } else if super::network::has_avx2() {
            // SAFETY: the CPU supports AVX2, the only feature `apply_avx2` is compiled for.
            unsafe { self.apply_avx2(prev, net, d) };
            return;
        }
        self.apply(prev, net, d);
    }

    /// [`apply`](Self::apply) in AVX-512 registers, thirty-two 16-bit lanes at a time
    /// (the compiler keeps to 256-bit ones on its own).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn apply_avx512(&mut self, prev: &Self, net: &Network, d: &Delta) {
        if d.n_added == 0 {
            self.values = prev.values;
            return;
        }
        for view in Color::ALL {
            let row = |(piece, sq): (Piece, Square)| &net.ft_weights[index(view, piece, sq)];
            let out = &mut self.values[view.index()];
            let src = &prev.values[view.index()];
            let (add0, sub0) = (row(d.added[0]), row(d.removed[0]));
            match (d.n_added, d.n_removed) {
                (1, 1) => update_avx512(out, src, [add0], [sub0]),
                (1, _) => update_avx512(out, src, [add0], [sub0, row(d.removed[1])]),
                _ => {
                    let (add1, sub1) = (row(d.added[1]), row(d.removed[1]));
                    update_avx512(out, src, [add0, add1], [sub0, sub1]);
                }
            }
        }
    }

    /// [`apply`](Self::apply) compiled for AVX2 (sixteen 16-bit lanes at a time).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn apply_avx2(&mut self, prev: &Self, net: &Network, d: &Delta) {
        self.apply(prev, net, d);
    }

    /// Sets `self` to `prev` with the inputs of `d` turned off and on.
    #[inline(always)]
    fn apply(&mut self, prev: &Self, net: &Network, d: &Delta) {
        if d.n_added == 0 {
            self.values = prev.values;
            return;
        }
        for view in Color::ALL {
            let out = &mut self.values[view.index()];
            let src = &prev.values[view.index()];
            let add0 = &net.ft_weights[index(view, d.added[0].0, d.added[0].1)];
            let sub0 = &net.ft_weights[index(view, d.removed[0].0, d.removed[0].1)];
            match (d.n_added, d.n_removed) {
                (1, 1) => {
                    for i in 0..HIDDEN {
                        out[i] = src[i].wrapping_add(add0[i]).wrapping_sub(sub0[i]);
                    }
                }
                (1, _) => {
                    let sub1 = &net.ft_weights[index(view, d.removed[1].0, d.removed[1].1)];
                    for i in 0..HIDDEN {
                        out[i] = src[i]
                            .wrapping_add(add0[i])
                            .wrapping_sub(sub0[i])
                            .wrapping_sub(sub1[i]);
                    }
                }
                _ => {
                    let add1 = &net.ft_weights[index(view, d.added[1].0, d.added[1].1)];
                    let sub1 = &net.ft_weights[index(view, d.removed[1].0, d.removed[1].1)];
                    for i in 0..HIDDEN {
                        out[i] = src[i]
                            .wrapping_add(add0[i])
                            .wrapping_add(add1[i])
                            .wrapping_sub(sub0[i])
                            .wrapping_sub(sub1[i]);
                    }
                }
            }
        }
    }
}

/// `out = src + sum(adds) - sum(subs)`, lane by lane, wrapping, in AVX-512 registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
fn update_avx512<const A: usize, const S: usize>(
    out: &mut [i16; HIDDEN],
    src: &[i16; HIDDEN],
    adds: [&[i16; HIDDEN]; A],
    subs: [&[i16; HIDDEN]; S],
) {
    use std::arch::x86_64::*;
    const LANES: usize = 32;
    const _: () = assert!(HIDDEN.is_multiple_of(LANES));
    for i in (0..HIDDEN).step_by(LANES) {
        // SAFETY: `i + LANES <= HIDDEN`, so every load and the store stay inside their
        // arrays (unaligned 64-byte accesses).
        unsafe {
            let mut v = _mm512_loadu_si512(src.as_ptr().add(i).cast());
            for a in adds {
                v = _mm512_add_epi16(v, _mm512_loadu_si512(a.as_ptr().add(i).cast()));
            }
            for s in subs {
                v = _mm512_sub_epi16(v, _mm512_loadu_si512(s.as_ptr().add(i).cast()));
            }
            _mm512_storeu_si512(out.as_mut_ptr().add(i).cast(), v);
        }
    }
}

/// The accumulators of the positions along a search path, one per ply, brought up to
/// date only when a position is evaluated. It keeps its network to the end, whatever
/// [`super::set_network`] puts in place meanwhile.
pub struct AccumulatorStack {
    net: Arc<Network>,
    accs: Vec<Accumulator>,
    /// The change from the previous ply to each ply.
    deltas: Vec<Delta>,
    /// Whether each ply's accumulator is up to date (the root's always is).
    fresh: Vec<bool>,
}

impl AccumulatorStack {
    /// A stack for paths of up to `plies` plies from `root`, evaluated with `net`.
    pub fn new(net: Arc<Network>, root: &Position, plies: usize) -> Self {
        let mut fresh = vec![false; plies + 1];
        fresh[0] = true;
        Self {
            accs: vec![Accumulator::new(&net, root); plies + 1],
            net,
            deltas: vec![Delta::NONE; plies + 1],
            fresh,
        }
    }

    /// Records `mv`, about to be made in `pos` at `ply`.
    #[inline]
    pub fn push_move(&mut self, ply: usize, pos: &Position, mv: Move) {
        self.deltas[ply + 1] = Delta::of(pos, mv);
        self.fresh[ply + 1] = false;
    }

    /// Records a null move made at `ply`.
    #[inline]
    pub fn push_null(&mut self, ply: usize) {
        self.deltas[ply + 1] = Delta::NONE;
        self.fresh[ply + 1] = false;
    }

    /// The network's output for `pos`, the position at `ply`, in centipawns for its side
    /// to move.
    #[inline]
    pub fn evaluate(&mut self, ply: usize, pos: &Position) -> i32 {
        if !self.fresh[ply] {
            let mut base = ply - 1;
            while !self.fresh[base] {
                base -= 1;
            }
            for p in base + 1..=ply {
                let (done, rest) = self.accs.split_at_mut(p);
                rest[0].apply_delta(&done[p - 1], &self.net, &self.deltas[p]);
                self.fresh[p] = true;
            }
        }
        let pieces = pos.occupied().count();
        self.net
            .evaluate(&self.accs[ply], pos.side_to_move(), pieces)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::nnue::network;

    /// Every legal move of positions with captures, promotions, en passant and castling
    /// (standard and Chess960) updates the accumulator exactly as a fresh computation,
    /// in the plain code and in each SIMD path the CPU has.
    #[test]
    fn updates_equal_a_fresh_computation() {
        let net = network();
        for fen in [
            crate::board::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/8/3p4/1Pp4r/1K5k/5p2/4P1P1/1R6 w - c6 0 1",
            "1r2k1r1/8/8/8/8/8/8/R3K2R w HAgb - 0 1",
            "1rk3r1/8/8/8/8/8/8/1R1K2R1 b GBgb - 0 1",
        ] {
            let pos = Position::from_fen(fen).expect("valid FEN");
            let before = Accumulator::new(&net, &pos);
            for mv in legal_moves(&pos).iter().copied() {
                let mut after = pos.clone();
                after.play(mv);
                let fresh = Accumulator::new(&net, &after);
                let mut updated = before.clone();
                updated.update_from(&before, &net, &pos, mv);
                assert!(updated.values == fresh.values, "{fen} {mv:?}");
                // Each path the CPU has, not only the fastest that `update_from` takes.
                let d = Delta::of(&pos, mv);
                let mut plain = before.clone();
                plain.apply(&before, &net, &d);
                assert!(plain.values == fresh.values, "plain: {fen} {mv:?}");
                #[cfg(target_arch = "x86_64")]
                {
                    if crate::nnue::network::has_avx2() {
                        let mut avx2 = before.clone();
                        // SAFETY: the CPU supports AVX2.
                        unsafe { avx2.apply_avx2(&before, &net, &d) };
                        assert!(avx2.values == fresh.values, "AVX2: {fen} {mv:?}");
                    }
                    if crate::nnue::network::has_avx512() {
                        let mut avx512 = before.clone();
                        // SAFETY: the CPU supports AVX-512 F and BW.
                        unsafe { avx512.apply_avx512(&before, &net, &d) };
                        assert!(avx512.values == fresh.values, "AVX-512: {fen} {mv:?}");
                    }
                }
            }
        }
    }

    /// A path of moves and null moves evaluated lazily, at some plies only, gives the
    /// evaluation of a fresh computation at each.
    #[test]
    fn a_lazy_stack_evaluates_as_from_scratch() {
        let net = network();
        let mut pos = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .expect("valid FEN");
        let mut stack = AccumulatorStack::new(net, &pos, 16);
        for ply in 0..12 {
            if ply % 3 == 1 {
                let fresh = crate::nnue::evaluate(&pos);
                assert_eq!(stack.evaluate(ply, &pos), fresh, "ply {ply}");
            }
            if ply == 5 && !pos.in_check() {
                stack.push_null(ply);
                let _ = pos.make_null();
                continue;
            }
            let moves = legal_moves(&pos);
            let mv = moves[ply * 7 % moves.len()];
            stack.push_move(ply, &pos, mv);
            pos.play(mv);
        }
    }
}
