//! Perft on several threads: the tree is cut at a shallow ply into many subtrees, which
//! the threads take one at a time from a shared queue (an atomic index over a list).
//! Each subtree is counted exactly as one thread would, so the totals are identical.
//!
//! The calling thread counts too, with at most [`cores`]` - 1` helpers: perft never
//! waits, so more threads than cores only add the cost of starting them and take the
//! CPU from the thread that reads commands (1024 threads on 2 cores delayed `isready`
//! by up to a second). Helpers get a stack of [`STACK_BYTES`](super::STACK_BYTES), enough
//! for the deepest walk allowed.

use super::tree::{self, Ctx};
use crate::board::{Move, Position, Undo};
use crate::movegen::legal_moves;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The deepest ply the tree is cut at.
const MAX_SPLIT: usize = 3;
/// Subtrees wanted per thread, so that the last ones to finish are small.
const ITEMS_PER_THREAD: usize = 48;

/// One subtree: the moves from the root that lead to it (the first is the root move
/// numbered `root`).
#[derive(Clone, Copy)]
struct Item {
    root: usize,
    moves: [Move; MAX_SPLIT],
    len: usize,
}

/// Each legal move of `pos` with the perft of `depth - 1` below it, counted by `threads`
/// threads; meaningless once `ctx.stop` is set. `depth` must be at least 1.
pub(crate) fn divide(pos: &Position, depth: u32, threads: usize, ctx: &Ctx) -> Vec<(Move, u128)> {
    let threads = threads.clamp(1, cores());
    let root_moves = legal_moves(pos);
    let (items, remaining) = items(pos, depth, threads);
    let next = AtomicUsize::new(0);
    let helpers = threads.min(items.len()).saturating_sub(1);
    let share = || work(pos, &items, remaining, &next, root_moves.len(), ctx);
    let totals = std::thread::scope(|scope| {
        // A helper that cannot be started leaves its share to the others.
        let handles: Vec<_> = (0..helpers)
            .filter_map(|_| {
                std::thread::Builder::new()
                    .name("perft".into())
                    .stack_size(super::STACK_BYTES)
                    .spawn_scoped(scope, share)
                    .ok()
            })
            .collect();
        let mut totals = share();
        for handle in handles {
            // A panicking helper is a bug; pass it on rather than return a wrong count.
            let counts = handle
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            for (total, count) in totals.iter_mut().zip(counts) {
                *total += count;
            }
        }
        totals
    });
    root_moves.iter().copied().zip(totals).collect()
}

/// The threads that can run at once on this machine (1 if unknown), asked once.
pub(crate) fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// One thread's share: takes subtrees until none is left (or `stop`), returns the counts
/// by root move.
fn work(
    root: &Position,
    items: &[Item],
    depth: u32,
    next: &AtomicUsize,
    roots: usize,
    ctx: &Ctx,
) -> Vec<u128> {
    let mut counts = vec![0u128; roots];
    let mut pos = root.clone();
    let mut undos: [Option<Undo>; MAX_SPLIT] = [None; MAX_SPLIT];
    loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(item) = items.get(i) else { break };
        if ctx.stop.load(Ordering::Relaxed) {
            break;
        }
        let path = &item.moves[..item.len];
        for (undo, &mv) in undos.iter_mut().zip(path) {
            *undo = Some(pos.make(mv));
        }
        counts[item.root] += tree::count(&mut pos, depth, ctx);
        for (undo, &mv) in undos.iter().zip(path).rev() {
            if let Some(undo) = undo {
                pos.unmake(mv, undo);
            }
        }
    }
    counts
}

/// The subtrees at the shallowest ply that gives every thread enough of them (but leaves
/// at least one ply below), with the depth that remains below each.
fn items(pos: &Position, depth: u32, threads: usize) -> (Vec<Item>, u32) {
    let wanted = threads.saturating_mul(ITEMS_PER_THREAD);
    let deepest = (depth.saturating_sub(1) as usize).clamp(1, MAX_SPLIT);
    let mut items = Vec::new();
    for ply in 1..=deepest {
        items.clear();
        let mut start = Item {
            root: 0,
            moves: [Move::NULL; MAX_SPLIT],
            len: 0,
        };
        collect(&mut pos.clone(), ply, &mut start, &mut items);
        if items.len() >= wanted {
            return (items, depth - ply as u32);
        }
    }
    (items, depth - deepest as u32)
}

/// Appends every path of `ply` more moves below `pos` (extending `item`) to `items`.
fn collect(pos: &mut Position, ply: usize, item: &mut Item, items: &mut Vec<Item>) {
    if ply == 0 {
        items.push(*item);
        return;
    }
    for (i, &mv) in legal_moves(pos).iter().enumerate() {
        if item.len == 0 {
            item.root = i;
        }
        item.moves[item.len] = mv;
        item.len += 1;
        let undo = pos.make(mv);
        collect(pos, ply - 1, item, items);
        pos.unmake(mv, &undo);
        item.len -= 1;
    }
}
