//! What the threads of one search share, besides the transposition table and the
//! evaluation network they point to: the UCI loop's flags, the node limit and counts,
//! tablebase hits, and the flag that ends the helpers. The main thread's search
//! ([`super::alphabeta`]) and the Lazy SMP helpers (`smp.rs`) both take it from here,
//! so neither imports the other.

use super::Control;
use super::tablebase::Probe;
use super::tt::Tt;
use crate::nnue::Network;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// One helper's node count, on its own cache line (helpers write it often).
#[derive(Default)]
#[repr(align(64))]
struct Counter(AtomicU64);

/// What the threads of one search share.
pub struct Shared<'a> {
    /// The transposition table.
    pub tt: &'a Tt,
    /// The evaluation network: every thread evaluates with this one to the end.
    pub network: &'a Arc<Network>,
    /// The UCI loop's flags (`stop`, `ponderhit`).
    pub control: &'a Control,
    /// `go nodes`: every thread ends once all threads together have visited this many.
    pub node_limit: Option<u64>,
    /// When the search probes the tablebases.
    pub tb: Probe,
    /// Tablebase probes that found a result (the root's ranked moves included).
    tb_hits: AtomicU64,
    /// Set when the main thread is done: the helpers end.
    done: AtomicBool,
    /// Nodes visited by helper `i + 1`, published every `CHECK_EVERY` (1,024) nodes.
    helper_nodes: Vec<Counter>,
    /// Nodes visited by the main thread, published as often.
    main_nodes: Counter,
}

impl<'a> Shared<'a> {
    /// The shared state of a search with `helpers` helper threads, evaluating with
    /// `network`, probing the tablebases as `tb` says, `root_tb_hits` hits counted at
    /// the root already.
    pub fn new(
        tt: &'a Tt,
        network: &'a Arc<Network>,
        control: &'a Control,
        node_limit: Option<u64>,
        helpers: usize,
        tb: Probe,
        root_tb_hits: u64,
    ) -> Self {
        Self {
            tt,
            network,
            control,
            node_limit,
            tb,
            tb_hits: AtomicU64::new(root_tb_hits),
            done: AtomicBool::new(false),
            helper_nodes: (0..helpers).map(|_| Counter::default()).collect(),
            main_nodes: Counter::default(),
        }
    }

    /// Whether the main thread is done.
    pub fn done(&self) -> bool {
        self.done.load(Ordering::Relaxed)
    }

    /// Publishes thread `thread`'s node count (0: the main thread).
    pub fn publish(&self, thread: usize, nodes: u64) {
        let counter = match thread {
            0 => Some(&self.main_nodes),
            _ => self.helper_nodes.get(thread - 1),
        };
        if let Some(counter) = counter {
            counter.0.store(nodes, Ordering::Relaxed);
        }
    }

    /// Whether every thread's nodes as last published reach the node limit: a helper
    /// stops there by itself, so that the search ends near the limit even when the
    /// main thread is kept off the CPU for a while (a loaded machine).
    pub fn past_node_limit(&self) -> bool {
        self.node_limit.is_some_and(|limit| {
            self.main_nodes.0.load(Ordering::Relaxed) + self.helper_nodes() >= limit
        })
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
