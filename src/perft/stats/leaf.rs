//! The last ply of a statistics walk, counted from target sets: the moves are not made,
//! except the few that give check (to see whether they mate) and the en passant and
//! castling moves (rare, and each changes more than two squares).
//!
//! With `eksq` the enemy king and `occ` the occupancy before the move:
//! - a piece gives **direct check** if its destination is one of the squares from which a
//!   piece of its kind attacks `eksq` through `occ` ([`Leaf::checks`]). Leaving `from`
//!   empty cannot open the destination's line to `eksq`: that needs `from` between the
//!   two, on the line the piece slides along, so the piece already attacked the king
//!   (an illegal position, the side not to move in check). Promotions change the kind
//!   of the piece and are looked at one by one, with `from` emptied;
//! - a piece gives **discovered check** if it is the only piece between `eksq` and one
//!   of our sliders on a line ([`Leaf::discoverers`]) and leaves that line. A square is
//!   on one line through `eksq` only, so a move uncovers at most one slider;
//! - so a check is direct or discovered or both (direct discovered: a double check);
//!   a double discovered check needs two squares emptied, which only en passant does
//!   (and Chess960 castling), both made one by one.
//!
//! Every check is counted by kind as it is found, and the move kept; once the generator
//! is done, each kept move that mates (rare) is classified again from the checkers it
//! leaves and moves from the checks of its kind to the mates of its kind.

use super::reference;
use super::{CheckKind, Tally, mates};
use crate::attacks::{self, Sliders};
use crate::board::{Bitboard, Move, PieceType, Position, Square};
use crate::movegen::{MoveList, Side, Visitor, generate_with};
use std::marker::PhantomData;

/// Adds the last-ply moves of `pos`, `S` to move, to `tally`, with the slider look-up `L`.
#[inline(always)]
pub(super) fn count<S: Side, L: Sliders>(pos: &mut Position, tally: &mut Tally) {
    let mut leaf = Leaf::<S, L>::new(pos, tally);
    generate_with::<S, L, _>(pos, &mut leaf);
    let Leaf {
        checking, singles, ..
    } = leaf;
    for &mv in checking.iter() {
        if let Some(kind) = mates::<S, L>(pos, mv) {
            *tally.checks.of_kind(kind) -= 1;
            *tally.mates.of_kind(kind) += 1;
        }
    }
    for &mv in singles.iter() {
        reference::record(tally, pos, mv);
    }
}

/// The visitor of a last-ply node.
struct Leaf<'a, S, L> {
    pos: &'a Position,
    tally: &'a mut Tally,
    /// Enemy pieces.
    theirs: Bitboard,
    /// The occupancy before the move.
    occ: Bitboard,
    /// The enemy king.
    eksq: Square,
    /// By piece type (index): the squares from which such a piece of ours would attack
    /// the enemy king (none for the king).
    checks: [Bitboard; 6],
    /// Our pieces that are the only piece between the enemy king and one of our sliders.
    discoverers: Bitboard,
    /// Moves that give check, to be looked at for mate once the generator is done.
    checking: MoveList,
    /// En passant and castling moves, to be made and recorded one by one.
    singles: MoveList,
    side: PhantomData<(S, L)>,
}

