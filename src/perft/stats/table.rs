//! The statistics hash table: whole breakdowns of subtrees, keyed by the full Zobrist
//! key and the depth, as perft's table ([`hash`](crate::perft::hash)) keys counts.
//!
//! An entry holds a whole [`Tally`] (nine counts) or answers nothing: each entry is a
//! sequence lock. A writer takes it by moving its sequence number from even to odd
//! (or gives up the store if another writer holds it), writes, and makes it even
//! again; a reader believes what it read only if the number was even and unchanged
//! around its reads. So a torn entry is never believed, however many threads write.
//! Every word is an atomic: no data race, no `unsafe`.
//!
//! Buckets of two entries: the first keeps the deepest subtree seen, the second takes
//! whatever the first refused. The table lives for one run (allocated and zeroed at
//! its start, so its cost grows with its size: about 0.1 s per GB here).

use super::Tally;
use std::sync::atomic::{AtomicU64, Ordering, fence};

/// One entry: sequence number, key, depth (0 = empty), then the nine counts.
#[derive(Default)]
struct Entry {
    seq: AtomicU64,
    key: AtomicU64,
    depth: AtomicU64,
    counts: [AtomicU64; 9],
}

/// Two entries, one cache line and a half.
#[derive(Default)]
struct Bucket([Entry; 2]);

/// A fixed-size table of breakdowns shared by the threads of one run.
pub(crate) struct Table {
    buckets: Box<[Bucket]>,
}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket), every entry empty; `None`
    /// if the memory cannot be had.
    pub(super) fn new(mb: usize) -> Option<Self> {
        let len = (mb.checked_mul(1 << 20)? / size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(len).ok()?;
        buckets.extend(std::iter::repeat_with(Bucket::default).take(len));
        Some(Self {
            buckets: buckets.into_boxed_slice(),
        })
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        // The high bits of the key pick the bucket (no power-of-two size needed).
        let index = ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[index]
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
        self.bucket(key).0.iter().find_map(|e| e.read(key, depth))
    }

    /// Stores `tally` for `key` at `depth` (`>= 1`); a store that would have to wait for
    /// another thread's is dropped.
    #[inline(always)]
    pub(super) fn store(&self, key: u64, depth: u32, tally: &Tally) {
        let [deep, any] = &self.bucket(key).0;
        let entry = if u64::from(depth) >= deep.depth.load(Ordering::Relaxed) {
            deep
        } else {
            any
        };
        entry.write(key, depth, tally);
    }
}

impl Entry {
    /// The whole breakdown of `key` at `depth`, if this entry holds it untorn.
    #[inline(always)]
    fn read(&self, key: u64, depth: u32) -> Option<Tally> {
        let seq = self.seq.load(Ordering::Acquire);
        if seq & 1 == 1
            || self.key.load(Ordering::Relaxed) != key
            || self.depth.load(Ordering::Relaxed) != u64::from(depth)
        {
            return None;
        }
        let counts = std::array::from_fn(|i| self.counts[i].load(Ordering::Relaxed));
        fence(Ordering::Acquire);
        (self.seq.load(Ordering::Relaxed) == seq).then(|| Tally::from_counts(counts))
    }

    /// Writes `tally` for `key` at `depth`, unless another writer holds the entry.
    #[inline(always)]
    fn write(&self, key: u64, depth: u32, tally: &Tally) {
        let seq = self.seq.load(Ordering::Relaxed);
        if seq & 1 == 1
            || self
                .seq
                .compare_exchange(seq, seq + 1, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        // Nothing below may become visible before the odd number.
        fence(Ordering::Release);
        self.key.store(key, Ordering::Relaxed);
        self.depth.store(u64::from(depth), Ordering::Relaxed);
        for (slot, count) in self.counts.iter().zip(tally.counts()) {
            slot.store(count, Ordering::Relaxed);
        }
        self.seq.store(seq + 2, Ordering::Release);
    }
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
