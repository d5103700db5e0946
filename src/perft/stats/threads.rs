//! The statistics walk on several threads: the subtrees one or two plies below the root
//! are shared out through an atomic index, each counted exactly as one thread would,
//! and their breakdowns summed by root move, so the result is identical to one
//! thread's. As for perft, the calling thread counts too, with at most
//! [`cores`]` - 1` helpers.

use super::Stats;
use super::walk::{self, Ctx};
use crate::board::{Move, Position};
use crate::movegen::legal_moves;
use crate::perft::STACK_BYTES;
use crate::perft::cores;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Subtrees wanted per thread, so that the last ones to finish are small.
const ITEMS_PER_THREAD: usize = 32;

/// Each legal move of `pos` with the statistics of `depth - 1` (`>= 0`) below it, counted
/// by up to `threads` threads; meaningless once `ctx.stop` is set.
pub(super) fn divide(pos: &Position, depth: u32, threads: usize, ctx: &Ctx) -> Vec<(Move, Stats)> {
    let roots = legal_moves(pos);
    let threads = threads.clamp(1, cores());
    // Cut one ply below the root moves when they are too few to share out.
    let second = threads > 1 && depth >= 3 && roots.len() < threads * ITEMS_PER_THREAD;
    let mut items = Vec::new();
    for (i, &mv) in roots.iter().enumerate() {
        if second {
            let mut child = pos.clone();
            child.play(mv);
            items.extend(legal_moves(&child).iter().map(|&reply| (i, [mv, reply])));
        } else {
            items.push((i, [mv, Move::NULL]));
        }
    }
    let below = depth - 1 - u32::from(second);
    let next = AtomicUsize::new(0);
    let share = || {
        let mut totals = vec![Stats::default(); roots.len()];
        let mut child = pos.clone();
        while let Some(&(root, path)) = items.get(next.fetch_add(1, Ordering::Relaxed)) {
            if ctx.stop.load(Ordering::Relaxed) {
                break;
            }
            let path = &path[..1 + usize::from(second)];
            child.clone_from(pos);
            for &mv in path {
                child.play(mv);
            }
            totals[root] += walk::count(&mut child, below, ctx);
        }
        totals
    };
    let helpers = threads.min(items.len()).saturating_sub(1);
    let totals = std::thread::scope(|scope| {
        // A helper that cannot be started leaves its share to the others.
        let handles: Vec<_> = (0..helpers)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .name("perft-stats".into())
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, share)
                    .ok()
            })
            .collect();
        let mut totals = share();
        for handle in handles {
            // A panicking helper is a bug; pass it on rather than return wrong counts.
            let theirs = handle
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            for (total, part) in totals.iter_mut().zip(theirs) {
                *total += part;
            }
        }
        totals
    });
    roots.iter().copied().zip(totals).collect()
}
