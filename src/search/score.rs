//! The score scale every part of the search shares: evaluations in centipawns, below
//! tablebase results, below mates.

use super::ordering::MAX_PLY;

/// Above every score.
pub const INF: i32 = 32_001;
/// The score of mate at the root (mate in n plies scores `MATE - n`).
pub const MATE: i32 = 32_000;
/// Scores at or beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// A tablebase win at the root: a win the tables find at ply n scores `TB_WIN - n`,
/// below every mate and above every evaluation.
pub const TB_WIN: i32 = MATE_BOUND - 1;
/// Scores at or beyond this (in absolute value) are decisive: tablebase results or mates.
/// Evaluations stay below it.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;
