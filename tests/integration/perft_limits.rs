//! Perft at its limits, from the command line and over UCI: counts past 2^64 printed
//! exactly, depths the walk cannot run refused, and `isready` answered at once however
//! many threads are asked for.

use crate::common;

use common::run::rookling;

use common::Uci;
use std::path::Path;
use std::time::{Duration, Instant};

/// Two bare kings: perft 24 is 98,801,146,113,350,318,118, past 2^64 (the hash makes it
/// quick: few positions, many transpositions).
const KINGS: &str = "8/8/8/3k4/8/8/8/3K4 w - - 0 1";
const KINGS_24: &str = "98801146113350318118";

#[test]
fn counts_past_2_pow_64_are_exact_on_the_command_line() {
    for threads in ["1", "2"] {
        let out = rookling(&[
            "perft",
            "24",
            "--hash",
            "64",
            "--threads",
            threads,
            "--fen",
            KINGS,
        ]);
        assert!(out.status.success(), "{threads} threads: {out:?}");
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 7, "5 moves, a blank line, the total: {text}");
        assert_eq!(lines[6], format!("Nodes searched: {KINGS_24}"));
        // The divide lines are exact too: they sum to the total.
        let sum: u128 = lines[..5]
            .iter()
            .map(|l| l.rsplit(' ').next().and_then(|n| n.parse::<u128>().ok()))
            .map(|n| n.expect("a count"))
            .sum();
        assert_eq!(sum.to_string(), KINGS_24);
    }
}

#[test]
fn counts_past_2_pow_64_are_exact_over_uci() {
    let mut engine = Uci::start(Path::new(env!("CARGO_BIN_EXE_rookling")));
    for threads in [1, 2] {
        engine.send(&format!("setoption name Threads value {threads}"));
        engine.send("setoption name PerftHash value 64");
        engine.send(&format!("position fen {KINGS}"));
        engine.send("go perft 24");
        let lines = engine.read_until(|l| l.starts_with("Nodes searched:"));
        assert_eq!(
            lines.last().map(String::as_str),
            Some(format!("Nodes searched: {KINGS_24}").as_str()),
            "{threads} threads: {lines:?}"
        );
        engine.sync();
    }
}

#[test]
fn depths_the_walk_cannot_run_are_refused() {
    for args in [
        &["perft", "2000", "--threads", "2"][..],
        &["perft", "100000"],
        &["perft", "256", "--hash", "1"],
        &["perft", "300", "--split", "1"],
    ] {
        let out = rookling(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("at most 255"), "{args:?}: {err}");
    }
}

/// Many more threads than cores must not starve the thread that reads commands.
#[test]
fn isready_is_answered_at_once_with_1024_threads() {
    let mut engine = Uci::start(Path::new(env!("CARGO_BIN_EXE_rookling")));
    engine.send("setoption name Threads value 1024");
    engine.sync();
    let mut slowest = Duration::ZERO;
    for _ in 0..3 {
        engine.send("position startpos");
        engine.send("go perft 8");
        for _ in 0..5 {
            std::thread::sleep(Duration::from_millis(40));
            let asked = Instant::now();
            assert!(engine.sync().is_empty());
            slowest = slowest.max(asked.elapsed());
        }
        engine.send("stop");
        let line = engine.next_line(Duration::from_secs(5));
        assert_eq!(line.as_deref(), Some("info string perft stopped"));
    }
    assert!(
        slowest < Duration::from_millis(300),
        "readyok took {slowest:?}"
    );
}

/// The tools refuse a depth perft cannot run before starting anything: `compare
/// --depth 256` used to wait out the whole `--timeout` for Rookling's refusal over UCI,
/// and a suite line `;D300 0` (or `suite --depth 300` with a reference engine) ran
/// every depth below it and then failed with "perft stopped".
#[test]
fn depths_the_tools_cannot_run_are_refused_up_front() {
    for args in [
        &["compare", "--depth", "256", "--candidate", "/nonexistent"][..],
        &["suite", "tests/data/standard.epd", "--depth", "300"],
    ] {
        let out = rookling(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("is not in 1..=255"), "{args:?}: {err}");
    }
    let dir = std::env::temp_dir().join(format!("rookling-deep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("deep.epd");
    // Stalemate: every count is 0, so no node budget ever stops the run.
    std::fs::write(&file, "7k/5Q2/6K1/8/8/8/8/8 b - - ;D1 0 ;D300 0\n").expect("written");
    let path = file.display().to_string();
    let out = rookling(&["suite", &path]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim(),
        format!("rookling: {path}:1: depth 300 is deeper than perft runs (at most 255)")
    );
}
