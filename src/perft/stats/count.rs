//! The statistics as a [`Count`] of perft's tree walk ([`crate::perft::tree`]): a
//! breakdown ([`Tally`]) per subtree, the last ply counted from target sets
//! ([`leaf`](super::leaf)), whole breakdowns kept in the statistics table ([`Table`]).

use super::table::Table;
use super::{Checks, Stats, Tally, leaf};
use crate::attacks::Sliders;
use crate::board::Position;
use crate::movegen::{MoveList, Side, generate_with};
use crate::perft::tree::Count;

/// No check of any kind.
const NO_CHECKS: Checks<u64> = Checks {
    direct: 0,
    discovered: 0,
    direct_discovered: 0,
    double_discovered: 0,
};

impl Count for Tally {
    type Wide = Stats;
    type Table = Table;

    const LEAF: Tally = Tally {
        nodes: 1,
        captures: 0,
        en_passant: 0,
        castles: 0,
        promotions: 0,
        checks: NO_CHECKS,
        mates: NO_CHECKS,
    };

    #[inline(always)]
    fn one<S: Side, L: Sliders>(pos: &mut Position) -> Tally {
        let mut tally = Tally::default();
        leaf::count::<S, L>(pos, &mut tally);
        tally
    }

    #[inline(always)]
    fn two<S: Side, L: Sliders>(pos: &mut Position) -> Tally {
        let mut tally = Tally::default();
        let mut moves = MoveList::new();
        generate_with::<S, L, _>(pos, &mut moves);
        for &mv in moves.iter() {
            let undo = pos.make(mv);
            leaf::count::<S::Them, L>(pos, &mut tally);
            pos.unmake(mv, &undo);
        }
        tally
    }

    #[inline(always)]
    fn narrow(wide: Stats) -> Option<Tally> {
        wide.narrow()
    }

    #[inline(always)]
    fn probe(table: &Table, key: u64, depth: u32) -> Option<Tally> {
        table.probe(key, depth)
    }

    #[inline(always)]
    fn store(table: &Table, key: u64, depth: u32, count: &Tally) {
        table.store(key, depth, count);
    }

    #[inline(always)]
    fn prefetch(table: &Table, key: u64) {
        table.prefetch(key);
    }
}
