//! The transposition table, shared by every search thread: one 16-byte slot per entry,
//! verified by the full key.
//!
//! A slot is two atomic words: the entry's data packed in 64 bits, and the key XOR the
//! data. Threads read and write them without locks (relaxed loads and stores, no undefined
//! behaviour); a slot torn by two writers racing has a key word that no longer matches its
//! data, so a probe sees it as empty (the "lockless hashing" of Hyatt and Mann).
//!
//! Replacement: a slot keeps a result of the current search that is more than two plies
//! deeper (three for the same position) than a bound about to replace it; exact scores
//! and results from older searches always take the slot.
//!
//! The memory comes from [`crate::memory`], as the perft tables' does: on transparent
//! huge pages where the system offers them, every page touched when the table is made,
//! and a table larger than the size rule allows refused, never made smaller.

use crate::board::Move;
use crate::memory::{self, TableError};
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// How a stored score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score (a beta cut-off).
    Lower,
    /// The true value is at most the score (no move raised alpha).
    Upper,
    /// The score is exact (a PV node).
    Exact,
}

/// One slot: `[check, data]`, with `data` an [`Entry`] packed by [`Entry::pack`] and
/// `check` the key XOR `data` (both 0 when empty).
type Slot = [AtomicU64; 2];

/// The fields of a slot, unpacked. Bits of the packed word, low to high: move (16),
/// score (16), static evaluation (16), depth (8), age (6) and bound (2, 0 = empty).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Age in the top 6 bits, bound in the low 2 (0 = empty).
    age_bound: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        u64::from(self.mv)
            | u64::from(self.score as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.age_bound) << 56
    }

    fn unpack(data: u64) -> Self {
        Self {
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            age_bound: (data >> 56) as u8,
        }
    }
}

/// The entry stored in `slot` for `key`, if the slot holds one (and was not torn).
#[inline(always)]
fn load(slot: &Slot, key: u64) -> Option<Entry> {
    let data = slot[1].load(Relaxed);
    (slot[0].load(Relaxed) ^ data == key).then(|| Entry::unpack(data))
}

/// The entry in `slot`, whatever its key (for `hashfull`).
fn load_any(slot: &Slot) -> Entry {
    Entry::unpack(slot[1].load(Relaxed))
}

/// Stores `entry` for `key` in `slot`.
#[inline(always)]
fn save(slot: &Slot, key: u64, entry: Entry) {
    let data = entry.pack();
    slot[0].store(key ^ data, Relaxed);
    slot[1].store(data, Relaxed);
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// The best (or refuting) move found, if any.
    pub mv: Option<Move>,
    /// Score relative to the node (mate scores still counted from the node: `from_tt` in
    /// `alphabeta.rs` makes them relative to the root).
    pub score: i32,
    /// Static evaluation.
    pub eval: i32,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// How the score bounds the value.
    pub bound: Bound,
}

/// A transposition table. Probes and stores take `&self`, so that search threads share
/// one table; resizing and clearing take `&mut self` (no search runs then).
pub struct Tt {
    /// The slots; none when no table could be had (every probe then misses).
    slots: Option<memory::Table<Slot>>,
    age: AtomicU8,
}

impl Tt {
    /// A table of about `mb` megabytes (at least 1), every page touched (so that the
    /// first search does not pay for page faults); refused when the memory cannot be
    /// had ([`memory::check_table`]).
    pub fn new(mb: usize) -> Result<Self, TableError> {
        let slots = memory::Table::new(mb.max(1))?;
        slots.touch();
        Ok(Self {
            slots: Some(slots),
            age: AtomicU8::new(0),
        })
    }

    /// No table: every probe misses and nothing is stored.
    pub fn none() -> Self {
        Self {
            slots: None,
            age: AtomicU8::new(0),
        }
    }

    /// The size in megabytes actually allocated (0 for [`Tt::none`]).
    pub fn size_mb(&self) -> usize {
        self.slots
            .as_ref()
            .map_or(0, |slots| slots.len() * size_of::<Slot>() / (1024 * 1024))
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        if let Some(slots) = &self.slots {
            slots.clear();
        }
        *self.age.get_mut() = 0;
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        let age = self.age.get_mut();
        *age = (*age + 1) & 63;
    }

