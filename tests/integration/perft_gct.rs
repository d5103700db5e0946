//! `rookling perft DEPTH --stats-columns gct` through the built binary against The Grand
//! Chess Tree's published figures (`tests/data/gct/`, see its README): per-depth results
//! of three positions, and per-task breakdowns of its distributed runs, column for
//! column.

use std::collections::HashMap;
use std::process::Command;

/// Our label of each of The Grand Chess Tree's JSON keys and dump columns (the dumps
/// name a few differently, and misspell `discoverd`).
const KEYS: [(&str, &str); 22] = [
    ("nodes", "nodes"),
    ("captures", "captures"),
    ("enpassants", "en passant"),
    ("castles", "castles"),
    ("promotions", "promotions"),
    ("direct_checks", "direct checks"),
    ("single_discovered_checks", "single discovered checks"),
    ("single_discovered_check", "single discovered checks"),
    ("direct_discovered_checks", "direct discovered checks"),
    ("direct_discovered_check", "direct discovered checks"),
    ("double_discovered_checks", "double discovered checks"),
    ("double_discovered_check", "double discovered checks"),
    ("total_checks", "total checks"),
    ("direct_mates", "direct mates"),
    ("direct_checkmate", "direct mates"),
    ("single_discovered_mates", "single discovered mates"),
    ("single_discovered_checkmate", "single discovered mates"),
    ("direct_discovered_mates", "direct discovered mates"),
    ("direct_discoverd_checkmate", "direct discovered mates"),
    ("double_discovered_mates", "double discovered mates"),
    ("double_discoverd_checkmate", "double discovered mates"),
    ("total_mates", "total mates"),
];

/// Our label for a column of the published files, if it is a count.
fn label(key: &str) -> Option<&'static str> {
    KEYS.iter().find(|(k, _)| *k == key).map(|&(_, l)| l)
}

/// The rows of a CSV file of `tests/data/gct/`, as column name -> text.
fn rows(file: &str) -> Vec<HashMap<String, String>> {
    let path = format!("tests/data/gct/{file}");
    let text = std::fs::read_to_string(&path).expect("the data is in the repository");
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .expect("a header")
        .split(',')
        .map(str::to_string)
        .collect();
    lines
        .map(|line| {
            let fields = line.split(',').map(str::to_string);
            header.iter().cloned().zip(fields).collect()
        })
        .collect()
}

/// The published counts of a row, by our label (every count column of the row).
fn published(row: &HashMap<String, String>) -> Vec<(&'static str, u128)> {
    let mut want: Vec<(&'static str, u128)> = row
        .iter()
        .filter_map(|(k, v)| Some((label(k)?, v.parse().expect("a count"))))
        .collect();
    want.sort();
    want
}

/// The table `rookling perft DEPTH --stats-columns gct --fen FEN` prints after the divide
/// and total, as label -> count, in its own order.
fn gct_table(fen: &str, depth: &str) -> Vec<(String, u128)> {
    let out = Command::new(env!("CARGO_BIN_EXE_rookling"))
        .args(["perft", depth, "--stats-columns", "gct", "--hash", "64"])
        .args(["--fen", fen])
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let table = text.rsplit("\n\n").next().unwrap_or_default();
    table
        .lines()
        .map(|line| {
            let (label, count) = line.rsplit_once(' ').expect("label and count");
            (label.trim().to_string(), count.parse().expect("a count"))
        })
        .collect()
}

/// The table of `fen` at `depth` equals `want` column for column, and lists every
/// column of The Grand Chess Tree in its order.
fn check(fen: &str, depth: &str, want: &[(&'static str, u128)]) {
    let got = gct_table(fen, depth);
    let labels: Vec<&str> = got.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(labels, rookling::perft::stats::GCT_LABELS, "{fen} {depth}");
    for &(label, n) in want {
        let mine = got.iter().find(|(l, _)| l == label).map(|&(_, n)| n);
        assert_eq!(mine, Some(n), "{fen} depth {depth}: {label}");
    }
}

/// Every published depth of the three positions up to 3.2 billion nodes: the start
/// position to depth 7, Kiwipete and SJE's position to depth 5.
#[test]
fn published_results_per_depth() {
    let mut checked = HashMap::new();
    for row in rows("results.csv") {
        let nodes: u128 = row["nodes"].parse().expect("a count");
        if nodes > 3_200_000_000 {
            continue;
        }
        let want = published(&row);
        assert_eq!(want.len(), 15, "{row:?}");
        check(&row["fen"], &row["depth"], &want);
        *checked.entry(row["fen"].clone()).or_insert(0) += 1;
    }
    let mut depths: Vec<i32> = checked.into_values().collect();
    depths.sort();
    // Depths 0-5 of two positions, 0-7 of the start position.
    assert_eq!(depths, [6, 6, 8]);
}

/// Per-task breakdowns of The Grand Chess Tree's Kiwipete and SJE depth-7 runs (each a
/// position two plies down, counted to depth 5), with single and direct discovered
/// mates among them.
#[test]
fn published_task_breakdowns() {
    let tasks = rows("tasks.csv");
    assert_eq!(tasks.len(), 12);
    let mut rare = 0;
    for row in &tasks {
        let want = published(row);
        assert_eq!(want.len(), 13, "{row:?}");
        rare += want
            .iter()
            .filter(|&&(l, n)| l.ends_with("discovered mates") && n > 0)
            .count();
        check(&row["fen"], &row["depth"], &want);
    }
    assert!(rare >= 6, "the sample has discovered mates of both kinds");
}

/// The default columns are unchanged, and `--stats-columns classic` is the default.
#[test]
fn classic_columns_by_default() {
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_rookling"))
            .args(["perft", "3", "--stats"])
            .args(extra)
            .output()
            .expect("the binary runs");
        assert!(out.status.success(), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let default = run(&[]);
    assert!(default.ends_with(
        "\nnodes              8902\ncaptures             34\nen passant            0\n\
         castles               0\npromotions            0\nchecks               12\n\
         discovered checks     0\ndouble checks         0\ncheckmates            0\n"
    ));
    assert_eq!(run(&["--stats-columns", "classic"]), default);
    let bad = Command::new(env!("CARGO_BIN_EXE_rookling"))
        .args(["perft", "3", "--stats-columns", "wiki"])
        .output()
        .expect("the binary runs");
    assert!(!bad.status.success());
    assert!(bad.stdout.is_empty());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("'wiki'") && err.contains("'gct'"), "{err}");
}
