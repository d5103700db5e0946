//! The perft hash table: subtree counts keyed by the full Zobrist key and the depth.
//!
//! Lock-free for any number of threads. Each 16-byte entry holds `data` (count, run
//! generation and depth packed in 64 bits) and `check = key ^ data`. An entry answers a
//! probe only if `check ^ data` gives back the whole 64-bit key and the depth and
//! generation match, so an entry torn by two threads writing at once is never believed.
//! Entries come four to a 64-byte bucket (one cache line); a store replaces the entry of
//! the same key and depth, else one left by an earlier run, else the shallowest one, so
//! that deep (costly) subtrees stay.
//!
//! The table is allocated once per size and kept ([`Run::start`]), like an engine's hash:
//! each run XORs its own random salt into the keys, so entries of earlier (or concurrent)
//! runs can never match and the table needs no clearing. Its memory comes from
//! [`crate::memory`]: zeroed lazily, on huge pages where the system offers them, and
//! refused when larger than the memory allows.

use crate::memory::{self, TableError};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Bits of `data` holding the depth, then the generation.
const DEPTH_BITS: u32 = 6;
const GEN_BITS: u32 = 6;
const DEPTH_MASK: u64 = (1 << DEPTH_BITS) - 1;
const GEN_MASK: u64 = ((1 << GEN_BITS) - 1) << DEPTH_BITS;
const COUNT_SHIFT: u32 = DEPTH_BITS + GEN_BITS;
/// Counts at or above this do not fit in an entry and are not stored.
const COUNT_LIMIT: u64 = 1 << (64 - COUNT_SHIFT);
/// The deepest subtree an entry can hold (deeper ones are neither stored nor probed).
pub const MAX_DEPTH: u32 = DEPTH_MASK as u32;
/// Entries per bucket.
const WAYS: usize = 4;

/// One entry: `[check, data]`, with `data` = count << 12 | generation << 6 | depth (0 =
/// empty) and `check` = key ^ data.
type Entry = [AtomicU64; 2];

/// Four entries sharing one cache line (64 bytes, so every bucket starts one).
type Bucket = [Entry; WAYS];

/// A fixed-size, shared perft hash table.
pub struct Table {
    buckets: memory::Table<Bucket>,
    mb: usize,
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket), every entry empty; refused
    /// if the memory cannot be had ([`memory::Table::new`]).
    pub fn new(mb: usize) -> Result<Self, TableError> {
        Ok(Self {
            buckets: memory::Table::new(mb)?,
            mb,
        })
    }

    /// Number of entries.
    #[cfg(test)]
    pub fn entries(&self) -> usize {
        self.buckets.len() * WAYS
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        self.buckets.at(key)
    }

    /// Asks the CPU to bring the bucket of `key` into its cache, so that a probe a
    /// little later does not wait for memory; nothing is read or written.
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        crate::memory::prefetch(self.bucket(key));
    }

    /// The stored count of `key` at `depth` written with `generation`, if any.
    #[inline(always)]
    fn probe(&self, key: u64, depth: u32, generation: u64) -> Option<u64> {
        let tag = generation << DEPTH_BITS | u64::from(depth);
        for [check, data] in self.bucket(key) {
            let data = data.load(Ordering::Relaxed);
            let check = check.load(Ordering::Relaxed);
            if check ^ data == key && data & (GEN_MASK | DEPTH_MASK) == tag {
                return Some(data >> COUNT_SHIFT);
            }
        }
        None
    }

    /// Stores `count` for `key` at `depth` (`1..=63`) with `generation`.
    #[inline(always)]
    fn store(&self, key: u64, depth: u32, generation: u64, count: u64) {
        debug_assert!(depth > 0 && u64::from(depth) <= DEPTH_MASK);
        if count >= COUNT_LIMIT {
            return;
        }
        let tag = generation << DEPTH_BITS | u64::from(depth);
        let data = count << COUNT_SHIFT | tag;
        let bucket = self.bucket(key);
        let mut victim = &bucket[0];
        let mut lowest = u64::MAX;
        for entry in bucket {
            let old = entry[1].load(Ordering::Relaxed);
            if old & (GEN_MASK | DEPTH_MASK) == tag && old ^ entry[0].load(Ordering::Relaxed) == key
            {
                victim = entry;
                break;
            }
            // Entries of other runs count as empty; else the shallowest goes.
            let worth = if old & GEN_MASK == tag & GEN_MASK {
                old & DEPTH_MASK
            } else {
                0
            };
            if worth < lowest {
                lowest = worth;
                victim = entry;
            }
        }
        let [check, stored] = victim;
        check.store(key ^ data, Ordering::Relaxed);
        stored.store(data, Ordering::Relaxed);
    }
}

/// The table of the size last asked for, kept between runs.
static KEPT: Mutex<Option<Arc<Table>>> = Mutex::new(None);
/// Runs started so far: each run's salt and generation come from it.
static RUNS: AtomicU64 = AtomicU64::new(0);

/// One perft run's view of a table: its own key salt and generation.
pub struct Run {
    table: Arc<Table>,
    salt: u64,
    generation: u64,
}

impl Run {
    /// A run on the kept table of `mb` megabytes (allocating it if the size changed);
    /// `None` if the memory cannot be had.
    pub fn start(mb: usize) -> Option<Self> {
        let table = {
            let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
            match kept.as_ref() {
                Some(table) if table.mb == mb => Arc::clone(table),
                _ => {
                    // Free the old table before allocating the new one.
                    *kept = None;
                    let table = Arc::new(Table::new(mb).ok()?);
                    *kept = Some(Arc::clone(&table));
                    table
                }
            }
        };
        Some(Self::on(table))
    }

