//! Syzygy tablebases over UCI, through the real binary as a GUI drives it: the tables
//! load before `readyok` and `info string` says what was found, a bad path is reported
//! and the engine plays on, and on random 3- and 4-piece positions every `bestmove` is
//! one Fathom lists as keeping the result, with `tbhits` in the `info` lines.

use crate::common;

use common::Uci;
use common::tablebase::{Rng, TABLES, fathom, fathom_text, random_position};
use rookling::movegen::parse_move;
use std::path::Path;

fn engine() -> Uci {
    Uci::start(Path::new(env!("CARGO_BIN_EXE_rookling")))
}

/// Sets `SyzygyPath` and returns the `info string` lines before `readyok`.
fn set_path(uci: &mut Uci, path: &str) -> Vec<String> {
    uci.send(&format!("setoption name SyzygyPath value {path}"));
    uci.sync()
}

#[test]
fn the_tables_load_before_readyok() {
    let mut uci = engine();
    let lines = set_path(&mut uci, TABLES);
    assert_eq!(
        lines,
        ["info string Found 21 WDL and 21 DTZ tablebase files (up to 4-man)."]
    );
    // A second directory that does not exist is reported; the tables are still used.
    let sep = if cfg!(windows) { ';' } else { ':' };
    let lines = set_path(&mut uci, &format!("/no/such/dir{sep}{TABLES}"));
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].contains("'/no/such/dir' is not a directory"),
        "{lines:?}"
    );
    assert!(
        lines[1].starts_with("info string Found 21 WDL"),
        "{lines:?}"
    );
    // `<empty>` unloads them, silently, as in Stockfish.
    assert!(set_path(&mut uci, "<empty>").is_empty());
    uci.send("position fen 8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
    uci.send("go depth 3");
    let lines = uci.read_until(|l| l.starts_with("bestmove"));
    assert!(lines.iter().any(|l| l.contains(" tbhits 0 ")), "{lines:?}");
}

#[test]
fn a_bad_path_is_reported_and_the_engine_plays_on() {
    let mut uci = engine();
    let lines = set_path(&mut uci, "/no/such/rookling/tables");
    assert_eq!(
        lines,
        [
            "info string SyzygyPath: '/no/such/rookling/tables' is not a directory",
            "info string SyzygyPath: no tablebases found; playing without them",
        ]
    );
    // A directory without tables, and a file that is not a complete table.
    let dir = std::env::temp_dir().join(format!("rookling-uci-tb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("KQvKR.rtbw"), b"not a table").expect("write");
    let lines = set_path(&mut uci, &dir.to_string_lossy());
    assert!(
        lines[0].contains("is not a complete Syzygy table"),
        "{lines:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    uci.send("position fen 8/8/8/8/8/2k5/8/KQ6 w - - 0 1");
    uci.send("go depth 4");
    let lines = uci.read_until(|l| l.starts_with("bestmove"));
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove b1")),
        "{lines:?}"
    );
}

#[test]
#[cfg_attr(not(has_fathom), ignore = "needs fathom (apt-get install fathom)")]
fn every_bestmove_keeps_the_result_fathom_gives() {
    let mut uci = engine();
    set_path(&mut uci, TABLES);
    let mut rng = Rng(0xFACE_B00C_2024);
    for material in [
        "KQvK", "KRvK", "KPvK", "KQvKR", "KRvKB", "KRvKN", "KRvKP", "KPvKP", "KBNvK", "KQvKP",
        "KBvKP",
    ] {
        for i in 0..5 {
            let clock = if i % 2 == 0 { 0 } else { rng.below(90) as u32 };
            let pos = random_position(material, &mut rng, clock, false);
            let fen = pos.to_fen();
            uci.send("ucinewgame");
            uci.send(&format!("position fen {fen}"));
            uci.send("go nodes 5000");
            let lines = uci.read_until(|l| l.starts_with("bestmove"));
            let bestmove = lines.last().and_then(|l| l.split_whitespace().nth(1));
            let text = bestmove.expect("a move");
            let mv = parse_move(&pos, text).unwrap_or_else(|e| panic!("{fen}: {text}: {e:?}"));
            let expected = fathom(TABLES, &fen);
            let written = fathom_text(&pos, mv);
            assert!(
                expected.keeps_result(&written),
                "{fen}: {text} ({written}) does not keep the {} ({expected:?})",
                expected.wdl
            );
            let tbhits = lines
                .iter()
                .rev()
                .filter(|l| l.starts_with("info depth"))
                .filter_map(|l| l.split(" tbhits ").nth(1))
                .find_map(|rest| rest.split_whitespace().next()?.parse::<u64>().ok());
            assert!(tbhits.is_some_and(|n| n > 0), "{fen}: {lines:?}");
        }
    }
}
