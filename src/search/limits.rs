//! `Limits`: what a UCI `go` command asks of a search.

use crate::board::Move;

/// The parameters of `go` (all optional; none at all means search until `stop`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// White's clock, in milliseconds.
    pub wtime: Option<u64>,
    /// Black's clock, in milliseconds.
    pub btime: Option<u64>,
    /// White's increment per move, in milliseconds.
    pub winc: Option<u64>,
    /// Black's increment per move, in milliseconds.
    pub binc: Option<u64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search exactly this long, in milliseconds.
    pub movetime: Option<u64>,
    /// Search to this depth.
    pub depth: Option<u32>,
    /// Search this many nodes.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Start in ponder mode: until `ponderhit`, no clock applies.
    pub ponder: bool,
    /// Search only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
}
