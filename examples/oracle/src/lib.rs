//! Rookling as a perft oracle: how a move-generator author checks their own generator
//! against Rookling in their crate's tests, through Rookling's public API only.
//!
//! A generator under test implements [`Divide`] (each legal move in UCI notation, with
//! the leaf count below it); [`first_difference`] compares it with Rookling's
//! [`divide`](rookling::perft::divide) and drills down, move by move, to the first
//! position where the two disagree, as `rookling compare` does between two engines.

use rookling::board::{FenError, Position};
use rookling::perft::divide;
use std::collections::BTreeMap;

/// A move generator's divide: each legal move of `fen` in UCI notation (`e2e4`, `e7e8q`,
/// `e1g1`), with the perft of `depth - 1` below it.
pub trait Divide {
    /// The divide of `fen` at `depth` (at least 1).
    fn divide(&self, fen: &str, depth: u32) -> Vec<(String, u128)>;
}

/// Where a generator first disagrees with Rookling.
#[derive(Debug, PartialEq, Eq)]
pub struct Difference {
    /// The position where the divides differ.
    pub fen: String,
    /// The depth of the divide there.
    pub depth: u32,
    /// The move whose count differs (a move only one side lists has 0 on the other).
    pub mv: String,
    /// Rookling's count below `mv`.
    pub expected: u128,
    /// The generator's count below `mv`.
    pub found: u128,
}

/// The first position and move, drilling down from `fen` at `depth`, where `candidate`'s
/// divide differs from Rookling's; `None` when they agree. At depth 1 a differing move is
/// one that only one of them lists; deeper, the drill follows the first differing move.
pub fn first_difference(
    candidate: &impl Divide,
    fen: &str,
    depth: u32,
) -> Result<Option<Difference>, FenError> {
    let pos = Position::from_fen(fen)?;
    let chess960 = pos.is_chess960();
    let expected: BTreeMap<String, u128> = divide(&pos, depth)
        .into_iter()
        .map(|(mv, nodes)| (mv.to_uci(chess960), nodes))
        .collect();
    let found: BTreeMap<String, u128> = candidate.divide(fen, depth).into_iter().collect();
    let moves = expected.keys().chain(found.keys());
    for mv in moves {
        let (want, got) = (
            expected.get(mv).copied().unwrap_or(0),
            found.get(mv).copied().unwrap_or(0),
        );
        if want == got {
            continue;
        }
        // A move both list, with different counts below it: the difference is deeper.
        if depth > 1 && want > 0 && got > 0 {
            let mut child = pos.clone();
            if child.try_play(mv).is_ok() {
                return first_difference(candidate, &child.to_fen(), depth - 1);
            }
        }
        return Ok(Some(Difference {
            fen: fen.to_string(),
            depth,
            mv: mv.clone(),
            expected: want,
            found: got,
        }));
    }
    Ok(None)
}
