//! Walking rays on the 8 x 8 board: the one routine behind every attack table.
//!
//! `build.rs` includes this file (`#[path]`) to build the slider, `between` and `line`
//! tables, and [`crate::attacks`] builds the leaper and empty-board ray tables from it
//! at compile time, so the two cannot disagree. Plain `u64` bitboards and square
//! indices (0 = a1, 63 = h8) and no imports, so the file compiles in both places.

/// Rook directions as (file, rank) steps.
pub const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop directions as (file, rank) steps.
pub const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
/// Knight jumps as (file, rank) steps.
pub const KNIGHT_JUMPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
/// King steps as (file, rank) steps.
pub const KING_STEPS: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// The squares reached from `sq` in at most `max_steps` steps along each of `dirs`; each
/// ray stops on the first square of `occ` it meets (that square included) and at the
/// board's edge. `max_steps` 1 gives a leaper's attacks, 7 a slider's.
pub const fn walk(sq: usize, dirs: &[(i8, i8)], occ: u64, max_steps: u32) -> u64 {
    let mut reached = 0;
    let mut i = 0;
    while i < dirs.len() {
        let (df, dr) = dirs[i];
        let mut f = (sq % 8) as i8 + df;
        let mut r = (sq / 8) as i8 + dr;
        let mut steps = 0;
        while steps < max_steps && f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            reached |= bit;
            if occ & bit != 0 {
                break;
            }
            f += df;
            r += dr;
            steps += 1;
        }
        i += 1;
    }
    reached
}

/// Squares a slider on `sq` moving along `dirs` attacks, stopping at blockers in `occ`.
pub const fn slide(sq: usize, dirs: &[(i8, i8)], occ: u64) -> u64 {
    walk(sq, dirs, occ, 7)
}