    /// Asks the CPU to start bringing `key`'s slot into the cache, so that a probe a
    /// little later does not wait for memory (called right after a move is made).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(slots) = &self.slots {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let ptr = std::ptr::from_ref(slots.at(key)).cast::<i8>();
            // SAFETY: a prefetch is a hint: it reads nothing and never faults (and `ptr`
            // points into the table anyway); SSE is part of every x86-64 CPU.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(ptr) };
        }
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        let slot = load(self.slots.as_ref()?.at(key), key)?;
        let bound = match slot.age_bound & 3 {
            0 => return None,
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        };
        Some(Hit {
            mv: (slot.mv != 0).then(|| Move::from_bits(slot.mv)),
            score: slot.score as i32,
            eval: slot.eval as i32,
            depth: slot.depth as i32,
            bound,
        })
    }

    /// Stores a result (scores must fit in i16; `depth` is clamped to 0..=255).
    #[inline]
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let Some(slots) = &self.slots else {
            return;
        };
        let age = self.age.load(Relaxed);
        let slot = slots.at(key);
        let old = load(slot, key);
        // A much deeper result of this search is kept, for this position (another
        // thread's shallower one would waste it) as for another.
        let kept = old.unwrap_or_else(|| load_any(slot));
        if kept.age_bound >> 2 == age
            && kept.age_bound & 3 != 0
            && kept.depth as i32 > depth + if old.is_some() { 3 } else { 2 }
            && bound != Bound::Exact
        {
            return;
        }
        let mv = match (mv, old) {
            (Some(m), _) => m.bits(),
            (None, Some(old)) => old.mv,
            (None, None) => 0,
        };
        let b = match bound {
            Bound::Lower => 1,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        let entry = Entry {
            mv,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(0, 255) as u8,
            age_bound: age << 2 | b,
        };
        save(slot, key, entry);
    }

    /// Permille of sampled slots filled during the current search.
    pub fn hashfull(&self) -> u32 {
        let Some(slots) = &self.slots else {
            return 0;
        };
        let sample = &slots.as_slice()[..slots.len().min(1000)];
        let age = self.age.load(Relaxed);
        let used = sample
            .iter()
            .map(load_any)
            .filter(|s| s.age_bound & 3 != 0 && s.age_bound >> 2 == age)
            .count();
        (used * 1000 / sample.len()) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn stores_and_verifies_keys() {
        let mut tt = Tt::new(1).expect("1 MB");
        let mv = Move::normal(Square::new(12), Square::new(28));
        tt.store(0xDEAD_BEEF, Some(mv), -123, 45, 7, Bound::Lower);
        let hit = tt.probe(0xDEAD_BEEF).expect("stored");
        assert_eq!(
            (hit.mv, hit.score, hit.eval, hit.depth, hit.bound),
            (Some(mv), -123, 45, 7, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEEE).is_none());
        assert!(tt.hashfull() <= 1000);
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF).is_none());
    }

    #[test]
    fn a_torn_slot_reads_as_empty() {
        let tt = Tt::new(1).expect("1 MB");
        let mv = Move::normal(Square::new(12), Square::new(28));
        tt.store(42, Some(mv), 10, 20, 3, Bound::Exact);
        assert!(tt.probe(42).is_some());
        // Another writer's data under this key's check word: what a race leaves.
        let slot = tt.slots.as_ref().expect("a table").at(42);
        let other = Entry {
            depth: 9,
            age_bound: 3,
            ..Entry::default()
        };
        slot[1].store(other.pack(), Relaxed);
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn threads_sharing_the_table_read_only_whole_entries() {
        // Every entry stored for key k has score k % 1000 and eval k % 777: a probe that
        // mixed two writes would show other numbers.
        let tt = Tt::new(1).expect("1 MB");
        let slots = tt.slots.as_ref().map_or(1, |s| s.len()) as u64;
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    let mut x = 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(t + 1);
                    for _ in 0..200_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        // Few distinct slots, so that writers collide often.
                        let key = x % 64 * (u64::MAX / slots.max(1)) + x % 3;
                        let (score, eval) = ((key % 1000) as i32, (key % 777) as i32);
                        if let Some(hit) = tt.probe(key) {
                            assert_eq!((hit.score, hit.eval), (score, eval), "key {key}");
                        }
                        tt.store(key, None, score, eval, (x % 20) as i32, Bound::Exact);
                    }
                });
            }
        });
    }

    #[test]
    fn size_follows_the_option() {
        let tt = Tt::new(2).expect("2 MB");
        assert_eq!(tt.size_mb(), 2);
        assert_eq!(Tt::new(0).expect("1 MB").size_mb(), 1);
        assert!(Tt::new(usize::MAX / (1 << 21)).is_err());
        let none = Tt::none();
        assert_eq!((none.size_mb(), none.hashfull()), (0, 0));
        none.store(42, None, 1, 2, 3, Bound::Exact);
        assert!(none.probe(42).is_none());
    }
}
