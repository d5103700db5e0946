//! The transposition table: one 16-byte entry per slot, verified by the full key.
//!
//! Replacement: a slot is overwritten by a different position unless it holds a deeper
//! result from the current search; results from older searches always give way.

use crate::board::Move;

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

/// One slot.
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Slot {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Age in the top 6 bits, bound in the low 2 (0 = empty).
    age_bound: u8,
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

/// A transposition table.
pub struct Tt {
    slots: Vec<Slot>,
    age: u8,
}

impl Tt {
    /// A table of about `mb` megabytes (at least 1, at most [`MAX_HASH_MB`] and a quarter
    /// of the machine's memory; halved until the allocation succeeds).
    pub fn new(mb: usize) -> Self {
        let mut tt = Self {
            slots: Vec::new(),
            age: 0,
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
                slots.resize(n, Slot::default());
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
        self.age = 0;
    }

    /// The size in megabytes actually allocated.
    pub fn size_mb(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>() / (1024 * 1024)
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.age = 0;
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 63;
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
        let slot = self.slots[self.index(key)];
        let bound = match slot.age_bound & 3 {
            _ if slot.key != key => return None,
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
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
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
        let i = self.index(key);
        let age = self.age;
        let slot = &mut self.slots[i];
        let same = slot.key == key;
        let old_age = slot.age_bound >> 2;
        if !same && old_age == age && slot.depth as i32 > depth + 2 && bound != Bound::Exact {
            return;
        }
        let mv = match mv {
            Some(m) => m.bits(),
            None if same => slot.mv,
            None => 0,
        };
        let b = match bound {
            Bound::Lower => 1,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        *slot = Slot {
            key,
            mv,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(0, 255) as u8,
            age_bound: age << 2 | b,
        };
    }

    /// Permille of sampled slots filled during the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        if n == 0 {
            return 0;
        }
        let used = self.slots[..n]
            .iter()
            .filter(|s| s.age_bound & 3 != 0 && s.age_bound >> 2 == self.age)
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
        slots[i] = std::hint::black_box(Slot::default());
    }
}

/// The machine's memory in MB, from /proc/meminfo where there is one.
fn total_memory_mb() -> Option<usize> {
    meminfo_mb("MemTotal:")
}

/// A `/proc/meminfo` field (such as `MemAvailable:`) in MB, where there is one.
pub fn meminfo_mb(field: &str) -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
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
    fn size_follows_the_option() {
        let tt = Tt::new(2);
        assert_eq!(tt.size_mb(), 2);
        assert_eq!(Tt::new(0).size_mb(), 1);
    }
}
