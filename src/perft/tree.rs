//! The tree walk, written once for whatever it counts: perft's leaf nodes (`u64`, see
//! [`nodes`](super::nodes)) or the statistics' breakdown by kind of move (`Tally`, see
//! `stats/count.rs`). The count type is the parameter ([`Count`]), as the visitor is
//! for the move generator; the walk itself, its rules and its CPU dispatch are here only.
//!
//! - The side to move is a type ([`Side`]); the last two plies are the count's own
//!   ([`Count::two`], [`Count::one`]): perft never makes the last ply, the statistics
//!   look at it from target sets.
//! - The walk is compiled three times: for any x86-64 with magic sliders, and with
//!   POPCNT, BMI1/2 and LZCNT enabled ([`modern_cpu`]) with magic or PEXT sliders (the
//!   slider look-up is a type, [`Sliders`], so the inner loop never asks which one to
//!   use); the copy is chosen at run time. The default build thus runs everywhere and is
//!   still fast where the CPU allows.
//!
//! The rules, in one place for every count:
//! - **Overflow.** Subtrees of at most [`NARROW_DEPTH`] plies are counted in the count
//!   type itself, where a count provably fits ([`MOVE_BOUND`]); above, in its
//!   [`Count::Wide`] form (`u128`), which the walk cannot fill: a table entry holds only
//!   a narrow count, so reaching 2^128 would take 2^64 narrow subtrees, centuries of work.
//! - **Table.** Nodes of depth 2 and more are looked up in the optional table and stored
//!   to it once counted; a wide count is stored only if it narrows.
//! - **Stop.** From depth 3 up a node gives up (counting nothing) once `stop` is set, so
//!   a count of depth 3 or more made after `stop` may be short: it is never stored
//!   ([`exact`]), and the caller throws the whole result away. Depth 2 never looks at
//!   `stop`, so its counts are always exact.

use crate::attacks::{self, Magics, Sliders};
use crate::board::{Color, Position};
use crate::movegen::{Black, MoveList, Side, White, generate_with};
use std::ops::AddAssign;
use std::sync::atomic::{AtomicBool, Ordering};

/// What the walk counts of a subtree (implemented by perft's `u64` and the statistics'
/// `Tally`): a count of a subtree of at most [`NARROW_DEPTH`] plies, added up with `+=`.
pub(crate) trait Count: Copy + Default + AddAssign + Send + Sync + 'static {
    /// The same count for a subtree of any depth.
    type Wide: Copy + Default + AddAssign + From<Self> + Send + 'static;
    /// The table of subtree counts the walk may use.
    type Table: Send + Sync + 'static;

    /// The count of the position itself (depth 0).
    const LEAF: Self;

    /// The count of the moves of `S`, who is to move in `pos` (depth 1).
    fn one<S: Side, L: Sliders>(pos: &mut Position) -> Self;

    /// The count two plies below `pos`, `S` to move (depth 2).
    fn two<S: Side, L: Sliders>(pos: &mut Position) -> Self;

    /// The wide count as a narrow one, if every number in it fits.
    fn narrow(wide: Self::Wide) -> Option<Self>;

    /// The count stored for the position with Zobrist key `key` at `depth`, if any.
    fn probe(table: &Self::Table, key: u64, depth: u32) -> Option<Self>;

    /// Stores `count` for the position with Zobrist key `key` at `depth`.
    fn store(table: &Self::Table, key: u64, depth: u32, count: &Self);

    /// Brings the table's entries for `key` into the cache, ahead of a probe.
    fn prefetch(table: &Self::Table, key: u64);
}

/// What a walk shares with its caller: the optional table and the stop flag.
pub(crate) struct Ctx<'a, C: Count> {
    /// The table of subtree counts, if any.
    pub table: Option<&'a C::Table>,
    /// Set from outside to end the walk early; the count is then meaningless.
    pub stop: &'a AtomicBool,
}

/// More than the legal moves of any position [`Position::from_fen`] accepts, or any
/// position reached from one: a side has at most 15 pieces besides its king (more are
/// refused, and moves never add any), none with more than 27 moves (a queen; a pawn has
/// at most 12, three targets times four promotions), and its king at most 8 plus 2
/// castlings.
const MOVE_BOUND: u64 = 15 * 27 + 8 + 2;

/// The deepest subtree whose leaf count always fits in a `u64`: at most
/// `MOVE_BOUND^NARROW_DEPTH` leaves, the highest power of [`MOVE_BOUND`] below `2^64`
/// (it is 7).
pub(crate) const NARROW_DEPTH: u32 = {
    let mut depth = 0;
    while MOVE_BOUND.checked_pow(depth + 1).is_some() {
        depth += 1;
    }
    depth
};

/// Children whose table entries are fetched together before any of them is probed.
const PREFETCH: usize = 16;

