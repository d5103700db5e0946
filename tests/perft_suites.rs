//! The perft suites in `tests/data/` (128 standard positions, 960 Chess960 positions),
//! each position checked at every listed depth whose count fits the node budget.

use rookling::board::Position;
use rookling::perft::perft;

/// Deepest count checked per position; deeper entries are left to `rookling suite`.
const NODE_BUDGET: u64 = 20_000_000;

/// `(fen, [(depth, count)])` for each line of an EPD suite.
fn read_suite(path: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    let text = std::fs::read_to_string(path).expect("suite file is in the repository");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().expect("FEN").trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut it = p.split_whitespace();
                    let depth = it.next().expect("Dn")[1..].parse().expect("depth");
                    (depth, it.next().expect("count").parse().expect("count"))
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

fn check_suite(path: &str, expected_positions: usize) {
    let suite = read_suite(path);
    assert_eq!(suite.len(), expected_positions);
    let mut checked = 0;
    for (fen, counts) in &suite {
        let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        for &(depth, expected) in counts.iter().filter(|(_, n)| *n <= NODE_BUDGET) {
            assert_eq!(
                perft(&mut pos, depth),
                u128::from(expected),
                "perft {depth} of {fen}"
            );
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
        for (fen, counts) in read_suite(path) {
            let mut pos = Position::from_fen(&fen).expect("valid FEN");
            for (depth, expected) in counts {
                assert_eq!(
                    perft(&mut pos, depth),
                    u128::from(expected),
                    "perft {depth} of {fen}"
                );
            }
        }
    }
}