    /// A run on `table`, with a fresh salt and generation.
    pub fn on(table: Arc<Table>) -> Self {
        let n = RUNS.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        Self {
            table,
            salt: splitmix64(n),
            generation: n & (GEN_MASK >> DEPTH_BITS),
        }
    }

    /// Brings the bucket of the position with Zobrist key `key` into the cache, ahead of
    /// a [`probe`](Self::probe) or [`store`](Self::store).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        self.table.prefetch(key ^ self.salt);
    }

    /// The count stored for the position with Zobrist key `key` at `depth`, if any
    /// (never for a depth above [`MAX_DEPTH`]).
    #[inline(always)]
    pub fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.table.probe(key ^ self.salt, depth, self.generation)
    }

    /// Stores `count` for the position with Zobrist key `key` at `depth`; a depth above
    /// [`MAX_DEPTH`] or a count an entry cannot hold is not stored.
    #[inline(always)]
    pub fn store(&self, key: u64, depth: u32, count: u64) {
        if depth > MAX_DEPTH {
            return;
        }
        self.table
            .store(key ^ self.salt, depth, self.generation, count);
    }
}

/// Makes the kept table of `mb` megabytes ready for the next runs ([`Run::start`] of the
/// same size): allocated if the kept one has another size (the old one is freed first),
/// and every page touched, so that the first run does not pay for the page faults.
/// `mb == 0` frees the kept table. On error no table is kept. (The engine's: UCI prepares
/// `PerftHash` when it is set.)
#[cfg(feature = "cli")]
pub fn prepare(mb: usize) -> Result<(), TableError> {
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if mb == 0 {
        *kept = None;
        return Ok(());
    }
    let table = match kept.as_ref() {
        Some(table) if table.mb == mb => Arc::clone(table),
        _ => {
            *kept = None;
            let table = Arc::new(Table::new(mb)?);
            *kept = Some(Arc::clone(&table));
            table
        }
    };
    drop(kept);
    table.buckets.touch();
    Ok(())
}

/// A well-mixed 64-bit value from a counter (SplitMix64).
fn splitmix64(n: u64) -> u64 {
    let mut z = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_by_key_and_depth() {
        let table = Table::new(1).expect("1 MB");
        assert_eq!(table.entries(), (1 << 20) / 16);
        assert_eq!(table.probe(42, 3, 1), None);
        table.store(42, 3, 1, 1234);
        assert_eq!(table.probe(42, 3, 1), Some(1234));
        assert_eq!(table.probe(42, 4, 1), None);
        assert_eq!(table.probe(43, 3, 1), None);
        assert_eq!(table.probe(42, 3, 2), None, "another run's entry");
        table.store(42, 3, 1, 99);
        assert_eq!(table.probe(42, 3, 1), Some(99));
    }

    #[test]
    fn a_full_bucket_keeps_the_deep_entries() {
        let table = Table::new(0).expect("one bucket");
        for (key, depth) in [(1, 9), (2, 8), (3, 2), (4, 7)] {
            table.store(key, depth, 5, key * 10);
        }
        table.store(5, 3, 5, 50);
        assert_eq!(table.probe(3, 2, 5), None, "the shallowest entry gave way");
        for (key, depth) in [(1, 9), (2, 8), (4, 7), (5, 3)] {
            assert_eq!(table.probe(key, depth, 5), Some(key * 10));
        }
        // A new run replaces old entries first, however deep.
        table.store(6, 2, 6, 60);
        assert_eq!(table.probe(6, 2, 6), Some(60));
    }

    #[test]
    fn counts_too_big_are_not_stored() {
        let table = Table::new(1).expect("1 MB");
        table.store(7, 20, 1, COUNT_LIMIT);
        assert_eq!(table.probe(7, 20, 1), None);
        table.store(7, 20, 1, COUNT_LIMIT - 1);
        assert_eq!(table.probe(7, 20, 1), Some(COUNT_LIMIT - 1));
    }

    /// Depths past the entry's depth field are neither stored nor found (they would
    /// spill into the generation bits).
    #[test]
    fn depths_too_deep_are_not_stored() {
        let run = Run::on(Arc::new(Table::new(1).expect("1 MB")));
        run.store(9, MAX_DEPTH, 5);
        assert_eq!(run.probe(9, MAX_DEPTH), Some(5));
        for depth in [MAX_DEPTH + 1, MAX_DEPTH + 2, 128, 255] {
            run.store(9, depth, 6);
            assert_eq!(run.probe(9, depth), None, "depth {depth}");
        }
        assert_eq!(run.probe(9, MAX_DEPTH), Some(5));
    }

    #[test]
    #[cfg(feature = "cli")]
    fn prepare_allocates_or_says_why_not() {
        // Other tests share the kept table, so only the outcomes are checked here.
        assert_eq!(prepare(3), Ok(()));
        assert!(prepare(usize::MAX).is_err());
        assert_eq!(prepare(0), Ok(()));
    }

    #[test]
    fn runs_never_see_each_other() {
        let table = Arc::new(Table::new(1).expect("1 MB"));
        let first = Run::on(Arc::clone(&table));
        first.store(0xABCD, 4, 777);
        assert_eq!(first.probe(0xABCD, 4), Some(777));
        let second = Run::on(table);
        assert_eq!(second.probe(0xABCD, 4), None);
    }
}
