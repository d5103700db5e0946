//! Large tables: the one way Rookling gets memory for the search's transposition table,
//! the perft hash table and the statistics table, and the one rule for how large they
//! may be.
//!
//! - **Size.** A table larger than [`TABLE_MEMORY_PERCENT`] of the memory available
//!   (`MemAvailable` in `/proc/meminfo`) is refused ([`TableError::TooLarge`]) instead of
//!   being allocated: filling it would end with the process killed for lack of memory
//!   (or another one on the same machine), never with an error. Without `/proc/meminfo`
//!   nothing is refused by size; an allocation the OS refuses still is
//!   ([`TableError::Refused`]).
//! - **Memory.** `table.rs`: zeroed words from an anonymous mapping, zeroed lazily by
//!   the OS (a page costs nothing until it is first touched) and backed by transparent
//!   huge pages where the system offers them (fewer TLB misses on random probes), or
//!   from the global allocator off Unix. Every `unsafe` of it is there.

mod table;

pub(crate) use table::Table;

use std::fmt;

/// The share of the available memory (`MemAvailable`), in percent, a table may take.
pub const TABLE_MEMORY_PERCENT: usize = 90;

/// Why a table could not be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableError {
    /// `mb` MB is more than [`TABLE_MEMORY_PERCENT`] of the `available_mb` MB available.
    TooLarge {
        /// The size asked for, MB.
        mb: usize,
        /// The memory available when it was asked for, MB.
        available_mb: usize,
    },
    /// The operating system refused the memory.
    Refused {
        /// The size asked for, MB.
        mb: usize,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::TooLarge { mb, available_mb } => write!(
                f,
                "{mb} MB is more than {TABLE_MEMORY_PERCENT}% of the {available_mb} MB of \
                 memory available"
            ),
            TableError::Refused { mb } => {
                write!(f, "{mb} MB cannot be allocated (the system refused it)")
            }
        }
    }
}

impl std::error::Error for TableError {}

/// Whether a table of `mb` MB may be allocated now (see the module documentation); no
/// table (`mb == 0`) always may.
pub fn check_table(mb: usize) -> Result<(), TableError> {
    if mb == 0 {
        return Ok(());
    }
    match meminfo_mb("MemAvailable:") {
        Some(available_mb) => fits(mb, available_mb),
        None => Ok(()),
    }
}

/// Whether `mb` MB is within [`TABLE_MEMORY_PERCENT`] of `available_mb`.
fn fits(mb: usize, available_mb: usize) -> Result<(), TableError> {
    if mb as u128 * 100 > available_mb as u128 * TABLE_MEMORY_PERCENT as u128 {
        return Err(TableError::TooLarge { mb, available_mb });
    }
    Ok(())
}

/// A `/proc/meminfo` field (such as `MemAvailable:`) in MB, where there is one.
fn meminfo_mb(field: &str) -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Asks the CPU to bring the cache line holding `item` into its cache, so that a read a
/// little later does not wait for memory; nothing is read or written.
#[inline(always)]
pub(crate) fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it never faults and changes no memory (and
    // SSE, which it needs, is part of x86-64).
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((item as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_past_90_percent_of_the_available_memory_are_refused() {
        assert_eq!(fits(900, 1000), Ok(()));
        assert_eq!(fits(0, 0), Ok(()));
        let e = fits(901, 1000).unwrap_err();
        assert_eq!(
            e.to_string(),
            "901 MB is more than 90% of the 1000 MB of memory available"
        );
        assert!(fits(usize::MAX, usize::MAX).is_err());
        // Small machines too: 90% of 50 MB is 45 MB.
        assert_eq!(fits(1, 50), Ok(()));
        assert_eq!(fits(45, 50), Ok(()));
        assert!(fits(46, 50).is_err());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_table_larger_than_any_machine_is_refused() {
        assert!(meminfo_mb("MemAvailable:").is_some());
        assert!(check_table(usize::MAX / 2).is_err());
        assert_eq!(check_table(1), Ok(()));
    }
}
