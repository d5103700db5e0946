//! The perft suites through UCI, as a GUI or a script runs them: `position fen`, then
//! `go perft N`, every count (up to a node budget) equal to the suite's, in standard
//! chess and with `UCI_Chess960` on, with 2 threads and a perft hash table.

mod common;

use common::Uci;
use rookling::perft::epd::parse_epd;
use std::path::Path;

/// Entries above this many nodes are left to `tests/perft_suites.rs`' ignored test.
const NODE_BUDGET: u128 = 1_000_000;

fn run_suite(name: &str, chess960: bool) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("suite file");
    let mut engine = Uci::start(Path::new(env!("CARGO_BIN_EXE_rookling")));
    engine.send(&format!("setoption name UCI_Chess960 value {chess960}"));
    engine.send("setoption name Threads value 2");
    engine.send("setoption name PerftHash value 16");
    let mut checked = 0;
    let suite = parse_epd(&text).unwrap_or_else(|e| panic!("{}", e.at(name)));
    for entry in &suite {
        let fen = &entry.fen;
        for &(depth, nodes) in &entry.counts {
            if nodes > NODE_BUDGET {
                continue;
            }
            engine.send(&format!("position fen {fen}"));
            engine.send(&format!("go perft {depth}"));
            let lines = engine.read_until(|l| l.starts_with("Nodes searched:"));
            assert_eq!(
                lines.last().map(String::as_str),
                Some(format!("Nodes searched: {nodes}").as_str()),
                "{fen} depth {depth}"
            );
            checked += 1;
        }
    }
    eprintln!("{name}: {checked} counts through go perft");
    assert!(checked > 100);
}

#[test]
fn standard_suite_through_uci() {
    run_suite("standard.epd", false);
}

#[test]
fn chess960_suite_through_uci() {
    run_suite("fischer.epd", true);
}
