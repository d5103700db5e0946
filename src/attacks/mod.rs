//! Attack tables: leapers computed at compile time, sliders built by `build.rs`, both
//! from the one ray walker in [`rays`]. This layer sits below the board: it knows
//! squares and bitboards ([`crate::types`]), nothing about positions.
//!
//! Slider look-ups use PEXT when the CPU has fast BMI2 and fancy magic bitboards
//! otherwise, so the default build runs on any x86-64 (or any CPU). That choice is the
//! one process-wide setting the hot path reads: made once per process by [`init`]
//! (which `Position::from_fen` calls), never changed afterwards. Both look-ups give the
//! same attacks, so a look-up made before [`init`] (magics) is right, only slower.

pub mod rays;

use crate::types::{Bitboard, Color, Square};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

mod generated {
    include!(concat!(env!("OUT_DIR"), "/tables.rs"));
}
use generated::*;

/// A `u64` table stored as little-endian bytes, aligned for reading as `u64`s.
#[repr(C, align(64))]
struct Aligned<T>(T);

macro_rules! table {
    ($name:ident, $len:expr, $file:literal) => {
        static $name: Aligned<[u64; $len]> = Aligned(unsafe {
            // SAFETY: build.rs wrote exactly `$len` little-endian u64s; any bit pattern is a
            // valid u64 and the target is little-endian (checked below).
            std::mem::transmute::<[u8; $len * 8], [u64; $len]>(*include_bytes!(concat!(
                env!("OUT_DIR"),
                "/",
                $file
            )))
        });
    };
}

#[cfg(target_endian = "big")]
compile_error!("the attack tables are stored little-endian");

table!(ROOK_PEXT, ROOK_TABLE_LEN, "rook_pext.bin");
table!(ROOK_MAGIC, ROOK_TABLE_LEN, "rook_magic.bin");
table!(BISHOP_PEXT, BISHOP_TABLE_LEN, "bishop_pext.bin");
table!(BISHOP_MAGIC, BISHOP_TABLE_LEN, "bishop_magic.bin");
table!(BETWEEN, 4096, "between.bin");
table!(LINE, 4096, "line.bin");

/// Whether slider look-ups use PEXT: written once, by [`init`].
static USE_PEXT: AtomicBool = AtomicBool::new(false);
static CHOOSE: Once = Once::new();

/// Chooses, once per process, PEXT look-ups if the CPU runs PEXT fast; later calls do
/// nothing (one atomic load), so callers need not coordinate.
pub fn init() {
    CHOOSE.call_once(|| USE_PEXT.store(fast_pext(), Ordering::Relaxed));
}

/// Whether slider look-ups use PEXT.
pub fn uses_pext() -> bool {
    USE_PEXT.load(Ordering::Relaxed)
}

#[cfg(target_arch = "x86_64")]
fn fast_pext() -> bool {
    if !std::arch::is_x86_feature_detected!("bmi2") {
        return false;
    }
    // AMD before Zen 3 (family 0x19) runs PEXT in microcode, slower than magics.
    let vendor = cpuid(0);
    let amd = vendor.ebx == u32::from_le_bytes(*b"Auth");
    if !amd {
        return true;
    }
    let eax = cpuid(1).eax;
    let family = ((eax >> 8) & 0xF) + ((eax >> 20) & 0xFF);
    family >= 0x19
}

/// CPUID leaf `leaf`. (`__cpuid` is a safe function in newer Rust and an unsafe one in
/// the `rust-version` of `Cargo.toml`, which the block keeps building.)
#[cfg(target_arch = "x86_64")]
#[allow(unused_unsafe)]
fn cpuid(leaf: u32) -> std::arch::x86_64::CpuidResult {
    // SAFETY: every x86-64 CPU has CPUID, and leaves 0 and 1 exist on all of them.
    unsafe { std::arch::x86_64::__cpuid(leaf) }
}

