//! Syzygy tablebases through the library, on the committed tables (`tests/data/syzygy`):
//! every probe equals Fathom's on random positions of every table.

mod common;

use common::tablebase::{MATERIALS, Rng, TABLES, fathom, fathom_text, random_position};
use rookling::board::Position;
use rookling::syzygy::{self, Wdl};
use std::sync::OnceLock;

/// Loads the committed tables once for the whole test binary (the prober's tables are
/// process-wide) and checks what was found.
fn tables() {
    static LOADED: OnceLock<()> = OnceLock::new();
    LOADED.get_or_init(|| {
        let found = syzygy::load(TABLES);
        assert!(found.problems.is_empty(), "{:?}", found.problems);
        assert_eq!((found.wdl_count(), found.dtz_count()), (21, 21));
        assert_eq!(found.largest(), 4);
        assert_eq!(syzygy::largest(), 4);
    });
}

/// A half-move clock: 0 for a third of the positions, small or near the fifty-move
/// limit for the others.
fn clock(rng: &mut Rng, i: usize) -> u32 {
    match i % 3 {
        0 => 0,
        1 => 1 + rng.below(40) as u32,
        _ => 60 + rng.below(40) as u32,
    }
}

#[test]
#[cfg_attr(not(has_fathom), ignore = "needs fathom (apt-get install fathom)")]
fn probes_equal_fathoms_on_random_positions_of_every_table() {
    tables();
    let mut rng = Rng(0x005E_ED7A_B1E5);
    let mut checked = 0;
    for material in MATERIALS {
        for i in 0..30 {
            // Positions where en passant is possible, for the tables with pawns on both sides.
            let en_passant = material == "KPvKP" && i % 5 == 4;
            let clock = clock(&mut rng, i);
            let pos = random_position(material, &mut rng, clock, en_passant);
            let fen = pos.to_fen();
            let expected = fathom(TABLES, &fen);
            let probe = syzygy::probe_root(&pos).unwrap_or_else(|| panic!("no DTZ probe: {fen}"));
            assert_eq!(probe.position.wdl.name(), expected.wdl, "WDL of {fen}");
            assert_eq!(
                probe.position.dtz.unsigned_abs(),
                expected.dtz,
                "DTZ of {fen}"
            );
            let mut lists = [Vec::new(), Vec::new(), Vec::new()];
            for &(mv, after) in &probe.moves {
                let list = match after.wdl {
                    Wdl::Win => 0,
                    Wdl::Loss => 2,
                    _ => 1,
                };
                lists[list].push(fathom_text(&pos, mv));
            }
            lists.iter_mut().for_each(|l| l.sort());
            assert_eq!(lists[0], expected.winning, "winning moves of {fen}");
            assert_eq!(lists[1], expected.drawing, "drawing moves of {fen}");
            assert_eq!(lists[2], expected.losing, "losing moves of {fen}");
            // The WDL tables alone give the same result where the clock does not count.
            let wdl = syzygy::probe_wdl(&pos).unwrap_or_else(|| panic!("no WDL probe: {fen}"));
            if pos.halfmove_clock() == 0 {
                assert_eq!(wdl.name(), expected.wdl, "WDL probe of {fen}");
            } else {
                assert_eq!(wdl.signed().signum(), probe.position.dtz.signum(), "{fen}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 30 * MATERIALS.len());
}

#[test]
fn positions_the_tables_do_not_cover_are_not_probed() {
    tables();
    for fen in [
        // Five pieces, more than the tables have.
        "8/8/8/8/8/2k5/1r6/KQ3B2 w - - 0 1",
        // A rook with its castling right.
        "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
        // Four pieces of a table that is not there (KQQvK).
        "6k1/8/8/8/8/8/8/KQQ5 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen).expect("valid FEN");
        assert_eq!(syzygy::probe_wdl(&pos), None, "{fen}");
        assert_eq!(syzygy::probe_root(&pos), None, "{fen}");
    }
}
