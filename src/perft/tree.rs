//! The single-thread tree walk, specialised for speed.
//!
//! - Nodes two plies above the leaves ("frontier" nodes) make each move as the generator
//!   hands it over (no move list), on the bitboards of a copy only (`make_lite`), and
//!   count the replies by popcount: the last ply is never made. The replies of pieces
//!   and pawns the move leaves alone are counted once per frontier node
//!   ([`PieceCount`]).
//! - The side to move is a type ([`Side`]); the generator itself specialises on whether
//!   the side to move is in check.
//! - The walk is compiled three times: for any x86-64 with magic sliders, and with
//!   POPCNT, BMI1/2 and LZCNT enabled ([`modern_cpu`]) with magic or PEXT sliders (the
//!   slider look-up is a type, [`Sliders`], so the inner loop never asks which one to
//!   use); the copy is chosen at run time. The default build thus runs everywhere and is
//!   still fast where the CPU allows.
//! - Interior nodes of depth 2 and more are looked up in and stored to the optional
//!   [`Run`] of the hash table, and from depth 3 up they give up early once `stop` is set.
//! - Counts are `u64` in subtrees of at most [`NARROW_DEPTH`] plies, where they provably
//!   fit, and `u128` above (`wide` nodes), so no count wraps at any depth.

use super::hash::Run;
use crate::attacks::{self, Magics, Sliders};
use crate::board::{Color, Move, Position};
use crate::movegen::{
    Black, MoveList, PieceCount, Side, Visitor, White, count_legal, generate_with,
};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a walk shares with its caller: the optional hash table and the stop flag.
pub(crate) struct Ctx<'a> {
    /// The perft hash table, if any.
    pub hash: Option<&'a Run>,
    /// Set from outside to end the walk early; the count is then meaningless.
    pub stop: &'a AtomicBool,
}

/// More than the legal moves of any position [`Position::from_fen`] accepts, or any
/// position reached from one: a side has at most 15 pieces besides its king (more are
/// refused, and moves never add any), none with more than 27 moves (a queen; a pawn has
/// at most 12, three targets times four promotions), and its king at most 8 plus 2
/// castlings.
pub(crate) const MOVE_BOUND: u64 = 15 * 27 + 8 + 2;

/// The deepest subtree whose leaf count always fits in a `u64`: at most
/// `MOVE_BOUND^NARROW_DEPTH` leaves, which is below `2^64` (and the next power is not).
pub(crate) const NARROW_DEPTH: u32 = 7;

/// Children whose table buckets are fetched together before any of them is probed.
const PREFETCH: usize = 16;

const _: () = assert!(MOVE_BOUND.checked_pow(NARROW_DEPTH).is_some());
const _: () = assert!(MOVE_BOUND.checked_pow(NARROW_DEPTH + 1).is_none());

/// The number of leaf nodes `depth` plies below `pos`; meaningless once `ctx.stop` is set.
pub(crate) fn count(pos: &mut Position, depth: u32, ctx: &Ctx) -> u128 {
    match depth {
        0 => 1,
        1 => u128::from(count_legal(pos)),
        _ => {
            #[cfg(target_arch = "x86_64")]
            if modern_cpu() {
                if attacks::uses_pext() {
                    // SAFETY: the CPU has every feature `pext` was compiled for, and PEXT
                    // look-ups were chosen for it.
                    return unsafe { pext::root(pos, depth, ctx) };
                }
                // SAFETY: the CPU has every feature `modern` was compiled for.
                return unsafe { modern::root(pos, depth, ctx) };
            }
            baseline::root(pos, depth, ctx)
        }
    }
}

/// Whether the CPU runs the copy of the walk compiled with POPCNT, BMI1, BMI2 and LZCNT.
#[cfg(target_arch = "x86_64")]
pub(crate) fn modern_cpu() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
}

/// Whether the CPU runs the copy of the walk compiled with POPCNT, BMI1, BMI2 and LZCNT.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn modern_cpu() -> bool {
    false
}

/// A frontier node (depth 2): each move made as the generator hands it over (on the
/// bitboards of a copy, no move list), the replies counted (what the move leaves alone
/// counted once for all moves).
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

/// The visitor of a frontier node: makes each move on `child` and counts the replies.
struct Frontier<S, L> {
    child: Position,
    /// The replies' piece moves, counted once for all the children.
    replies: PieceCount,
    nodes: u64,
    side: PhantomData<(S, L)>,
}

impl<S: Side, L: Sliders> Frontier<S, L> {
    #[inline(always)]
    fn count(&mut self, mv: Move) {
        let undo = self.child.make_lite(mv);
        self.nodes += self.replies.count::<S::Them, L>(&self.child);
        self.child.unmake_lite(mv, &undo);
    }
}

impl<S: Side, L: Sliders> Visitor for Frontier<S, L> {
    #[inline(always)]
    fn single(&mut self, mv: Move) {
        self.count(mv);
    }
}