/// The count `depth` plies below `pos`; meaningless once `ctx.stop` is set.
pub(crate) fn count<C: Count>(pos: &mut Position, depth: u32, ctx: &Ctx<C>) -> C::Wide {
    if depth == 0 {
        return C::LEAF.into();
    }
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

/// Whether a count of `depth` just made is exact, and so may be stored: always at depth
/// 2 (which never looks at `stop`), from depth 3 up only if `stop` is not set. (A node
/// that gave up saw `stop` set on this thread before this load, which therefore sees
/// it too.)
#[inline(always)]
fn exact<C: Count>(depth: u32, ctx: &Ctx<C>) -> bool {
    depth <= 2 || !ctx.stop.load(Ordering::Relaxed)
}

/// One copy of the recursive walk: `$sliders` is its slider look-up, `$feature` lists the
/// CPU features it is compiled for.
macro_rules! walk {
    ($name:ident, $sliders:ty $(, $feature:literal)?) => {
        mod $name {
            use super::*;

            /// This copy's slider look-up.
            type L = $sliders;

            /// The walk from a root of `depth >= 1`, whichever side is to move.
            $(#[target_feature(enable = $feature)])?
            pub(super) fn root<C: Count>(pos: &mut Position, depth: u32, ctx: &Ctx<C>) -> C::Wide {
                match pos.side_to_move() {
                    Color::White => wide::<C, White>(pos, depth, ctx),
                    Color::Black => wide::<C, Black>(pos, depth, ctx),
                }
            }

            /// A node of `depth >= 1`, `S` to move, whose count may not fit the narrow
            /// type (`depth > NARROW_DEPTH`; below that it hands over to [`node`], and
            /// at depth 1 to the count's own [`Count::one`]).
            $(#[target_feature(enable = $feature)])?
            fn wide<C: Count, S: Side>(pos: &mut Position, depth: u32, ctx: &Ctx<C>) -> C::Wide {
                if depth == 1 {
                    return C::one::<S, L>(pos).into();
                }
                if depth <= NARROW_DEPTH {
                    return node::<C, S>(pos, depth, ctx).into();
                }
                if let Some(table) = ctx.table
                    && let Some(count) = C::probe(table, pos.key(), depth)
                {
                    return count.into();
                }
                if ctx.stop.load(Ordering::Relaxed) {
                    return C::Wide::default();
                }
                let mut moves = MoveList::new();
                generate_with::<S, L, _>(pos, &mut moves);
                let mut total = C::Wide::default();
                for &mv in moves.iter() {
                    let undo = pos.make(mv);
                    total += wide::<C, S::Them>(pos, depth - 1, ctx);
                    pos.unmake(mv, &undo);
                }
                if let Some(table) = ctx.table
                    && exact(depth, ctx)
                    && let Some(count) = C::narrow(total)
                {
                    C::store(table, pos.key(), depth, &count);
                }
                total
            }

            /// A node of `2 <= depth <= NARROW_DEPTH`, `S` to move.
            $(#[target_feature(enable = $feature)])?
            fn node<C: Count, S: Side>(pos: &mut Position, depth: u32, ctx: &Ctx<C>) -> C {
                if let Some(table) = ctx.table
                    && let Some(count) = C::probe(table, pos.key(), depth)
                {
                    return count;
                }
                expand::<C, S>(pos, depth, ctx)
            }

            /// [`node`] of `depth >= 2` past its table look-up (one that found nothing):
            /// counts the node from its moves and stores the count.
            $(#[target_feature(enable = $feature)])?
            fn expand<C: Count, S: Side>(pos: &mut Position, depth: u32, ctx: &Ctx<C>) -> C {
                let count = if depth == 2 {
                    C::two::<S, L>(pos)
                } else {
                    if ctx.stop.load(Ordering::Relaxed) {
                        return C::default();
                    }
                    let mut moves = MoveList::new();
                    generate_with::<S, L, _>(pos, &mut moves);
                    match ctx.table {
                        None => {
                            let mut count = C::default();
                            for &mv in moves.iter() {
                                let undo = pos.make(mv);
                                count += node::<C, S::Them>(pos, depth - 1, ctx);
                                pos.unmake(mv, &undo);
                                debug_assert_eq!(pos.key(), pos.compute_key());
                            }
                            count
                        }
                        Some(table) => children::<C, S>(pos, &moves, depth - 1, table, ctx),
                    }
                };
                if let Some(table) = ctx.table
                    && exact(depth, ctx)
                {
                    C::store(table, pos.key(), depth, &count);
                }
                count
            }

            /// The counts of the children (`depth >= 2` plies each) `moves` lead to
            /// from `pos`, with a table: looked up in groups of [`PREFETCH`]. Every child
            /// of a group is made once to learn its key and have its entries fetched,
            /// then the group is probed (each probe finding its entries in cache instead
            /// of waiting for memory in turn), and only the children not found are made
            /// again and counted, without a second look-up. (Kept out of line: inlined,
            /// it slows the walk without a table.)
            $(#[target_feature(enable = $feature)])?
            #[inline(never)]
            fn children<C: Count, S: Side>(
                pos: &mut Position,
                moves: &MoveList,
                depth: u32,
                table: &C::Table,
                ctx: &Ctx<C>,
            ) -> C {
                let mut count = C::default();
                for group in moves.chunks(PREFETCH) {
                    let mut keys = [0; PREFETCH];
                    for (key, &mv) in keys.iter_mut().zip(group) {
                        let undo = pos.make(mv);
                        *key = pos.key();
                        C::prefetch(table, *key);
                        pos.unmake(mv, &undo);
                    }
                    for (&key, &mv) in keys.iter().zip(group) {
                        count += match C::probe(table, key, depth) {
                            Some(found) => found,
                            None => {
                                let undo = pos.make(mv);
                                let found = expand::<C, S::Them>(pos, depth, ctx);
                                pos.unmake(mv, &undo);
                                debug_assert_eq!(pos.key(), pos.compute_key());
                                found
                            }
                        };
                    }
                }
                count
            }
        }
    };
}

walk!(baseline, Magics);
#[cfg(target_arch = "x86_64")]
walk!(modern, Magics, "popcnt,bmi1,bmi2,lzcnt");
#[cfg(target_arch = "x86_64")]
walk!(pext, attacks::Pext, "popcnt,bmi1,bmi2,lzcnt");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_counts_fit() {
        assert_eq!(NARROW_DEPTH, 7);
        assert!(MOVE_BOUND.checked_pow(NARROW_DEPTH).is_some());
        assert!(MOVE_BOUND.checked_pow(NARROW_DEPTH + 1).is_none());
    }
}
