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

use crate::board::Move;
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

/// One slot: `data` is an [`Entry`] packed by [`Entry::pack`], `check` is the key XOR
/// `data` (both 0 when empty).
#[derive(Default)]
#[repr(C, align(16))]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

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

impl Slot {
    /// The entry stored for `key`, if the slot holds one (and was not torn).
    #[inline(always)]
    fn load(&self, key: u64) -> Option<Entry> {
        let data = self.data.load(Relaxed);
        (self.check.load(Relaxed) ^ data == key).then(|| Entry::unpack(data))
    }

    /// The entry, whatever its key (for `hashfull`).
    fn load_any(&self) -> Entry {
        Entry::unpack(self.data.load(Relaxed))
    }

    #[inline(always)]
    fn save(&self, key: u64, entry: Entry) {
        let data = entry.pack();
        self.check.store(key ^ data, Relaxed);
        self.data.store(data, Relaxed);
    }
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// The best (or refuting) move found, if any.
    pub mv: Option<Move>,
    /// Score relative to the node (mate scores still ply-adjusted: see `score_from_tt`).
    pub score: i32,
    /// Static evaluation.
    pub eval: i32,
    /// Remaining depth of the search that stored it.
    pub depth: i32,
    /// How the score bounds the value.
    pub bound: Bound,
}

/// The largest table allocated, whatever the option asks (MB).
pub const MAX_HASH_MB: usize = 4096;

/// A transposition table. Probes and stores take `&self`, so that search threads share
/// one table; resizing and clearing take `&mut self` (no search runs then).
pub struct Tt {
    slots: Vec<Slot>,
    age: AtomicU8,
}

impl Tt {
    /// A table of about `mb` megabytes (at least 1, at most [`MAX_HASH_MB`] and a quarter
    /// of the machine's memory; halved until the allocation succeeds).
    pub fn new(mb: usize) -> Self {
        let mut tt = Self {
            slots: Vec::new(),
            age: AtomicU8::new(0),
        };
        tt.resize(mb);
        tt
    }

    /// Reallocates to about `mb` megabytes, every page touched (so that the first search
    /// does not pay for page faults); the contents are lost.
    pub fn resize(&mut self, mb: usize) {
        let mut mb = mb.clamp(1, MAX_HASH_MB);
        if let Some(total) = total_memory_mb() {
            mb = mb.min((total / 4).max(1));
        }
        self.slots = Vec::new();
        loop {
            let n = mb * 1024 * 1024 / std::mem::size_of::<Slot>();
            let mut slots = Vec::new();
            if slots.try_reserve_exact(n).is_ok() {
                slots.resize_with(n, Slot::default);
                touch_every_page(&mut slots);
                self.slots = slots;
                break;
            }
            log::warn!(
                "hash table of {mb} MB could not be allocated; trying {}",
                mb / 2
            );
            if mb == 1 {
                break;
            }
            mb /= 2;
        }
        *self.age.get_mut() = 0;
    }

    /// The size in megabytes actually allocated.
    pub fn size_mb(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>() / (1024 * 1024)
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        for slot in &mut self.slots {
            *slot.check.get_mut() = 0;
            *slot.data.get_mut() = 0;
        }
        *self.age.get_mut() = 0;
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        let age = self.age.get_mut();
        *age = (*age + 1) & 63;
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Hit> {
        if self.slots.is_empty() {
            return None;
        }
        let slot = self.slots[self.index(key)].load(key)?;
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
        if self.slots.is_empty() {
            return;
        }
        let age = self.age.load(Relaxed);
        let slot = &self.slots[self.index(key)];
        let old = slot.load(key);
        // A much deeper result of this search is kept, for this position (another
        // thread's shallower one would waste it) as for another.
        let kept = old.unwrap_or_else(|| slot.load_any());
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
        slot.save(key, entry);
    }

    /// Permille of sampled slots filled during the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        if n == 0 {
            return 0;
        }
        let age = self.age.load(Relaxed);
        let used = self.slots[..n]
            .iter()
            .map(Slot::load_any)
            .filter(|s| s.age_bound & 3 != 0 && s.age_bound >> 2 == age)
            .count();
        (used * 1000 / n) as u32
    }
}

/// Writes every page of `slots` once with a value the optimiser cannot know, so that the
/// zeroing is never left to lazily mapped pages (an allocator may hand out zeroed pages
/// that the OS backs only at the first write, during a search).
fn touch_every_page(slots: &mut [Slot]) {
    let per_page = 4096 / std::mem::size_of::<Slot>();
    for i in (0..slots.len()).step_by(per_page) {
        *slots[i].data.get_mut() = std::hint::black_box(0);
    }
}

/// The machine's memory in MB, from /proc/meminfo where there is one.
fn total_memory_mb() -> Option<usize> {
    crate::memory::meminfo_mb("MemTotal:")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn stores_and_verifies_keys() {
        let mut tt = Tt::new(1);
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
        let tt = Tt::new(1);
        let mv = Move::normal(Square::new(12), Square::new(28));
        tt.store(42, Some(mv), 10, 20, 3, Bound::Exact);
        assert!(tt.probe(42).is_some());
        // Another writer's data under this key's check word: what a race leaves.
        let slot = &tt.slots[tt.index(42)];
        let other = Entry {
            depth: 9,
            age_bound: 3,
            ..Entry::default()
        };
        slot.data.store(other.pack(), Relaxed);
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn threads_sharing_the_table_read_only_whole_entries() {
        // Every entry stored for key k has score k % 1000 and eval k % 777: a probe that
        // mixed two writes would show other numbers.
        let tt = Tt::new(1);
        let slots = tt.slots.len() as u64;
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
        let tt = Tt::new(2);
        assert_eq!(tt.size_mb(), 2);
        assert_eq!(Tt::new(0).size_mb(), 1);
    }
}
