//! Perft across processes as the README shows it: `rookling perft --split` writes work
//! units, GNU parallel counts each with `rookling perft --unit`, and
//! `rookling perft --merge` sums the results; the total must be exact.

use rookling::board::Position;
use rookling::perft::perft;
use std::path::Path;
use std::process::{Command, Stdio};

const ROOKLING: &str = env!("CARGO_BIN_EXE_rookling");

/// Runs split -> parallel -> merge in `dir`; returns (units, total printed by merge).
fn split_parallel_merge(dir: &Path, fen: &str, depth: u32, ply: u32) -> (usize, String) {
    let units = dir.join("units.txt");
    let results = dir.join("results.txt");
    let split = Command::new(ROOKLING)
        .args([
            "perft",
            &depth.to_string(),
            "--fen",
            fen,
            "--split",
            &ply.to_string(),
        ])
        .output()
        .expect("rookling runs");
    assert!(split.status.success(), "split: {split:?}");
    std::fs::write(&units, &split.stdout).expect("write units");
    let count = String::from_utf8_lossy(&split.stdout).lines().count();
    let parallel = Command::new("parallel")
        .args([
            "--will-cite",
            "--halt",
            "now,fail=1",
            "-j2",
            ROOKLING,
            "perft",
            "--unit",
            "{}",
        ])
        .arg("::::")
        .arg(&units)
        .output()
        .expect("parallel runs");
    assert!(parallel.status.success(), "parallel: {parallel:?}");
    std::fs::write(&results, &parallel.stdout).expect("write results");
    let merge = Command::new(ROOKLING)
        .args(["perft", "--merge"])
        .arg(&results)
        .output()
        .expect("rookling runs");
    assert!(merge.status.success(), "merge: {merge:?}");
    (
        count,
        String::from_utf8_lossy(&merge.stdout).trim().to_string(),
    )
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rookling-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
#[cfg_attr(
    not(has_parallel),
    ignore = "needs GNU parallel (apt-get install parallel)"
)]
fn split_parallel_merge_is_exact() {
    let dir = temp_dir("units");
    // Kiwipete: 48 units of depth 3 (castling, en passant and promotions below).
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let (units, total) = split_parallel_merge(&dir, kiwipete, 4, 1);
    assert_eq!((units, total.as_str()), (48, "Nodes searched: 4085603"));

    // A small endgame cut 3 plies down, where king moves transpose: fewer units than move
    // sequences, and multiplicities carry the difference.
    let endgame = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let pos = Position::from_fen(endgame).expect("valid FEN");
    let sequences = perft(&pos, 3) as usize;
    let expected = perft(&pos, 7);
    let (units, total) = split_parallel_merge(&dir, endgame, 7, 3);
    assert!(units < sequences, "{units} units for {sequences} sequences");
    assert_eq!(total, format!("Nodes searched: {expected}"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `rookling ARGS` with `stdin` as standard input.
fn rookling(args: &[&str], stdin: &str) -> std::process::Output {
    let mut child = Command::new(ROOKLING)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("rookling runs");
    let mut input = child.stdin.take().expect("stdin");
    // A merge that refuses a line stops reading: the rest of the input may not be taken.
    let _ = std::io::Write::write_all(&mut input, stdin.as_bytes());
    drop(input);
    child.wait_with_output().expect("rookling ends")
}

/// The unit lines of `rookling perft DEPTH --fen FEN --split PLY`.
fn split(fen: &str, depth: u32, ply: u32) -> Vec<String> {
    let (depth, ply) = (depth.to_string(), ply.to_string());
    let out = rookling(&["perft", &depth, "--fen", fen, "--split", &ply], "");
    assert!(out.status.success(), "split: {out:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

/// The result line of `rookling perft --unit LINE`.
fn count(unit: &str) -> String {
    let out = rookling(&["perft", "--unit", unit], "");
    assert!(out.status.success(), "unit {unit}: {out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// `rookling perft --merge -` on `results`: (exit status, stdout, stderr).
fn merge(results: &str) -> (Option<i32>, String, String) {
    let out = rookling(&["perft", "--merge", "-"], results);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// Asserts a refused merge: status 2, nothing on stdout, one line on stderr that names
/// `-:LINE:` (when given) and contains `reason`.
fn assert_refused(results: &str, line: Option<usize>, reason: &str) {
    let (status, stdout, stderr) = merge(results);
    assert_eq!(
        status,
        Some(2),
        "{results}\nstdout: {stdout}\nstderr: {stderr}"
    );
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    if let Some(line) = line {
        assert!(
            stderr.contains(&format!("-:{line}: ")),
            "line {line}: {stderr}"
        );
    }
    assert!(stderr.contains(reason), "'{reason}' in {stderr}");
}

/// A small split counted unit by unit: (the result lines, the true total).
fn small_split_results() -> (Vec<String>, u128) {
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let results: Vec<String> = split(fen, 4, 1).iter().map(|u| count(u)).collect();
    let pos = Position::from_fen(fen).expect("valid FEN");
    (results, perft(&pos, 4))
}

/// Replaces field `i` (0 = the node count) of a `;`-separated line.
fn with_field(line: &str, i: usize, value: &str) -> String {
    let mut fields: Vec<&str> = line.split(';').collect();
    fields[i] = value;
    fields.join(";")
}

#[test]
fn complete_results_merge_in_any_order_with_crlf_and_blank_lines() {
    let (results, expected) = small_split_results();
    assert_eq!(results.len(), 6);
    let mut shuffled = results.clone();
    shuffled.reverse();
    let text = format!("\n{}\r\n  \n", shuffled.join("\r\n"));
    let (status, stdout, stderr) = merge(&text);
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(stdout.trim(), format!("Nodes searched: {expected}"));
}

#[test]
fn merge_refuses_results_of_different_splits() {
    // Both splits give units of depth 3 below the start position's children.
    let start = rookling::board::START_FEN;
    let a = count(&split(start, 5, 2)[0]);
    let b = count(&split(start, 4, 1)[1]);
    assert_refused(&format!("{a}\n{b}\n"), Some(2), "split");
}

#[test]
fn merge_refuses_a_unit_counted_twice_under_any_spelling() {
    let (results, _) = small_split_results();
    let first = &results[0];
    let fen = first.split(';').nth(1).expect("a FEN field");
    let counters = fen.rsplitn(3, ' ').nth(2).expect("FEN without counters");
    let nodes: u128 = first
        .split(';')
        .next()
        .expect("nodes")
        .parse()
        .expect("a count");
    let multiplicity: u128 = first
        .split(';')
        .nth(3)
        .expect("mult")
        .parse()
        .expect("a number");
    let doubled = with_field(
        &with_field(first, 3, &(2 * multiplicity).to_string()),
        0,
        &(2 * nodes).to_string(),
    );
    for copy in [
        first.clone(),
        format!("  {first}  "),
        with_field(first, 1, &format!("{counters} 7 42")),
        with_field(first, 1, counters),
        doubled,
    ] {
        let text = format!("{}\n{copy}\n", results.join("\n"));
        let (status, stdout, stderr) = merge(&text);
        assert_eq!(status, Some(2), "copy {copy} accepted: {stdout}");
        assert!(stdout.is_empty(), "{stdout}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!("-:{}: ", results.len() + 1)),
            "{stderr}"
        );
    }
}

#[test]
fn merge_refuses_missing_units_and_nothing() {
    let (results, _) = small_split_results();
    let text = format!("{}\n{}\n", results[0], results[2..].join("\n"));
    assert_refused(&text, None, "missing");
    assert_refused(&text, None, "2");
    for nothing in ["", "\n", "  \n\n\t\r\n"] {
        assert_refused(nothing, None, "nothing to merge");
    }
}

#[test]
fn merge_names_the_bad_line() {
    let dir = temp_dir("merge");
    let good = dir.join("good.txt");
    let bad = dir.join("bad.txt");
    let (results, _) = small_split_results();
    std::fs::write(&good, results.join("\n")).expect("write");
    std::fs::write(&bad, "\nnot a result\n").expect("write");
    let merge = Command::new(ROOKLING)
        .args(["perft", "--merge"])
        .args([&good, &bad])
        .output()
        .expect("rookling runs");
    assert_eq!(merge.status.code(), Some(2));
    assert!(merge.stdout.is_empty());
    let err = String::from_utf8_lossy(&merge.stderr);
    assert!(err.contains(&format!("{}:2:", bad.display())), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The result lines of `rookling perft --unit LINE --stats` for every unit of a split.
fn count_with_stats(units: &[String]) -> Vec<String> {
    units
        .iter()
        .map(|unit| {
            let out = rookling(&["perft", "--unit", unit, "--stats"], "");
            assert!(out.status.success(), "unit {unit}: {out:?}");
            String::from_utf8_lossy(&out.stdout).trim().to_string()
        })
        .collect()
}

/// Statistics through split, units and merge: the merged breakdown is the one of the
/// whole, on a position not in the repository (transpositions give multiplicities > 1),
/// in any order; a unit counted without statistics among ones with is refused, and so is
/// a count that is not a multiple of the multiplicity.
#[test]
fn statistics_split_and_merge_exactly() {
    let fen = "r3k2r/1b4bq/8/8/8/8/7B/R3K2R b KQkq - 3 7";
    let mut results = count_with_stats(&split(fen, 4, 2));
    assert!(
        results.iter().all(|r| r.starts_with("stats ")),
        "{results:?}"
    );
    let pos = Position::from_fen(fen).expect("valid FEN");
    let whole = rookling::perft::stats::reference::stats(&pos, 4);
    results.reverse();
    let (status, stdout, stderr) = merge(&results.join("\n"));
    assert_eq!(status, Some(0), "{stderr}");
    assert_eq!(
        stdout,
        format!("Nodes searched: {}\n\n{whole}", whole.nodes)
    );

    let mut mixed = results.clone();
    let plain = count(
        results[1]
            .split_once(';')
            .map(|(_, u)| u)
            .unwrap_or_default(),
    );
    mixed[1] = plain;
    assert_refused(&mixed.join("\n"), Some(2), "with and without statistics");

    let small = count_with_stats(&split("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 4, 3));
    assert_eq!(merge(&small.join("\n")).0, Some(0));
    let multiple = small
        .iter()
        .position(|r| r.split(';').nth(3).is_some_and(|m| m != "1"))
        .expect("a transposition");
    let mut altered = small.clone();
    let counts: Vec<&str> = altered[multiple]
        .split(';')
        .next()
        .unwrap_or("")
        .split(' ')
        .collect();
    let bumped: Vec<String> = counts
        .iter()
        .enumerate()
        .map(|(i, c)| match (i, c.parse::<u128>()) {
            (2, Ok(n)) => (n + 1).to_string(),
            _ => c.to_string(),
        })
        .collect();
    altered[multiple] = with_field(&altered[multiple], 0, &bumped.join(" "));
    assert_refused(&altered.join("\n"), Some(multiple + 1), "not a multiple");
}

/// A `stats` result whose counts no perft can have is refused with its file and line,
/// status 2, before anything is summed: more captures (castles, checks, ...) than
/// nodes, more checkmates than checks.
#[test]
fn merge_refuses_impossible_statistics() {
    let results = count_with_stats(&split("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 3, 1));
    assert_eq!(merge(&results.join("\n")).0, Some(0));
    let counts = |r: &str| -> Vec<u128> {
        let head = r.split(';').next().unwrap_or("");
        let list = head.strip_prefix("stats ").expect("a stats result");
        list.split(' ')
            .map(|c| c.parse().expect("a count"))
            .collect()
    };
    // (the column to change, the column it must not exceed, what is said)
    let cases = [
        (1, 0, "captures"),
        (3, 0, "castles"),
        (5, 0, "checks"),
        (2, 1, "en passant"),
        (8, 5, "checkmates"),
    ];
    for (column, bound, said) in cases {
        let mut altered = results.clone();
        let line = altered.len() - 1;
        let mut c = counts(&altered[line]);
        c[column] = c[bound] + 1;
        // Kept a multiple of the multiplicity, so that only the arithmetic is wrong.
        let multiplicity: u128 = altered[line]
            .split(';')
            .nth(3)
            .and_then(|m| m.parse().ok())
            .expect("a multiplicity");
        c[column] = c[column].div_ceil(multiplicity) * multiplicity;
        let text: Vec<String> = c.iter().map(u128::to_string).collect();
        altered[line] = with_field(&altered[line], 0, &format!("stats {}", text.join(" ")));
        assert_refused(
            &altered.join("\n"),
            Some(line + 1),
            &format!("impossible statistics: {said}"),
        );
    }
}
