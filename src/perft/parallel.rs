//! Perft and its statistics on several threads: the tree is cut at a shallow ply into
//! many subtrees, which the threads take one at a time from a shared queue (an atomic
//! index over a list). Each subtree is counted exactly as one thread would, so the totals
//! are identical.
//!
//! The calling thread counts too, helped by at most [`cores`](crate::threads::cores)` - 1` threads of the
//! [`pool`], kept between runs. A job owns everything its helpers read (position,
//! subtrees, table), so a helper still finishing a stopped job never reads freed memory;
//! its own stop flag is raised when the caller's is, or when a thread panics.

use super::pool::{self, Task};
use super::tree::{self, Count, Ctx};
use crate::board::{Move, Position, Undo};
use crate::movegen::legal_moves;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

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

/// One parallel count, shared by the caller and its helpers.
struct Job<C: Count> {
    root: Position,
    items: Vec<Item>,
    /// Plies below each item.
    depth: u32,
    /// The next item to take.
    next: AtomicUsize,
    /// Root moves.
    roots: usize,
    /// The table of subtree counts, if any.
    table: Option<Arc<C::Table>>,
    /// The helpers' stop flag (the caller's own is passed on to it).
    stop: AtomicBool,
    /// Counts by root move, summed over the threads' shares.
    counts: Mutex<Vec<C::Wide>>,
}

impl<C: Count> Job<C> {
    /// Counts items until none is left or `stop` (or the job's flag) is set, then adds
    /// the counts to the job's. A panic raises the job's flag on its way out, so that
    /// the other threads stop early.
    fn share(&self, stop: &AtomicBool) {
        let guard = StopOnDrop(&self.stop);
        let mine = work(self, stop);
        // Not a panic: the others go on with their items.
        std::mem::forget(guard);
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        for (total, count) in counts.iter_mut().zip(mine) {
            *total += count;
        }
    }
}

/// Raises a stop flag when dropped (forgotten on a normal return).
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Each legal move of `pos` with the count `depth - 1` plies below it (with `table`, if
/// any), counted by `threads` threads (one: on this thread, root move by root move);
/// meaningless once `stop` is set. `depth` must be at least 2 (each subtree keeps at
/// least one ply). A panic on a helper is raised again here.
pub(crate) fn divide<C: Count>(
    pos: &Position,
    depth: u32,
    threads: usize,
    table: Option<Arc<C::Table>>,
    stop: &AtomicBool,
) -> Vec<(Move, C::Wide)> {
    if threads <= 1 {
        let mut pos = pos.clone();
        let mut divide = Vec::new();
        let ctx = Ctx {
            table: table.as_deref(),
            stop,
        };
        for &mv in legal_moves(&pos).iter() {
            let undo = pos.make(mv);
            let count = tree::count::<C>(&mut pos, depth - 1, &ctx);
            pos.unmake(mv, &undo);
            divide.push((mv, count));
        }
        return divide;
    }
    let threads = threads.clamp(1, pool::size() + 1);
    let root_moves = legal_moves(pos);
    let (items, remaining) = items(pos, depth, threads);
    let helpers = threads.min(items.len()).saturating_sub(1);
    let job = Arc::new(Job::<C> {
        root: pos.clone(),
        items,
        depth: remaining,
        next: AtomicUsize::new(0),
        roots: root_moves.len(),
        table,
        stop: AtomicBool::new(false),
        counts: Mutex::new(vec![C::Wide::default(); root_moves.len()]),
    });
    let helped = Arc::clone(&job);
    let task: Task = Arc::new(move || helped.share(&helped.stop));
    let pass_stop = || {
        if stop.load(Ordering::Relaxed) {
            job.stop.store(true, Ordering::Relaxed);
        }
    };
    pool::run(
        helpers,
        &task,
        || {
            job.share(stop);
            pass_stop();
        },
        pass_stop,
    );
    let counts = std::mem::take(&mut *job.counts.lock().unwrap_or_else(|e| e.into_inner()));
    root_moves.iter().copied().zip(counts).collect()
}

/// One thread's share: takes subtrees until none is left (or a stop flag is set),
/// returns the counts by root move.
fn work<C: Count>(job: &Job<C>, stop: &AtomicBool) -> Vec<C::Wide> {
    let mut counts = vec![C::Wide::default(); job.roots];
    let ctx = Ctx {
        table: job.table.as_deref(),
        stop,
    };
    let mut pos = job.root.clone();
    let mut undos: [Option<Undo>; MAX_SPLIT] = [None; MAX_SPLIT];
    loop {
        let i = job.next.fetch_add(1, Ordering::Relaxed);
        let Some(item) = job.items.get(i) else { break };
        if stop.load(Ordering::Relaxed) || job.stop.load(Ordering::Relaxed) {
            break;
        }
        let path = &item.moves[..item.len];
        for (undo, &mv) in undos.iter_mut().zip(path) {
            *undo = Some(pos.make(mv));
        }
        counts[item.root] += tree::count::<C>(&mut pos, job.depth, &ctx);
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
