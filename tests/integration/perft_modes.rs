//! Perft with threads, with the hash table, and with both: the counts of the suites in
//! `tests/data/` must come out exactly as with one thread and no table.

use rookling::perft::epd::{EpdEntry, parse_epd};
use rookling::perft::{PerftOptions, perft_with};
use std::sync::atomic::AtomicBool;

/// Deepest count checked per position (the single-thread suites go further).
const NODE_BUDGET: u128 = 4_000_000;

/// The modes: 2 threads; a 16 MB table; both; and a 1 MB table that is full at once, so
/// that replacement (and threads overwriting each other's entries) is exercised.
const MODES: [(usize, usize); 4] = [(2, 0), (1, 16), (2, 16), (2, 1)];

/// The entries of a suite file, read by the library's EPD reader.
fn read_suite(path: &str) -> Vec<EpdEntry> {
    let text = std::fs::read_to_string(path).expect("suite file is in the repository");
    parse_epd(&text).unwrap_or_else(|e| panic!("{}", e.at(path)))
}

/// Checks every `step`-th position of the suite in every mode; returns the counts checked.
fn check(path: &str, step: usize, budget: u128) -> usize {
    let never = AtomicBool::new(false);
    let mut checked = 0;
    for entry in read_suite(path).iter().step_by(step) {
        let (fen, pos) = (&entry.fen, &entry.position);
        for &(depth, expected) in entry.counts.iter().filter(|(_, n)| *n <= budget) {
            for (threads, hash_mb) in MODES {
                let options = PerftOptions { threads, hash_mb };
                assert_eq!(
                    perft_with(pos, depth, &options, &never),
                    Some(expected),
                    "perft {depth} of {fen} with {threads} threads, {hash_mb} MB"
                );
                checked += 1;
            }
        }
    }
    checked
}

#[test]
fn standard_suite_in_every_mode() {
    assert!(check("tests/data/standard.epd", 1, NODE_BUDGET) >= 128 * 3 * MODES.len());
}

#[test]
fn fischer_sample_in_every_mode() {
    assert!(check("tests/data/fischer.epd", 8, NODE_BUDGET) >= 120 * 3 * MODES.len());
}

/// Both suites whole, to their deepest entries, in every mode: long, run with `--ignored`.
#[test]
#[ignore]
fn suites_to_full_depth_in_every_mode() {
    check("tests/data/standard.epd", 1, u128::MAX);
    check("tests/data/fischer.epd", 1, u128::MAX);
}