/// One copy of the recursive walk: `$sliders` is its slider look-up, `$feature` lists the
/// CPU features it is compiled for.
macro_rules! walk {
    ($name:ident, $sliders:ty $(, $feature:literal)?) => {
        pub(crate) mod $name {
            use super::*;

            /// This copy's slider look-up.
            type L = $sliders;

            /// The walk from a root of `depth >= 2`, whichever side is to move.
            $(#[target_feature(enable = $feature)])?
            pub(crate) fn root(pos: &mut Position, depth: u32, ctx: &Ctx) -> u128 {
                match pos.side_to_move() {
                    Color::White => wide::<White>(pos, depth, ctx),
                    Color::Black => wide::<Black>(pos, depth, ctx),
                }
            }

            /// A node of `depth >= 2`, `S` to move, whose count may not fit in a `u64`
            /// (`depth > NARROW_DEPTH`; below that it hands over to [`node`]). Its count
            /// is stored in the table only if the entry can hold it.
            $(#[target_feature(enable = $feature)])?
            fn wide<S: Side>(pos: &mut Position, depth: u32, ctx: &Ctx) -> u128 {
                if depth <= NARROW_DEPTH {
                    return u128::from(node::<S>(pos, depth, ctx));
                }
                let table = ctx.hash;
                if let Some(table) = table
                    && let Some(nodes) = table.probe(pos.key(), depth)
                {
                    return u128::from(nodes);
                }
                if ctx.stop.load(Ordering::Relaxed) {
                    return 0;
                }
                let mut moves = MoveList::new();
                generate_with::<S, L, _>(pos, &mut moves);
                let mut nodes = 0;
                for &mv in moves.iter() {
                    let undo = pos.make(mv);
                    nodes += wide::<S::Them>(pos, depth - 1, ctx);
                    pos.unmake(mv, &undo);
                }
                if let Some(table) = table
                    && let Ok(nodes) = u64::try_from(nodes)
                {
                    table.store(pos.key(), depth, nodes);
                }
                nodes
            }

            /// A node of `2 <= depth <= NARROW_DEPTH`, `S` to move.
            $(#[target_feature(enable = $feature)])?
            fn node<S: Side>(pos: &mut Position, depth: u32, ctx: &Ctx) -> u64 {
                if let Some(table) = ctx.hash
                    && let Some(nodes) = table.probe(pos.key(), depth)
                {
                    return nodes;
                }
                expand::<S>(pos, depth, ctx)
            }

            /// [`node`] past its table look-up (one that found nothing): counts the
            /// node from its moves and stores the count.
            $(#[target_feature(enable = $feature)])?
            fn expand<S: Side>(pos: &mut Position, depth: u32, ctx: &Ctx) -> u64 {
                let table = ctx.hash;
                let nodes = if depth == 2 {
                    frontier::<S, L>(pos)
                } else {
                    if ctx.stop.load(Ordering::Relaxed) {
                        return 0;
                    }
                    let mut moves = MoveList::new();
                    generate_with::<S, L, _>(pos, &mut moves);
                    match table {
                        None => {
                            let mut nodes = 0;
                            for &mv in moves.iter() {
                                let undo = pos.make(mv);
                                nodes += node::<S::Them>(pos, depth - 1, ctx);
                                pos.unmake(mv, &undo);
                                debug_assert_eq!(pos.key(), pos.compute_key());
                            }
                            nodes
                        }
                        Some(table) => children::<S>(pos, &moves, depth - 1, table, ctx),
                    }
                };
                if let Some(table) = table {
                    table.store(pos.key(), depth, nodes);
                }
                nodes
            }

            /// The counts of the children (`depth` plies each) `moves` lead to from
            /// `pos`, with a table: looked up in groups of [`PREFETCH`]. Every child of a
            /// group is made once to learn its key and have its bucket fetched, then the
            /// group is probed (each probe finding its bucket in cache instead of waiting
            /// for memory in turn), and only the children not found are made again and
            /// counted, without a second look-up. (Kept out of line: inlined, it slows
            /// the walk without a table.)
            $(#[target_feature(enable = $feature)])?
            #[inline(never)]
            fn children<S: Side>(
                pos: &mut Position,
                moves: &MoveList,
                depth: u32,
                table: &Run,
                ctx: &Ctx,
            ) -> u64 {
                let mut nodes = 0;
                for group in moves.chunks(PREFETCH) {
                    let mut keys = [0; PREFETCH];
                    for (key, &mv) in keys.iter_mut().zip(group) {
                        let undo = pos.make(mv);
                        *key = pos.key();
                        table.prefetch(*key);
                        pos.unmake(mv, &undo);
                    }
                    for (&key, &mv) in keys.iter().zip(group) {
                        nodes += match table.probe(key, depth) {
                            Some(count) => count,
                            None => {
                                let undo = pos.make(mv);
                                let count = expand::<S::Them>(pos, depth, ctx);
                                pos.unmake(mv, &undo);
                                count
                            }
                        };
                    }
                }
                nodes
            }
        }
    };
}

walk!(baseline, Magics);
#[cfg(target_arch = "x86_64")]
walk!(modern, Magics, "popcnt,bmi1,bmi2,lzcnt");
#[cfg(target_arch = "x86_64")]
walk!(pext, attacks::Pext, "popcnt,bmi1,bmi2,lzcnt");
