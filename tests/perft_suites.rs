//! The perft suites in `tests/data/` (128 standard positions, 960 Chess960 positions),
//! each position checked at every listed depth whose count fits the node budget.

use rookling::perft::epd::{EpdEntry, parse_epd};
use rookling::perft::perft;

/// Deepest count checked per position; deeper entries are left to `rookling suite`.
/// With debug assertions on (`cargo test` without `--release`, as `.ci/run` runs this
/// file too) every node of the walk checks more, so the budget is smaller.
const NODE_BUDGET: u128 = if cfg!(debug_assertions) {
    5_000_000
} else {
    20_000_000
};

/// The entries of a suite file, read by the library's EPD reader.
fn read_suite(path: &str) -> Vec<EpdEntry> {
    let text = std::fs::read_to_string(path).expect("suite file is in the repository");
    parse_epd(&text).unwrap_or_else(|e| panic!("{}", e.at(path)))
}

fn check_suite(path: &str, expected_positions: usize) {
    let suite = read_suite(path);
    assert_eq!(suite.len(), expected_positions);
    let mut checked = 0;
    for entry in &suite {
        let (fen, pos) = (&entry.fen, &entry.position);
        for &(depth, expected) in entry.counts.iter().filter(|(_, n)| *n <= NODE_BUDGET) {
            let nodes = perft(pos, depth);
            assert_eq!(nodes, expected, "perft {depth} of {fen}");
            checked += 1;
        }
    }
    assert!(
        checked >= 3 * expected_positions,
        "the budget left too little checked"
    );
}

#[test]
fn standard_suite() {
    check_suite("tests/data/standard.epd", 128);
}

#[test]
fn fischer_suite() {
    check_suite("tests/data/fischer.epd", 960);
}

/// The full suites to their deepest entries: minutes of work, run with `--ignored`.
#[test]
#[ignore]
fn suites_to_full_depth() {
    for path in ["tests/data/standard.epd", "tests/data/fischer.epd"] {
        for entry in read_suite(path) {
            for (depth, expected) in entry.counts {
                let nodes = perft(&entry.position, depth);
                assert_eq!(nodes, expected, "perft {depth} of {}", entry.fen);
            }
        }
    }
}
