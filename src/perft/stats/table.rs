//! The statistics hash table: whole breakdowns of subtrees, keyed by the full Zobrist
//! key and the depth, as perft's table ([`hash`](crate::perft::hash)) keys counts.
//!
//! An entry holds a whole [`Tally`] (thirteen counts) or answers nothing: each entry is a
//! sequence lock. A writer takes it by moving its sequence number from even to odd
//! (or gives up the store if another writer holds it), writes, and makes it even
//! again; a reader believes what it read only if the number was even and unchanged
//! around its reads. So a torn entry is never believed, however many threads write.
//! Every word is an atomic: no data race, no `unsafe`.
//!
//! Buckets of two entries: the first keeps the deepest subtree seen, the second takes
//! whatever the first refused. The table lives for one run; its memory comes from
//! [`crate::memory`], zeroed lazily (a page costs only once the walk first touches it),
//! on huge pages where the system offers them.

use super::{COUNTS, Tally};
use crate::memory::{self, TableError};
use std::sync::atomic::{AtomicU64, Ordering, fence};

/// One entry, as words: sequence number, key, depth (0 = empty), then the counts: 16
/// words, two cache lines.
type Entry = [AtomicU64; FIRST_COUNT + COUNTS];

/// The words of an entry: sequence number, key, depth, first count.
const SEQ: usize = 0;
const KEY: usize = 1;
const DEPTH: usize = 2;
const FIRST_COUNT: usize = 3;

/// Two entries, four cache lines.
type Bucket = [Entry; 2];

/// A fixed-size table of breakdowns shared by the threads of one run.
pub(crate) struct Table {
    buckets: memory::Table<Bucket>,
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket), every entry empty; refused
    /// if the memory cannot be had.
    pub(super) fn new(mb: usize) -> Result<Self, TableError> {
        Ok(Self {
            buckets: memory::Table::new(mb)?,
        })
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        self.buckets.at(key)
    }

    /// Brings the first cache line of the bucket of `key` (its deep entry's sequence
    /// number, key, depth and first counts) into the cache, ahead of a probe.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        crate::memory::prefetch(self.bucket(key));
    }

    /// The breakdown stored for `key` at `depth`, if any.
    #[inline(always)]
    pub(super) fn probe(&self, key: u64, depth: u32) -> Option<Tally> {
        self.bucket(key).iter().find_map(|e| read(e, key, depth))
    }

    /// Stores `tally` for `key` at `depth` (`>= 1`); a store that would have to wait for
    /// another thread's is dropped.
    #[inline(always)]
    pub(super) fn store(&self, key: u64, depth: u32, tally: &Tally) {
        let [deep, any] = self.bucket(key);
        let entry = if u64::from(depth) >= deep[DEPTH].load(Ordering::Relaxed) {
            deep
        } else {
            any
        };
        write(entry, key, depth, tally);
    }
}

/// The whole breakdown of `key` at `depth`, if `entry` holds it untorn.
#[inline(always)]
fn read(entry: &Entry, key: u64, depth: u32) -> Option<Tally> {
    let seq = entry[SEQ].load(Ordering::Acquire);
    if seq & 1 == 1
        || entry[KEY].load(Ordering::Relaxed) != key
        || entry[DEPTH].load(Ordering::Relaxed) != u64::from(depth)
    {
        return None;
    }
    let counts = std::array::from_fn(|i| entry[FIRST_COUNT + i].load(Ordering::Relaxed));
    fence(Ordering::Acquire);
    (entry[SEQ].load(Ordering::Relaxed) == seq).then(|| Tally::from_counts(counts))
}

/// Writes `tally` for `key` at `depth` to `entry`, unless another writer holds it.
#[inline(always)]
fn write(entry: &Entry, key: u64, depth: u32, tally: &Tally) {
    let seq = entry[SEQ].load(Ordering::Relaxed);
    if seq & 1 == 1
        || entry[SEQ]
            .compare_exchange(seq, seq + 1, Ordering::Relaxed, Ordering::Relaxed)
            .is_err()
    {
        return;
    }
    // Nothing below may become visible before the odd number.
    fence(Ordering::Release);
    entry[KEY].store(key, Ordering::Relaxed);
    entry[DEPTH].store(u64::from(depth), Ordering::Relaxed);
    for (slot, count) in entry[FIRST_COUNT..].iter().zip(tally.counts()) {
        slot.store(count, Ordering::Relaxed);
    }
    entry[SEQ].store(seq + 2, Ordering::Release);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(n: u64) -> Tally {
        Tally::from_counts(std::array::from_fn(|i| n + i as u64))
    }

    #[test]
    fn stores_and_finds_whole_breakdowns() {
        let table = Table::new(1).expect("1 MB");
        table.store(42, 3, &tally(7));
        assert_eq!(table.probe(42, 3), Some(tally(7)));
        assert_eq!(table.probe(42, 4), None);
        assert_eq!(table.probe(43, 3), None);
        // A shallower store in the same bucket keeps the deep one.
        table.store(42, 2, &tally(9));
        assert_eq!(table.probe(42, 3), Some(tally(7)));
        assert_eq!(table.probe(42, 2), Some(tally(9)));
    }

    /// Threads writing and reading the same few entries at once never see a mix of two
    /// breakdowns: every count read is consistent with the first.
    #[test]
    fn never_torn_under_concurrent_writes() {
        let table = Table::new(0).expect("one bucket");
        std::thread::scope(|scope| {
            for t in 0..3u64 {
                let table = &table;
                scope.spawn(move || {
                    for i in 0..200_000u64 {
                        let n = (i * 3 + t) << 8;
                        table.store(5, 2, &tally(n));
                        if let Some(got) = table.probe(5, 2) {
                            assert_eq!(got, tally(got.nodes), "torn entry");
                        }
                    }
                });
            }
        });
    }
}
