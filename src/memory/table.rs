//! Zeroed tables of atomic words, shared by threads without locks: every `unsafe` the
//! large tables need.
//!
//! On Unix the memory is an anonymous private mapping: the OS zeroes each page when it
//! is first touched, so a table costs nothing until used ([`Table::touch`] pays for every
//! page at once where the first probes must not wait). A table of 2 MB or more is
//! mapped on a 2 MB boundary, in whole 2 MB pages, with `MADV_HUGEPAGE` on Linux, so that
//! all of it can be backed by transparent huge pages where the system offers them.
//! Elsewhere the memory comes zeroed from the global allocator.

use super::TableError;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

/// Types made of [`AtomicU64`]s only: an atomic word, or an array of such types.
///
/// # Safety
/// The type must be a sequence of `AtomicU64`s without padding, so that all-zero bytes
/// are a valid value, and a table of it is also a slice of words. Implemented here only,
/// for `AtomicU64` and arrays.
pub(crate) unsafe trait Words: Send + Sync + Sized + 'static {}

// SAFETY: one word; all-zero bytes are the atomic 0.
unsafe impl Words for AtomicU64 {}
// SAFETY: an array has no padding between its elements, each a sequence of words.
unsafe impl<T: Words, const N: usize> Words for [T; N] {}

/// The size of the pages a table of 2 MB or more is aligned to and made of.
#[cfg(unix)]
const HUGE_PAGE: usize = 2 << 20;

/// A fixed number of elements of `T`, every word zero at first, freed on drop.
pub(crate) struct Table<T: Words> {
    ptr: NonNull<T>,
    len: usize,
    /// The bytes mapped or allocated, for freeing them.
    bytes: usize,
}

// SAFETY: the table owns its memory (nothing else points into it) and holds only atomic
// words, which any thread may use through `&self`.
unsafe impl<T: Words> Send for Table<T> {}
// SAFETY: as above.
unsafe impl<T: Words> Sync for Table<T> {}

impl<T: Words> Table<T> {
    /// A table of about `mb` MB (at least one element), every word zero: refused if
    /// larger than the size rule allows ([`super::check_table`]) or if the system refuses
    /// the memory.
    pub(crate) fn new(mb: usize) -> Result<Self, TableError> {
        super::check_table(mb)?;
        let bytes = mb.checked_mul(1 << 20).ok_or(TableError::Refused { mb })?;
        Self::with_len((bytes / size_of::<T>()).max(1)).ok_or(TableError::Refused { mb })
    }

    /// A table of `len >= 1` elements, every word zero; `None` if the memory cannot be
    /// had.
    pub(crate) fn with_len(len: usize) -> Option<Self> {
        const { assert!(size_of::<T>() > 0) };
        let len = len.max(1);
        let (ptr, bytes) = allocate(len.checked_mul(size_of::<T>())?)?;
        Some(Self {
            ptr: ptr.cast(),
            len,
            bytes,
        })
    }

    /// The number of elements.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The element the high bits of `key` pick (`key * len / 2^64`: any size works).
    #[inline(always)]
    pub(crate) fn at(&self, key: u64) -> &T {
        let index = ((u128::from(key) * self.len as u128) >> 64) as usize;
        // SAFETY: index < len, as key < 2^64; the memory holds `len` elements of zeroed
        // (or since written) words, valid values of `T`, for as long as `self` lives.
        unsafe { &*self.ptr.as_ptr().add(index) }
    }

