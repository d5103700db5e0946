//! The perft hash table: subtree counts keyed by the full Zobrist key and the depth.
//!
//! Lock-free for any number of threads. Each 16-byte entry holds `data` (the count in
//! the high 58 bits, the depth in the low 6) and `check = key ^ data`. An entry answers a
//! probe only if `check ^ data` gives back the whole 64-bit key and the depth matches, so
//! an entry torn by two threads writing at once is never believed: counts stay exact.
//! Entries come four to a 64-byte bucket (one cache line); a store replaces the entry of
//! the same key and depth or else the shallowest one, keeping deep (costly) subtrees.
//! The memory is zeroed lazily by the OS and, on Linux, asks for transparent huge pages.

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

/// Bits of `data` holding the depth.
const DEPTH_BITS: u32 = 6;
const DEPTH_MASK: u64 = (1 << DEPTH_BITS) - 1;
/// Counts at or above this do not fit in an entry and are not stored.
const COUNT_LIMIT: u64 = 1 << (64 - DEPTH_BITS);
/// Entries per bucket.
const WAYS: usize = 4;
/// Alignment of the table: a huge page, so that the OS can back it with them.
const ALIGN: usize = 2 << 20;

/// One entry: `data` = count << 6 | depth (0 = empty), `check` = key ^ data.
#[derive(Default)]
struct Entry {
    check: AtomicU64,
    data: AtomicU64,
}

/// Four entries sharing one cache line.
#[repr(C, align(64))]
#[derive(Default)]
struct Bucket([Entry; WAYS]);

/// A fixed-size, shared perft hash table.
pub struct Table {
    buckets: NonNull<Bucket>,
    len: usize,
}

// SAFETY: the buckets are only reached through atomics.
unsafe impl Send for Table {}
// SAFETY: as above; every access is an atomic load or store.
unsafe impl Sync for Table {}

impl Table {
    /// A table of about `mb` megabytes (at least one bucket), every entry empty; `None`
    /// if the memory cannot be had.
    pub fn new(mb: usize) -> Option<Self> {
        let bytes = mb.checked_mul(1 << 20)?.max(size_of::<Bucket>());
        let len = bytes / size_of::<Bucket>();
        let layout = Self::layout(len)?;
        // SAFETY: the layout has a non-zero size; all-zero bytes are empty entries.
        let ptr = unsafe { alloc_zeroed(layout) };
        let buckets = NonNull::new(ptr.cast::<Bucket>())?;
        advise_huge_pages(ptr, layout.size());
        Some(Self { buckets, len })
    }

    fn layout(len: usize) -> Option<Layout> {
        let size = len.checked_mul(size_of::<Bucket>())?;
        Layout::from_size_align(size, ALIGN.min(size.next_power_of_two())).ok()
    }

    /// Number of entries.
    pub fn entries(&self) -> usize {
        self.len * WAYS
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        // The high bits of the key pick the bucket (no power-of-two size needed).
        let index = ((key as u128 * self.len as u128) >> 64) as usize;
        // SAFETY: index < len, and the buckets live as long as `self`.
        unsafe { &*self.buckets.as_ptr().add(index) }
    }

    /// The stored count of the position with `key` at `depth`, if any.
    #[inline(always)]
    pub fn probe(&self, key: u64, depth: u32) -> Option<u64> {
        for entry in &self.bucket(key).0 {
            let data = entry.data.load(Ordering::Relaxed);
            let check = entry.check.load(Ordering::Relaxed);
            if check ^ data == key && data & DEPTH_MASK == depth as u64 {
                return Some(data >> DEPTH_BITS);
            }
        }
        None
    }

    /// Stores `count` for the position with `key` at `depth` (`1..=63`).
    #[inline(always)]
    pub fn store(&self, key: u64, depth: u32, count: u64) {
        debug_assert!(depth > 0 && u64::from(depth) <= DEPTH_MASK);
        if count >= COUNT_LIMIT {
            return;
        }
        let data = count << DEPTH_BITS | depth as u64;
        let bucket = &self.bucket(key).0;
        let mut victim = &bucket[0];
        let mut shallowest = u64::MAX;
        for entry in bucket {
            let old = entry.data.load(Ordering::Relaxed);
            if old ^ entry.check.load(Ordering::Relaxed) == key && old & DEPTH_MASK == depth as u64
            {
                victim = entry;
                break;
            }
            let old_depth = old & DEPTH_MASK;
            if old_depth < shallowest {
                shallowest = old_depth;
                victim = entry;
            }
        }
        victim.check.store(key ^ data, Ordering::Relaxed);
        victim.data.store(data, Ordering::Relaxed);
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        if let Some(layout) = Self::layout(self.len) {
            // SAFETY: allocated in `new` with this very layout.
            unsafe { dealloc(self.buckets.as_ptr().cast(), layout) };
        }
    }
}

/// Asks Linux to back `len` bytes at `ptr` with transparent huge pages (fewer TLB misses
/// on random probes); a refusal changes nothing but speed.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, len: usize) {
    const MADV_HUGEPAGE: i32 = 14;
    unsafe extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    // SAFETY: the range is one live allocation of ours; madvise only changes how the
    // kernel backs it, never its contents (still zero).
    let _ = unsafe { madvise(ptr.cast(), len, MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_by_key_and_depth() {
        let table = Table::new(1).expect("1 MB");
        assert_eq!(table.entries(), (1 << 20) / 16);
        assert_eq!(table.probe(42, 3), None);
        table.store(42, 3, 1234);
        assert_eq!(table.probe(42, 3), Some(1234));
        assert_eq!(table.probe(42, 4), None);
        assert_eq!(table.probe(43, 3), None);
        table.store(42, 3, 99);
        assert_eq!(table.probe(42, 3), Some(99));
    }

    #[test]
    fn a_full_bucket_keeps_the_deep_entries() {
        let table = Table::new(0).expect("one bucket");
        for (key, depth) in [(1, 9), (2, 8), (3, 2), (4, 7)] {
            table.store(key, depth, key * 10);
        }
        table.store(5, 3, 50);
        assert_eq!(table.probe(3, 2), None, "the shallowest entry gave way");
        for (key, depth) in [(1, 9), (2, 8), (4, 7), (5, 3)] {
            assert_eq!(table.probe(key, depth), Some(key * 10));
        }
    }

    #[test]
    fn counts_too_big_are_not_stored() {
        let table = Table::new(1).expect("1 MB");
        table.store(7, 20, COUNT_LIMIT);
        assert_eq!(table.probe(7, 20), None);
        table.store(7, 20, COUNT_LIMIT - 1);
        assert_eq!(table.probe(7, 20), Some(COUNT_LIMIT - 1));
    }
}
