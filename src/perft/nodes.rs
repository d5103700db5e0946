//! What perft counts: leaf nodes, as a [`Count`] of the tree walk ([`super::tree`]),
//! with the hash table of subtree counts ([`Run`]).
//!
//! The last ply is never made, nor even listed: nodes two plies above the leaves
//! ("frontier" nodes) make each move as the generator hands it over (no move list), on
//! the bitboards of a copy only (`make_lite`), and count the replies by popcount. The
//! replies of pieces and pawns the move leaves alone are counted once per frontier node
//! ([`PieceCount`]).

use super::hash::Run;
use super::tree::Count;
use crate::attacks::Sliders;
use crate::board::{Move, Position};
use crate::movegen::{Counter, PieceCount, Side, Visitor, generate_with};
use std::marker::PhantomData;

impl Count for u64 {
    type Wide = u128;
    type Table = Run;

    const LEAF: u64 = 1;

    #[inline(always)]
    fn one<S: Side, L: Sliders>(pos: &mut Position) -> u64 {
        let mut counter = Counter(0);
        generate_with::<S, L, _>(pos, &mut counter);
        counter.0
    }

    #[inline(always)]
    fn two<S: Side, L: Sliders>(pos: &mut Position) -> u64 {
        frontier::<S, L>(pos)
    }

    #[inline(always)]
    fn narrow(wide: u128) -> Option<u64> {
        u64::try_from(wide).ok()
    }

    #[inline(always)]
    fn probe(table: &Run, key: u64, depth: u32) -> Option<u64> {
        table.probe(key, depth)
    }

    #[inline(always)]
    fn store(table: &Run, key: u64, depth: u32, count: &u64) {
        table.store(key, depth, *count);
    }

    #[inline(always)]
    fn prefetch(table: &Run, key: u64) {
        table.prefetch(key);
    }
}

/// A frontier node: each move made as the generator hands it over, the replies counted.
#[inline(always)]
fn frontier<S: Side, L: Sliders>(pos: &Position) -> u64 {
    let mut visitor = Frontier::<S, L> {
        child: pos.clone(),
        replies: PieceCount::new::<S::Them, L>(pos),
        nodes: 0,
        side: PhantomData,
    };
    generate_with::<S, L, _>(pos, &mut visitor);
    visitor.nodes
}

/// The visitor of a frontier node: makes each move on `child` and counts the replies
/// (what the move leaves alone counted once for all moves).
struct Frontier<S, L> {
    child: Position,
    /// The replies' piece moves, counted once for all the children.
    replies: PieceCount,
    nodes: u64,
    side: PhantomData<(S, L)>,
}

impl<S: Side, L: Sliders> Visitor for Frontier<S, L> {
    #[inline(always)]
    fn single(&mut self, mv: Move) {
        let undo = self.child.make_lite(mv);
        self.nodes += self.replies.count::<S::Them, L>(&self.child);
        self.child.unmake_lite(mv, &undo);
    }
}