impl<'a, S: Side, L: Sliders> Leaf<'a, S, L> {
    #[inline(always)]
    fn new(pos: &'a Position, tally: &'a mut Tally) -> Self {
        let us = S::US;
        let occ = pos.occupied();
        let ours = pos.color(us);
        let eksq = pos.king(S::THEM);
        let bishop = L::bishop(eksq, occ);
        let rook = L::rook(eksq, occ);
        let checks = [
            attacks::pawn(S::THEM, eksq),
            attacks::knight(eksq),
            bishop,
            rook,
            bishop | rook,
            Bitboard::EMPTY,
        ];
        let queens = pos.pieces(PieceType::Queen);
        let our_rq = ours & (pos.pieces(PieceType::Rook) | queens);
        let our_bq = ours & (pos.pieces(PieceType::Bishop) | queens);
        let snipers = (attacks::rook_rays(eksq) & our_rq) | (attacks::bishop_rays(eksq) & our_bq);
        let mut discoverers = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = attacks::between(eksq, sniper) & occ;
            if !blockers.more_than_one() {
                discoverers |= blockers & ours;
            }
        }
        Self {
            pos,
            tally,
            theirs: pos.color(S::THEM),
            occ,
            eksq,
            checks,
            discoverers,
            checking: MoveList::new(),
            singles: MoveList::new(),
            side: PhantomData,
        }
    }

    /// Counts the moves to the squares of `direct` (which check directly) and
    /// `discovered` (which uncover a slider), one move each, by kind of check; keeps the
    /// checking ones as `make(to)`.
    #[inline(always)]
    fn checks_among(
        &mut self,
        direct: Bitboard,
        discovered: Bitboard,
        make: impl Fn(Square) -> Move,
    ) {
        let checking = direct | discovered;
        if checking.is_empty() {
            return;
        }
        let both = direct & discovered;
        let t = &mut self.tally.checks;
        t.direct += u64::from((direct & !discovered).count());
        t.discovered += u64::from((discovered & !direct).count());
        t.direct_discovered += u64::from(both.count());
        for to in checking {
            self.checking.push(make(to));
        }
    }

    /// The four promotions from `from` to `to`, one by one.
    #[inline(never)]
    fn promotions(&mut self, from: Square, to: Square) {
        let t = &mut *self.tally;
        t.nodes += 4;
        t.promotions += 4;
        if self.theirs.has(to) {
            t.captures += 4;
        }
        let discovered = self.discoverers.has(from) && !attacks::line(self.eksq, from).has(to);
        let occ = (self.occ ^ Bitboard::from(from)) | Bitboard::from(to);
        for mv in Move::promotions(from, to) {
            let reach = match mv.promotion_piece() {
                Some(PieceType::Knight) => attacks::knight(to),
                Some(PieceType::Bishop) => L::bishop(to, occ),
                Some(PieceType::Rook) => L::rook(to, occ),
                _ => L::rook(to, occ) | L::bishop(to, occ),
            };
            let direct = reach.has(self.eksq);
            if direct || discovered {
                let kind = CheckKind::of(direct && discovered, direct);
                *self.tally.checks.of_kind(kind) += 1;
                self.checking.push(mv);
            }
        }
    }
}

impl<S: Side, L: Sliders> Visitor for Leaf<'_, S, L> {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        let t = &mut *self.tally;
        t.nodes += u64::from(targets.count());
        t.captures += u64::from((targets & self.theirs).count());
        let kind = self.pos.piece_on(from).kind();
        let direct = targets & self.checks[kind.index()];
        let discovered = if self.discoverers.has(from) {
            targets & !attacks::line(self.eksq, from)
        } else {
            Bitboard::EMPTY
        };
        self.checks_among(direct, discovered, |to| Move::normal(from, to));
    }

    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, delta: i8, promotion: bool) {
        if promotion {
            for to in targets {
                self.promotions(to.offset(-delta), to);
            }
            return;
        }
        let t = &mut *self.tally;
        t.nodes += u64::from(targets.count());
        t.captures += u64::from((targets & self.theirs).count());
        let direct = targets & self.checks[PieceType::Pawn.index()];
        let mut discovered = Bitboard::EMPTY;
        for from in targets.shift(-delta) & self.discoverers {
            let to = from.offset(delta);
            if !attacks::line(self.eksq, from).has(to) {
                discovered |= Bitboard::from(to);
            }
        }
        self.checks_among(direct, discovered, |to| Move::normal(to.offset(-delta), to));
    }

    #[inline(always)]
    fn single(&mut self, mv: Move) {
        self.singles.push(mv);
    }
}
