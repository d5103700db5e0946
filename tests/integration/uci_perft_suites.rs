//! The perft suites through UCI, as a GUI or a script runs them: `position fen`, then
//! `go perft N`, every count (up to a node budget) equal to the suite's, in standard
//! chess and with `UCI_Chess960` on, with 2 threads and a perft hash table; sent
//! interactively and through a closed pipe.

use crate::common;

use common::session::both;
use rookling::perft::epd::parse_epd;
use std::path::Path;

/// Entries above this many nodes are left to `tests/perft_suites.rs`' ignored test.
const NODE_BUDGET: u128 = 1_000_000;

fn run_suite(name: &str, chess960: bool) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("suite file");
    let mut script = vec![
        format!("setoption name UCI_Chess960 value {chess960}"),
        "setoption name Threads value 2".into(),
        "setoption name PerftHash value 16".into(),
    ];
    let mut expected = Vec::new();
    let suite = parse_epd(&text).unwrap_or_else(|e| panic!("{}", e.at(name)));
    for entry in &suite {
        for &(depth, nodes) in &entry.counts {
            if nodes > NODE_BUDGET {
                continue;
            }
            script.push(format!("position fen {}", entry.fen));
            script.push(format!("go perft {depth}"));
            expected.push((format!("{} depth {depth}", entry.fen), nodes));
        }
    }
    let script: Vec<&str> = script.iter().map(String::as_str).collect();
    for t in both(&script) {
        let totals = t.totals();
        assert_eq!(totals.len(), expected.len(), "{:?}", t.mode);
        for ((what, nodes), got) in expected.iter().zip(totals) {
            assert_eq!(got, *nodes, "{:?}: {what}", t.mode);
        }
    }
    eprintln!(
        "{name}: {} counts through go perft, both ways",
        expected.len()
    );
    assert!(expected.len() > 100);
}

#[test]
fn standard_suite_through_uci() {
    run_suite("standard.epd", false);
}

#[test]
fn chess960_suite_through_uci() {
    run_suite("fischer.epd", true);
}
