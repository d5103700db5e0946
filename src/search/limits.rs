//! `Limits`: what a UCI `go` command asks of a search (the one type for it: the UCI
//! parser fills it, the search reads it).

use crate::board::Move;

/// The parameters of `go` (all optional; none at all means search until `stop`).
///
/// Zero values are limits too: `depth 0`, `nodes 0` and `mate 0` end the search after
/// its first iteration, `movetime 0` or an empty clock as soon as it may. A clock given
/// for one side only leaves the other side no time. `movestogo 0` is "not given".
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

impl Limits {
    /// Whether the search ends by itself (not `infinite`; a clock, `movetime`, `depth`,
    /// `nodes` or `mate` given). Pondering adds a wait for `ponderhit` before the limits
    /// start to count.
    pub fn ends_by_itself(&self) -> bool {
        !self.infinite
            && (self.wtime.is_some()
                || self.btime.is_some()
                || self.movetime.is_some()
                || self.depth.is_some()
                || self.nodes.is_some()
                || self.mate.is_some())
    }
}
