//! The statistics walk: interior nodes made with `make`, the last ply counted by
//! [`leaf`](super::leaf). Like perft's walk ([`tree`](crate::perft::tree)) it is compiled
//! for any x86-64 and with POPCNT, BMI1/2 and LZCNT (chosen at run time; only perft's
//! walk has a third copy, with PEXT sliders), counts
//! in `u64` ([`Tally`]) in subtrees of at most [`NARROW_DEPTH`] plies and in `u128`
//! above, looks up and stores interior nodes of depth 2 and more in the optional table,
//! and from depth 3 up gives up early once `stop` is set.

use super::table::Table;
use super::{Stats, Tally, leaf};
use crate::board::{Color, Position};
use crate::movegen::{Black, MoveList, Side, White, generate};
use crate::perft::parallel::Walk;
use crate::perft::tree::{NARROW_DEPTH, modern_cpu};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a walk shares with its caller: the optional table and the stop flag.
pub(super) struct Ctx<'a> {
    /// The statistics table, if any.
    pub table: Option<&'a Table>,
    /// Set from outside to end the walk early; the counts are then meaningless.
    pub stop: &'a AtomicBool,
}

/// The statistics walk as [`crate::perft::parallel`] shares it out, with its table if any.
pub(super) struct Breakdown(pub Option<Arc<Table>>);

impl Walk for Breakdown {
    type Count = Stats;

    fn count(&self, pos: &mut Position, depth: u32, stop: &AtomicBool) -> Stats {
        let ctx = Ctx {
            table: self.0.as_deref(),
            stop,
        };
        count(pos, depth, &ctx)
    }
}

/// The statistics of the perft of `depth` below `pos`; meaningless once `ctx.stop` is
/// set.
pub(super) fn count(pos: &mut Position, depth: u32, ctx: &Ctx) -> Stats {
    if depth == 0 {
        return Stats {
            nodes: 1,
            ..Stats::default()
        };
    }
    #[cfg(target_arch = "x86_64")]
    if modern_cpu() {
        // SAFETY: the CPU has every feature `modern` was compiled for.
        return unsafe { modern::root(pos, depth, ctx) };
    }
    baseline::root(pos, depth, ctx)
}

/// One copy of the recursive walk; `$feature` lists the CPU features it is compiled for.
macro_rules! walk {
    ($name:ident $(, $feature:literal)?) => {
        mod $name {
            use super::*;

            /// The walk from a root of `depth >= 1`, whichever side is to move.
            $(#[target_feature(enable = $feature)])?
            pub(super) fn root(pos: &mut Position, depth: u32, ctx: &Ctx) -> Stats {
                match pos.side_to_move() {
                    Color::White => wide::<White>(pos, depth, ctx),
                    Color::Black => wide::<Black>(pos, depth, ctx),
                }
            }

            /// A node of `depth >= 1`, `S` to move, whose counts may not fit in a `u64`
            /// (`depth > NARROW_DEPTH`; below that it hands over to [`node`]). Stored in
            /// the table only if every count fits.
            $(#[target_feature(enable = $feature)])?
            fn wide<S: Side>(pos: &mut Position, depth: u32, ctx: &Ctx) -> Stats {
                if depth <= NARROW_DEPTH {
                    let mut tally = Tally::default();
                    node::<S>(pos, depth, ctx, &mut tally);
                    return tally.widen();
                }
                if let Some(table) = ctx.table
                    && let Some(tally) = table.probe(pos.key(), depth)
                {
                    return tally.widen();
                }
                if ctx.stop.load(Ordering::Relaxed) {
                    return Stats::default();
                }
                let mut moves = MoveList::new();
                generate::<S, _>(pos, &mut moves);
                let mut total = Stats::default();
                for &mv in moves.iter() {
                    let undo = pos.make(mv);
                    total += wide::<S::Them>(pos, depth - 1, ctx);
                    pos.unmake(mv, &undo);
                }
                if let Some(table) = ctx.table
                    && !ctx.stop.load(Ordering::Relaxed)
                    && let Some(tally) = total.narrow()
                {
                    table.store(pos.key(), depth, &tally);
                }
                total
            }

            /// Adds the statistics of a node of `1 <= depth <= NARROW_DEPTH`, `S` to
            /// move, to `tally`.
            $(#[target_feature(enable = $feature)])?
            fn node<S: Side>(pos: &mut Position, depth: u32, ctx: &Ctx, tally: &mut Tally) {
                if depth == 1 {
                    leaf::count::<S>(pos, tally);
                    return;
                }
                let Some(table) = ctx.table else {
                    children::<S>(pos, depth, ctx, tally);
                    return;
                };
                if let Some(stored) = table.probe(pos.key(), depth) {
                    *tally += stored;
                    return;
                }
                let mut sub = Tally::default();
                children::<S>(pos, depth, ctx, &mut sub);
                if depth < 3 || !ctx.stop.load(Ordering::Relaxed) {
                    table.store(pos.key(), depth, &sub);
                }
                *tally += sub;
            }

            /// Adds the statistics of the children of a node of `2 <= depth <=
            /// NARROW_DEPTH` to `tally` (nothing from depth 3 up once `stop` is set).
            $(#[target_feature(enable = $feature)])?
            fn children<S: Side>(pos: &mut Position, depth: u32, ctx: &Ctx, tally: &mut Tally) {
                if depth >= 3 && ctx.stop.load(Ordering::Relaxed) {
                    return;
                }
                let mut moves = MoveList::new();
                generate::<S, _>(pos, &mut moves);
                for &mv in moves.iter() {
                    let undo = pos.make(mv);
                    node::<S::Them>(pos, depth - 1, ctx, tally);
                    pos.unmake(mv, &undo);
                }
            }
        }
    };
}

walk!(baseline);
#[cfg(target_arch = "x86_64")]
walk!(modern, "popcnt,bmi1,bmi2,lzcnt");
