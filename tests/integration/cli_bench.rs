//! `rookling bench` run as engine-testing tools run it: the totals come last, in
//! Stockfish's format, and the node count is the bench signature pinned below.

use crate::common;

use common::run::rookling;

/// The value after `label` and a colon, as a regex `label\s*:\s*(\d+)` would read it.
fn field(line: &str, label: &str) -> Option<u64> {
    let rest = line.strip_prefix(label)?.trim_start().strip_prefix(':')?;
    rest.trim().parse().ok()
}

fn bench(depth: &str) -> (u64, u64) {
    let out = rookling(&["bench", depth]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    let n = lines.len();
    assert!(n >= 3, "{text}");
    assert!(field(lines[n - 3], "Total time (ms)").is_some(), "{text}");
    let nodes = field(lines[n - 2], "Nodes searched").expect("Nodes searched line");
    let nps = field(lines[n - 1], "Nodes/second").expect("Nodes/second line");
    assert!(lines[n - 2].starts_with("Nodes searched  : "));
    (nodes, nps)
}

/// The bench signature: `rookling bench` (depth 13) searches exactly this many nodes.
/// Any change to move generation, ordering, pruning, evaluation or the hash table
/// changes it; a change that should not alter the search (a refactoring, a speed-up)
/// must leave it alone. When a change alters the search on purpose, its commit message
/// gives the new signature and the evidence (a match result) that the change is good.
const BENCH_SIGNATURE: u64 = 3_094_950;

#[test]
fn bench_prints_totals_last_and_matches_its_signature() {
    let (nodes, nps) = bench("13");
    assert_eq!(nodes, BENCH_SIGNATURE);
    assert!(nps > 0);
}

#[test]
fn bench_repeats_its_node_count_at_other_depths() {
    let (a, _) = bench("5");
    let (b, _) = bench("5");
    assert!(a > 1000);
    assert_eq!(a, b);
}

#[test]
fn bench_refuses_a_bad_depth() {
    let out = rookling(&["bench", "zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}