#[cfg(not(target_arch = "x86_64"))]
fn fast_pext() -> bool {
    false
}

#[inline(always)]
fn pext(value: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let result: u64;
        // SAFETY: only reached with the PEXT look-up chosen, which `init` does only on a
        // CPU with BMI2, or through `Pext`, which the perft walk uses only once `init`
        // chose PEXT (and the tests only after checking for BMI2); PEXT reads registers
        // only.
        unsafe {
            std::arch::asm!("pext {r}, {v}, {m}", r = lateout(reg) result, v = in(reg) value,
                m = in(reg) mask, options(pure, nomem, nostack));
        }
        result
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (value, mask);
        unreachable!("PEXT is only enabled on x86-64")
    }
}

/// A slider look-up, by PEXT (`by_pext`, only on a CPU with BMI2) or by magics.
#[inline(always)]
#[allow(clippy::too_many_arguments)] // one call per piece, each with its own tables
fn slider(
    by_pext: bool,
    sq: Square,
    occ: Bitboard,
    masks: &[u64; 64],
    magics: &[u64; 64],
    offsets: &[u32; 64],
    pext_table: &[u64],
    magic_table: &[u64],
) -> Bitboard {
    let i = sq.index();
    let mask = masks[i];
    let base = offsets[i] as usize;
    if by_pext {
        let index = base + pext(occ.0, mask) as usize;
        // SAFETY: PEXT of a mask with n bits is below 2^n, the size of this square's slice.
        Bitboard(unsafe { *pext_table.get_unchecked(index) })
    } else {
        let shift = 64 - mask.count_ones();
        let index = base + ((occ.0 & mask).wrapping_mul(magics[i]) >> shift) as usize;
        // SAFETY: the shift leaves as many bits as the mask has, the size of the slice.
        Bitboard(unsafe { *magic_table.get_unchecked(index) })
    }
}

/// Squares a rook on `sq` attacks with `occ` occupied.
#[inline(always)]
pub fn rook(sq: Square, occ: Bitboard) -> Bitboard {
    rook_by(USE_PEXT.load(Ordering::Relaxed), sq, occ)
}

/// A slider look-up fixed at compile time: the perft walk is compiled once for each, so
/// its inner loop never reads the process-wide choice (one load and one branch per
/// look-up, 7-10% of the walk's instructions).
pub(crate) trait Sliders {
    /// Squares a rook on `sq` attacks with `occ` occupied.
    fn rook(sq: Square, occ: Bitboard) -> Bitboard;
    /// Squares a bishop on `sq` attacks with `occ` occupied.
    fn bishop(sq: Square, occ: Bitboard) -> Bitboard;
}

/// Whichever look-up [`init`] chose, read at every look-up.
pub(crate) struct Chosen;

/// Fancy magics: any CPU.
pub(crate) struct Magics;

/// PEXT: to be used only once [`uses_pext`] is true (the CPU has BMI2).
pub(crate) struct Pext;

impl Sliders for Chosen {
    #[inline(always)]
    fn rook(sq: Square, occ: Bitboard) -> Bitboard {
        rook(sq, occ)
    }
    #[inline(always)]
    fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
        bishop(sq, occ)
    }
}

impl Sliders for Magics {
    #[inline(always)]
    fn rook(sq: Square, occ: Bitboard) -> Bitboard {
        rook_by(false, sq, occ)
    }
    #[inline(always)]
    fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
        bishop_by(false, sq, occ)
    }
}

impl Sliders for Pext {
    #[inline(always)]
    fn rook(sq: Square, occ: Bitboard) -> Bitboard {
        rook_by(true, sq, occ)
    }
    #[inline(always)]
    fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
        bishop_by(true, sq, occ)
    }
}

/// [`rook`] with the look-up given.
#[inline(always)]
fn rook_by(by_pext: bool, sq: Square, occ: Bitboard) -> Bitboard {
    slider(
        by_pext,
        sq,
        occ,
        &ROOK_MASKS,
        &ROOK_MAGICS,
        &ROOK_OFFSETS,
        &ROOK_PEXT.0,
        &ROOK_MAGIC.0,
    )
}

