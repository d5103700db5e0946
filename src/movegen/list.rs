//! `MoveList`: a fixed-capacity list of moves on the stack (no allocation).

use crate::board::Move;
use std::mem::MaybeUninit;
use std::ops::Deref;

/// More moves than any position Rookling accepts can have: a side has at most 15 pieces
/// besides its king (FEN validation refuses more than 16), none with more than a
/// queen's 27 moves (a promoting pawn has 12), plus 8 king steps and 2 castlings. (The
/// most any reachable position has is 218.)
pub const MAX_MOVES: usize = 15 * 27 + 8 + 2;

/// Up to [`MAX_MOVES`] moves, stored inline; the unused tail is never initialised
/// (a perft makes millions of lists).
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Clone for MoveList {
    fn clone(&self) -> Self {
        let mut list = Self::new();
        for &mv in self.iter() {
            list.push(mv);
        }
        list
    }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub const fn new() -> Self {
        Self {
            moves: [MaybeUninit::uninit(); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// When the list already holds [`MAX_MOVES`] moves, which the legal moves of a
    /// position never reach.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len].write(mv);
        self.len += 1;
    }

    /// The moves as a mutable slice (for sorting).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: the first `len` moves were written by `push`; `MaybeUninit<Move>` has
        // the layout of `Move`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast(), self.len) }
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline(always)]
    fn deref(&self) -> &[Move] {
        // SAFETY: the first `len` moves were written by `push`; `MaybeUninit<Move>` has
        // the layout of `Move`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast(), self.len) }
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