    /// The elements.
    pub(crate) fn as_slice(&self) -> &[T] {
        // SAFETY: as in `at`: `len` valid elements, alive as long as `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    /// Every word of the table.
    fn words(&self) -> &[AtomicU64] {
        // SAFETY: `T: Words` is a sequence of `AtomicU64`s without padding, so the
        // elements are `len * size_of::<T>() / 8` words, aligned as `AtomicU64`.
        unsafe {
            std::slice::from_raw_parts(
                self.ptr.as_ptr().cast::<AtomicU64>(),
                self.len * size_of::<T>() / size_of::<AtomicU64>(),
            )
        }
    }

    /// Writes once to every page of the table, an atomic no-op (so that threads using
    /// the table meanwhile are not disturbed), making the OS back it with memory now
    /// rather than at the first probes. The operand goes through `black_box`: an `or`
    /// with a known 0 is compiled to a load, which maps the shared zero page instead.
    pub(crate) fn touch(&self) {
        const WORDS_PER_PAGE: usize = 4096 / size_of::<AtomicU64>();
        for word in self.words().iter().step_by(WORDS_PER_PAGE) {
            word.fetch_or(std::hint::black_box(0), Ordering::Relaxed);
        }
    }

    /// Sets every word to zero.
    pub(crate) fn clear(&self) {
        for word in self.words() {
            word.store(0, Ordering::Relaxed);
        }
    }
}

impl<T: Words> Drop for Table<T> {
    fn drop(&mut self) {
        free(self.ptr.cast(), self.bytes);
    }
}

/// At least `bytes > 0` zeroed bytes, aligned to 64: the start and the bytes actually
/// taken (rounded up to whole huge pages from 2 MB up).
#[cfg(unix)]
fn allocate(bytes: usize) -> Option<(NonNull<u8>, usize)> {
    if bytes < HUGE_PAGE {
        return Some((map(bytes)?, bytes));
    }
    let len = bytes.checked_next_multiple_of(HUGE_PAGE)?;
    let span = len.checked_add(HUGE_PAGE)?;
    let raw = map(span)?;
    let head = raw.as_ptr().align_offset(HUGE_PAGE);
    // SAFETY: `head < HUGE_PAGE`, so `[head, head + len)` lies inside the `span` bytes
    // just mapped; the parts before and after it are unmapped (neither is used).
    let start = unsafe {
        let start = raw.add(head);
        if head > 0 {
            libc::munmap(raw.as_ptr().cast(), head);
        }
        let tail = span - head - len;
        if tail > 0 {
            libc::munmap(start.add(len).as_ptr().cast(), tail);
        }
        start
    };
    #[cfg(target_os = "linux")]
    // SAFETY: the range is the mapping kept; the advice only changes how the kernel backs
    // it (a refusal changes nothing but speed).
    unsafe {
        libc::madvise(start.as_ptr().cast(), len, libc::MADV_HUGEPAGE);
    }
    Some((start, len))
}

/// A fresh private anonymous mapping of `bytes > 0` bytes (page-aligned, zeroed lazily).
#[cfg(unix)]
fn map(bytes: usize) -> Option<NonNull<u8>> {
    // SAFETY: a fresh private anonymous mapping; no existing memory is touched.
    let ptr = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            bytes,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if ptr == libc::MAP_FAILED {
        return None;
    }
    NonNull::new(ptr.cast())
}

/// Unmaps what [`allocate`] returned.
#[cfg(unix)]
fn free(ptr: NonNull<u8>, bytes: usize) {
    // SAFETY: the mapping made by `allocate`, of these bytes, unmapped once (on drop).
    unsafe { libc::munmap(ptr.as_ptr().cast(), bytes) };
}

/// `bytes > 0` zeroed bytes from the global allocator, aligned to 64.
#[cfg(not(unix))]
fn allocate(bytes: usize) -> Option<(NonNull<u8>, usize)> {
    let layout = std::alloc::Layout::from_size_align(bytes, 64).ok()?;
    // SAFETY: the layout has a non-zero size.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
    Some((NonNull::new(ptr)?, bytes))
}

/// Frees what [`allocate`] returned.
#[cfg(not(unix))]
fn free(ptr: NonNull<u8>, bytes: usize) {
    if let Ok(layout) = std::alloc::Layout::from_size_align(bytes, 64) {
        // SAFETY: allocated by `allocate` with this very layout, freed once (on drop).
        unsafe { std::alloc::dealloc(ptr.as_ptr(), layout) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_start_zeroed_and_keep_what_is_written() {
        for len in [1, 3, 1000, 40_000] {
            let table = Table::<[AtomicU64; 3]>::with_len(len).expect("memory");
            assert_eq!(table.len(), len);
            assert_eq!(table.as_slice().len(), len);
            assert!(table.words().iter().all(|w| w.load(Ordering::Relaxed) == 0));
            table.at(u64::MAX)[2].store(7, Ordering::Relaxed);
            table.at(0)[0].store(5, Ordering::Relaxed);
            table.touch();
            assert_eq!(table.as_slice()[len - 1][2].load(Ordering::Relaxed), 7);
            assert_eq!(table.as_slice()[0][0].load(Ordering::Relaxed), 5);
            table.clear();
            assert!(table.words().iter().all(|w| w.load(Ordering::Relaxed) == 0));
        }
    }

    #[test]
    fn sizes_follow_the_size_rule() {
        let table = Table::<[AtomicU64; 8]>::new(3).expect("3 MB");
        assert_eq!(table.len(), 3 * (1 << 20) / 64);
        #[cfg(unix)]
        {
            assert_eq!(table.bytes, 4 << 20, "whole huge pages");
            assert_eq!(table.ptr.as_ptr().align_offset(HUGE_PAGE), 0);
        }
        assert_eq!(Table::<AtomicU64>::new(0).expect("one word").len(), 1);
        assert!(matches!(
            Table::<AtomicU64>::new(usize::MAX / 2),
            Err(TableError::TooLarge { .. } | TableError::Refused { .. })
        ));
    }
}