/// Squares a bishop on `sq` attacks with `occ` occupied.
#[inline(always)]
pub fn bishop(sq: Square, occ: Bitboard) -> Bitboard {
    bishop_by(USE_PEXT.load(Ordering::Relaxed), sq, occ)
}

/// [`bishop`] with the look-up given.
#[inline(always)]
fn bishop_by(by_pext: bool, sq: Square, occ: Bitboard) -> Bitboard {
    slider(
        by_pext,
        sq,
        occ,
        &BISHOP_MASKS,
        &BISHOP_MAGICS,
        &BISHOP_OFFSETS,
        &BISHOP_PEXT.0,
        &BISHOP_MAGIC.0,
    )
}

/// Squares a queen on `sq` attacks with `occ` occupied.
#[inline(always)]
pub fn queen(sq: Square, occ: Bitboard) -> Bitboard {
    rook(sq, occ) | bishop(sq, occ)
}

/// Squares strictly between `a` and `b` when they share a line, else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(pair(&BETWEEN.0, a, b))
}

/// The whole line through `a` and `b` (edge to edge) when they share one, else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(pair(&LINE.0, a, b))
}

/// The entry of a 64 x 64 square-pair table.
#[inline(always)]
fn pair(table: &[u64; 4096], a: Square, b: Square) -> u64 {
    table[a.index() * 64 + b.index()]
}

/// For every square, what [`rays::walk`] reaches on an empty board along `dirs` in at
/// most `max_steps` steps.
const fn per_square(dirs: &[(i8, i8)], max_steps: u32) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = Bitboard(rays::walk(sq, dirs, 0, max_steps));
        sq += 1;
    }
    table
}

static KNIGHT: [Bitboard; 64] = per_square(&rays::KNIGHT_JUMPS, 1);
static KING: [Bitboard; 64] = per_square(&rays::KING_STEPS, 1);
static PAWN: [[Bitboard; 64]; 2] = [
    per_square(&[(-1, 1), (1, 1)], 1),
    per_square(&[(-1, -1), (1, -1)], 1),
];
static ROOK_RAYS: [Bitboard; 64] = per_square(&rays::ROOK_DIRS, 7);
static BISHOP_RAYS: [Bitboard; 64] = per_square(&rays::BISHOP_DIRS, 7);
static ROOK_RAYS_NEAR: [Bitboard; 64] = near(&ROOK_RAYS);
static BISHOP_RAYS_NEAR: [Bitboard; 64] = near(&BISHOP_RAYS);

/// For every square, the union of `rays` over the squares a king there attacks.
const fn near(rays: &[Bitboard; 64]) -> [Bitboard; 64] {
    let kings = per_square(&rays::KING_STEPS, 1);
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut around = kings[sq].0;
        while around != 0 {
            table[sq].0 |= rays[around.trailing_zeros() as usize].0;
            around &= around - 1;
        }
        sq += 1;
    }
    table
}

/// Squares a rook on `sq` reaches on an empty board: a cheap filter before [`rook`].
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    ROOK_RAYS[sq.index()]
}

/// Squares a bishop on `sq` reaches on an empty board: a cheap filter before [`bishop`].
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    BISHOP_RAYS[sq.index()]
}

/// Squares from which a rook could attack, on an empty board, some square next to `sq`:
/// the only enemy rooks and queens that can keep a king on `sq` from stepping.
#[inline(always)]
pub fn rook_rays_near(sq: Square) -> Bitboard {
    ROOK_RAYS_NEAR[sq.index()]
}

