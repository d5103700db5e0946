//! The perft worker pool: helper threads started once, on first need, and kept for every
//! later job, so that a short count (a `go perft` of 50 ms) pays neither for starting
//! threads nor for their stacks.
//!
//! There are at most [`cores`]` - 1` helpers, because the caller of [`run`] always works
//! too: perft never waits, so more threads than cores only take the CPU from the thread
//! that reads commands. Each helper has a stack of [`STACK_BYTES`],
//! enough for the deepest walk allowed. Helpers take tasks from one shared queue, so
//! callers on several threads at once share them without deadlock (each caller does its
//! own share whatever the helpers are busy with).
//!
//! A task that panics on a helper does not end the helper: the panic is caught, carried
//! back and raised again in the caller of [`run`], which therefore never returns a result
//! the failed task should have contributed to.

use crate::threads::{STACK_BYTES, cores};
use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

/// Work a helper runs: shared by the caller and every helper that takes part.
pub(crate) type Task = Arc<dyn Fn() + Send + Sync>;

/// How often a caller waiting for its helpers calls its `poll` (to pass on a stop).
const POLL: Duration = Duration::from_millis(1);

/// The helpers that could be started (possibly none), started on first use.
fn helpers() -> &'static Helpers {
    static POOL: OnceLock<Helpers> = OnceLock::new();
    POOL.get_or_init(|| Helpers::start(cores().saturating_sub(1)))
}

/// The number of helper threads running (starting them if not done yet).
pub(crate) fn size() -> usize {
    helpers().count
}

/// Runs `task` on up to `wanted` helpers while this thread runs `mine`, and returns what
/// `mine` returned once every helper's call of `task` has returned; meanwhile `poll` is
/// called about every millisecond. A panic of `task` on a helper is raised again here.
pub(crate) fn run<R>(
    wanted: usize,
    task: &Task,
    mine: impl FnOnce() -> R,
    mut poll: impl FnMut(),
) -> R {
    let pool = helpers();
    let latch = Arc::new(Latch::default());
    let mut sent = 0;
    for _ in 0..wanted.min(pool.count) {
        // Counted before sending: a helper may finish before the next line runs.
        latch.lock().running += 1;
        let order = Order {
            task: Arc::clone(task),
            latch: Arc::clone(&latch),
        };
        if pool.queue.send(order).is_err() {
            latch.lock().running -= 1;
            break;
        }
        sent += 1;
    }
    let result = mine();
    if sent > 0 {
        let mut state = latch.lock();
        while state.running > 0 {
            state = match latch.done.wait_timeout(state, POLL) {
                Ok((state, _)) => state,
                Err(poisoned) => poisoned.into_inner().0,
            };
            drop(state);
            poll();
            state = latch.lock();
        }
        if let Some(payload) = state.panic.take() {
            drop(state);
            resume_unwind(payload);
        }
    }
    result
}

/// The helper threads and the queue they take orders from.
struct Helpers {
    queue: Sender<Order>,
    count: usize,
}

impl Helpers {
    /// Starts up to `count` helpers (a thread that cannot be started is left out).
    fn start(count: usize) -> Self {
        let (queue, orders) = channel::<Order>();
        // One queue for every helper: each takes the next order in turn.
        let orders = Arc::new(Mutex::new(orders));
        let started = (0..count)
            .filter(|i| {
                let orders = Arc::clone(&orders);
                std::thread::Builder::new()
                    .name(format!("perft-{}", i + 1))
                    .stack_size(STACK_BYTES)
                    .spawn(move || serve(&orders))
                    .map_err(|e| crate::log_warn!("cannot start a perft helper thread: {e}"))
                    .is_ok()
            })
            .count();
        Self {
            queue,
            count: started,
        }
    }
}

/// A helper's life: run each order, report it done (with its panic, if any).
fn serve(orders: &Mutex<Receiver<Order>>) {
    // The lock is held only while waiting for an order, never while running one.
    let next = || orders.lock().unwrap_or_else(|e| e.into_inner()).recv().ok();
    while let Some(order) = next() {
        let outcome = catch_unwind(AssertUnwindSafe(|| (order.task)()));
        let mut state = order.latch.lock();
        if let Err(payload) = outcome {
            state.panic.get_or_insert(payload);
        }
        state.running -= 1;
        drop(state);
        order.latch.done.notify_all();
    }
}

/// One call of a task for one helper.
struct Order {
    task: Task,
    latch: Arc<Latch>,
}

/// Where helpers report back to the caller of one [`run`].
#[derive(Default)]
struct Latch {
    state: Mutex<LatchState>,
    done: Condvar,
}

/// The helpers still running a [`run`]'s task, and the first panic among them.
#[derive(Default)]
struct LatchState {
    running: usize,
    panic: Option<Box<dyn Any + Send>>,
}

impl Latch {
    /// The state; a poisoned lock is taken as is (its holders only count and record).
    fn lock(&self) -> MutexGuard<'_, LatchState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn helpers_run_the_task_and_are_kept() {
        let first = size();
        assert_eq!(first, cores() - 1, "every helper started");
        let calls = Arc::new(AtomicUsize::new(0));
        for round in 1..=50 {
            let counter = Arc::clone(&calls);
            let task: Task = Arc::new(move || {
                counter.fetch_add(1, Ordering::SeqCst);
            });
            let mine = run(usize::MAX, &task, || round, || {});
            assert_eq!(mine, round);
        }
        // Other tests may use the pool at the same time, but only through their tasks.
        assert_eq!(calls.load(Ordering::SeqCst), 50 * first);
        assert_eq!(size(), first, "no helper started twice");
    }

    #[test]
    fn a_panicking_task_is_passed_on_and_the_helper_survives() {
        let task: Task = Arc::new(|| panic!("test panic in a helper"));
        let outcome = catch_unwind(AssertUnwindSafe(|| run(1, &task, || 7, || {})));
        if size() == 0 {
            // One core: no helper, so the task never runs.
            assert_eq!(outcome.ok(), Some(7));
            return;
        }
        let payload = outcome.expect_err("the helper's panic reaches the caller");
        assert_eq!(
            payload.downcast_ref::<&str>(),
            Some(&"test panic in a helper")
        );
        let ran = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&ran);
        let task: Task = Arc::new(move || {
            counter.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(run(usize::MAX, &task, || 8, || {}), 8);
        assert_eq!(
            ran.load(Ordering::SeqCst),
            size(),
            "every helper still serves"
        );
    }
}
