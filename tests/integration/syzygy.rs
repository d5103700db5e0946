//! Syzygy tablebases through the library, on the committed tables (`tests/data/syzygy`):
//! every probe equals Fathom's on random positions of every table, the root move chosen
//! keeps the position's result, and won endings are won against Stockfish (itself using
//! the tables) within the fifty-move rule.

use crate::common;

use common::tablebase::{MATERIALS, Rng, TABLES, fathom, fathom_text, random_position};
use rookling::board::{Color, Position};
use rookling::movegen::{legal_moves, parse_move};
use rookling::search::{Control, Limits, Searcher};
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

/// Searches `pos` with the tables and a small node budget; the move played, the probe
/// of the root and the info lines.
fn search(
    searcher: &mut Searcher,
    pos: &Position,
    nodes: u64,
) -> (rookling::board::Move, Vec<String>) {
    let limits = Limits {
        nodes: Some(nodes),
        ..Default::default()
    };
    let mut lines = Vec::new();
    let result = searcher.go(pos, &[], &limits, &Control::default(), &mut |l| {
        lines.push(l)
    });
    (result.best.expect("a legal move"), lines)
}

/// The number after `word` in an info line.
fn field(line: &str, word: &str) -> Option<u64> {
    let mut words = line.split_whitespace();
    words.find(|w| *w == word)?;
    words.next()?.parse().ok()
}

#[test]
fn the_move_chosen_at_the_root_keeps_the_result() {
    tables();
    let mut rng = Rng(0xC0FF_EE00_1234);
    let mut searcher = Searcher::new(16);
    for material in MATERIALS {
        for i in 0..12 {
            let clock = clock(&mut rng, i);
            let pos = random_position(material, &mut rng, clock, false);
            let fen = pos.to_fen();
            let probe = syzygy::probe_root(&pos).expect("a DTZ probe");
            let (best, lines) = search(&mut searcher, &pos, 3_000);
            let (_, after) = probe
                .moves
                .iter()
                .find(|(mv, _)| *mv == best)
                .expect("the move played is legal");
            assert_eq!(
                after.wdl,
                probe.position.wdl,
                "{fen}: {} throws the result away",
                best.to_uci(false)
            );
            let last = lines.last().expect("an info line");
            assert!(field(last, "tbhits").is_some_and(|n| n > 0), "{last}");
        }
    }
}

#[test]
fn without_tables_nothing_is_ranked_or_probed() {
    // A probe limit of 0 turns the tables off, as no path does.
    tables();
    let mut searcher = Searcher::new(16);
    searcher.set_syzygy(rookling::search::Syzygy {
        probe_limit: 0,
        ..Default::default()
    });
    let pos = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").expect("valid FEN");
    let (_, lines) = search(&mut searcher, &pos, 2_000);
    assert!(
        lines.iter().all(|l| field(l, "tbhits") == Some(0)),
        "{lines:?}"
    );
}

/// Plays `fen` out, Rookling (with the tables, `nodes` a move) against Stockfish 15.1
/// (with the same tables, 50 ms a move), Rookling playing `rookling`; whether Rookling
/// mated before the fifty-move rule or a repetition ended the game, and the moves.
fn play_against_stockfish(fen: &str, rookling: Color, nodes: u64) -> (bool, Vec<String>) {
    let mut stockfish = common::Uci::start(&common::stockfish());
    stockfish.send(&format!("setoption name SyzygyPath value {TABLES}"));
    stockfish.sync();
    let mut searcher = Searcher::new(16);
    let mut pos = Position::from_fen(fen).expect("valid FEN");
    let mut history: Vec<u64> = Vec::new();
    let mut moves: Vec<String> = Vec::new();
    loop {
        if legal_moves(&pos).is_empty() {
            return (pos.in_check() && pos.side_to_move() != rookling, moves);
        }
        let repeated = history.iter().filter(|&&k| k == pos.key()).count() >= 2;
        if pos.halfmove_clock() >= 100 || repeated {
            return (false, moves);
        }
        let text = if pos.side_to_move() == rookling {
            let limits = Limits {
                nodes: Some(nodes),
                ..Default::default()
            };
            let result = searcher.go(&pos, &history, &limits, &Control::default(), &mut |_| {});
            result.best.expect("a legal move").to_uci(false)
        } else {
            stockfish.send(&format!("position fen {fen} moves {}", moves.join(" ")));
            stockfish.send("go movetime 50");
            let lines = stockfish.read_until(|l| l.starts_with("bestmove"));
            let last = lines.last().expect("bestmove");
            last.split_whitespace().nth(1).expect("a move").to_string()
        };
        let mv = parse_move(&pos, &text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        history.push(pos.key());
        pos.play(mv);
        if pos.halfmove_clock() == 0 {
            history.clear();
        }
        moves.push(text);
    }
}

#[test]
#[cfg_attr(not(has_stockfish), ignore = "needs stockfish")]
fn won_endings_are_won_against_stockfish_within_the_fifty_move_rule() {
    tables();
    // Stockfish, to move, loses in each with best play; these are the longest wins of
    // their tables as the generator reports them (KBNvK 65 plies to mate, KQvKR 62 to
    // zeroing, KRvKB 35).
    for fen in [
        "8/8/8/6B1/8/8/4k3/1K5N b - - 0 1",
        "8/8/2k5/1r6/8/8/8/2KQ4 b - - 0 1",
        "8/8/8/8/1R6/3K4/8/1k4b1 b - - 0 1",
    ] {
        let (won, moves) = play_against_stockfish(fen, Color::White, 20_000);
        assert!(won, "{fen}: not won: {}", moves.join(" "));
    }
}

#[test]
fn multipv_lines_follow_the_tablebase_ranks() {
    tables();
    // Qc1 and Qb8 win; Qc2 and Qb3 draw (Fathom: WinningMoves ... Qc1 ... Qb8,
    // DrawingMoves Qc2, Qb3, Qd3, Qb4). Four lines: the wins first, then the draws,
    // whatever the search thinks of them.
    let pos = Position::from_fen("8/8/8/8/8/2k5/8/KQ6 w - - 0 1").expect("valid FEN");
    let moves = ["b1c2", "b1b3", "b1c1", "b1b8"].map(|m| parse_move(&pos, m).expect("legal"));
    let mut searcher = Searcher::new(16);
    searcher.set_multipv(4);
    let limits = Limits {
        depth: Some(6),
        searchmoves: moves.to_vec(),
        ..Default::default()
    };
    let mut lines = Vec::new();
    let result = searcher.go(&pos, &[], &limits, &Control::default(), &mut |l| {
        lines.push(l)
    });
    let last: Vec<&String> = lines.iter().rev().take(4).rev().collect();
    let first_move = |line: &str| {
        line.split(" pv ")
            .nth(1)
            .and_then(|pv| pv.split(' ').next())
            .map(String::from)
    };
    let order: Vec<String> = last.iter().filter_map(|l| first_move(l)).collect();
    let mut wins = order[..2].to_vec();
    wins.sort();
    let mut draws = order[2..].to_vec();
    draws.sort();
    assert_eq!(
        (wins, draws),
        (
            vec!["b1b8".to_string(), "b1c1".to_string()],
            vec!["b1b3".to_string(), "b1c2".to_string()]
        ),
        "{last:?}"
    );
    assert!(last[0].contains(" multipv 1 score cp 31871 "), "{last:?}");
    assert!(last[3].contains(" multipv 4 score cp 0 "), "{last:?}");
    assert!(
        result
            .best
            .is_some_and(|mv| mv == moves[2] || mv == moves[3])
    );
}
