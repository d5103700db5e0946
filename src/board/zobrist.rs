//! Zobrist keys: one random number per (piece, square), side, castling rights and
//! en passant file, generated at compile time from a fixed seed.

use super::{Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, k) = splitmix(state);
        state = s;
        out[i] = k;
        i += 1;
    }
    out
}

static PIECE_SQUARE: [u64; 12 * 64] = keys(1);
static CASTLING: [u64; 16] = keys(2);
static EN_PASSANT: [u64; 8] = keys(3);
const SIDE: u64 = keys::<1>(4)[0];

/// The key of `piece` on `sq`.
#[inline(always)]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[piece.index() * 64 + sq.index()]
}

/// The key of a set of castling rights (4 bits).
#[inline(always)]
pub fn castling(bits: u8) -> u64 {
    CASTLING[bits as usize]
}

/// The key of an en passant square (by its file).
#[inline(always)]
pub fn en_passant(sq: Square) -> u64 {
    EN_PASSANT[sq.file() as usize]
}

/// XORed in when black is to move.
#[inline(always)]
pub const fn side() -> u64 {
    SIDE
}