/// Squares from which a bishop could attack, on an empty board, some square next to `sq`.
#[inline(always)]
pub fn bishop_rays_near(sq: Square) -> Bitboard {
    BISHOP_RAYS_NEAR[sq.index()]
}

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).expect("valid square")
    }

    /// The look-ups this CPU can run: magics always, PEXT where BMI2 exists. Passed
    /// explicitly, so no test changes the process-wide choice other tests rely on.
    fn lookups() -> Vec<bool> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi2") {
            return vec![false, true];
        }
        vec![false]
    }

    #[test]
    fn rook_stops_at_blockers() {
        for by_pext in lookups() {
            let occ = Bitboard::from(sq("d6")) | Bitboard::from(sq("f4"));
            let att = rook_by(by_pext, sq("d4"), occ);
            assert!(att.has(sq("d6")) && !att.has(sq("d7")));
            assert!(att.has(sq("f4")) && !att.has(sq("g4")));
            assert!(att.has(sq("d1")) && att.has(sq("a4")));
            assert_eq!(att.count(), 2 + 2 + 3 + 3);
        }
    }

    #[test]
    fn bishop_stops_at_blockers() {
        for by_pext in lookups() {
            let att = bishop_by(by_pext, sq("c1"), Bitboard::from(sq("e3")));
            assert_eq!(
                att,
                Bitboard::from(sq("b2"))
                    | Bitboard::from(sq("a3"))
                    | Bitboard::from(sq("d2"))
                    | Bitboard::from(sq("e3"))
            );
        }
    }

    /// Both look-ups agree with walking the rays, on every square, for occupancies from
    /// a fixed pseudo-random sequence (sparse and dense).
    #[test]
    fn lookups_match_the_ray_walker() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..200 {
            let occs = [next() & next() & next(), next() & next(), next()];
            for occ in occs {
                for i in 0..64 {
                    let s = Square::new(i);
                    for by_pext in lookups() {
                        let rook = rook_by(by_pext, s, Bitboard(occ));
                        let bishop = bishop_by(by_pext, s, Bitboard(occ));
                        assert_eq!(rook.0, rays::slide(i as usize, &rays::ROOK_DIRS, occ));
                        assert_eq!(bishop.0, rays::slide(i as usize, &rays::BISHOP_DIRS, occ));
                    }
                }
            }
        }
    }

    #[test]
    fn init_chooses_once() {
        init();
        let chosen = uses_pext();
        init();
        assert_eq!(uses_pext(), chosen);
        assert_eq!(chosen, fast_pext());
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            between(sq("a1"), sq("d4")),
            Bitboard::from(sq("b2")) | Bitboard::from(sq("c3"))
        );
        assert_eq!(between(sq("a1"), sq("b3")), Bitboard::EMPTY);
        assert_eq!(line(sq("a1"), sq("b2")).count(), 8);
        assert!(line(sq("a1"), sq("b3")).is_empty());
    }

    #[test]
    fn leapers() {
        assert_eq!(knight(sq("a1")).count(), 2);
        assert_eq!(king(sq("e4")).count(), 8);
        assert_eq!(pawn(Color::White, sq("a2")), Bitboard::from(sq("b3")));
        assert_eq!(pawn(Color::Black, sq("h7")), Bitboard::from(sq("g6")));
    }

    #[test]
    fn rays_near_cover_the_rays_of_every_neighbour() {
        for i in 0..64 {
            let s = Square::new(i);
            let (mut rook, mut bishop) = (Bitboard::EMPTY, Bitboard::EMPTY);
            for n in king(s) {
                rook |= rook_rays(n);
                bishop |= bishop_rays(n);
            }
            assert_eq!(rook_rays_near(s), rook);
            assert_eq!(bishop_rays_near(s), bishop);
        }
    }

    #[test]
    fn rays_are_empty_board_attacks() {
        for by_pext in lookups() {
            for i in 0..64 {
                let s = Square::new(i);
                assert_eq!(rook_rays(s), rook_by(by_pext, s, Bitboard::EMPTY));
                assert_eq!(bishop_rays(s), bishop_by(by_pext, s, Bitboard::EMPTY));
            }
        }
    }
}
