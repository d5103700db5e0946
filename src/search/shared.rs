//! What the threads of one search share, besides the transposition table they point
//! to: the UCI loop's flags, the node limit and counts, tablebase hits, and the flag
//! that ends the helpers. The main thread's search ([`super::alphabeta`]) and the Lazy
//! SMP helpers (`smp.rs`) both take it from here, so neither imports the other.

use super::Control;
use super::tablebase::Probe;
use super::tt::Tt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// One helper's node count, on its own cache line (helpers write it often).
#[derive(Default)]
#[repr(align(64))]
struct Counter(AtomicU64);

/// What the threads of one search share.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a Tt,
    /// The UCI loop's flags (`stop`, `ponderhit`).
    pub control: &'a Control,
    /// `go nodes`: the main thread ends once all threads together have visited this many.
    pub node_limit: Option<u64>,
    /// When the search probes the tablebases.
    pub tb: Probe,
    /// Tablebase probes that found a result (the root's ranked moves included).
    tb_hits: AtomicU64,
    /// Set when the main thread is done: the helpers end.
    done: AtomicBool,
    /// Nodes visited by helper `i + 1`, published every few thousand nodes.
    helper_nodes: Vec<Counter>,
}

impl<'a> Shared<'a> {
    /// The shared state of a search with `helpers` helper threads, probing the
    /// tablebases as `tb` says, `root_tb_hits` hits counted at the root already.
    pub fn new(
        tt: &'a Tt,
        control: &'a Control,
        node_limit: Option<u64>,
        helpers: usize,
        tb: Probe,
        root_tb_hits: u64,
    ) -> Self {
        Self {
            tt,
            control,
            node_limit,
            tb,
            tb_hits: AtomicU64::new(root_tb_hits),
            done: AtomicBool::new(false),
            helper_nodes: (0..helpers).map(|_| Counter::default()).collect(),
        }
    }

    /// Whether the main thread is done.
    pub fn done(&self) -> bool {
        self.done.load(Ordering::Relaxed)
    }

    /// Publishes helper `thread`'s node count.
    pub fn publish(&self, thread: usize, nodes: u64) {
        if let Some(counter) = self.helper_nodes.get(thread - 1) {
            counter.0.store(nodes, Ordering::Relaxed);
        }
    }

    /// Counts a tablebase hit.
    pub fn count_tb_hit(&self) {
        self.tb_hits.fetch_add(1, Ordering::Relaxed);
    }

    /// Tablebase hits so far, all threads.
    pub fn tb_hits(&self) -> u64 {
        self.tb_hits.load(Ordering::Relaxed)
    }

    /// The helpers' nodes as last published.
    pub fn helper_nodes(&self) -> u64 {
        self.helper_nodes
            .iter()
            .map(|c| c.0.load(Ordering::Relaxed))
            .sum()
    }
}

/// Sets `done` when dropped: the helpers end when the main thread does, even when it
/// unwinds from a panic (otherwise the scope would wait for them forever).
pub struct DoneOnDrop<'s, 'a>(pub &'s Shared<'a>);

impl Drop for DoneOnDrop<'_, '_> {
    fn drop(&mut self) {
        self.0.done.store(true, Ordering::Relaxed);
    }
}
